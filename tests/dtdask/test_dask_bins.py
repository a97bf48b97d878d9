"""The Dask engine's bins are the in-memory ones, hence scikit-learn's: below ``SAMPLE_ROWS``
rows every partition's sample is all its rows, so the quantile edges (``averaged_inverted_cdf``)
and the exact edges (midpoints of the distinct values) equal ``fit_bins``'s and ``_BinMapper``'s."""

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper

from dtcore.cart.hist.binning import fit_bins
from dtdask.fit import prepare


def test_dask_edges_are_the_in_memory_and_scikit_learn_edges():
    rng = np.random.default_rng(8)
    n = 40_000
    df = pd.DataFrame({
        "a": rng.normal(size=n),
        "b": np.round(rng.exponential(size=n) * 40),  # ~400 distinct values, ties
        "c": np.round(rng.random(n) * 9),  # exact
    })  # fmt: skip
    df.loc[rng.random(n) < 0.1, "a"] = np.nan
    df["y"] = (df.a.fillna(0) + df.c > 4).astype(int)
    ddf = dd.from_pandas(df, npartitions=5)
    with dask.config.set(scheduler="synchronous"):
        _, bins, rows, _, _ = prepare(ddf, "y", "classification", 64)
    X = df[["a", "b", "c"]].to_numpy()
    mem = fit_bins(X, [0, 0, 0], 64)
    ref = _BinMapper(n_bins=65).fit(X).bin_thresholds_
    assert rows == n and [f.kind for f in bins.features] == ["quantile", "quantile", "exact"]
    for j, (d, m) in enumerate(zip(bins.features, mem.features, strict=True)):
        np.testing.assert_array_equal(d.edges, m.edges, err_msg=f"feature {j}")
        np.testing.assert_array_equal(d.edges, ref[j], err_msg=f"feature {j}")
        assert d.n_bins == m.n_bins
