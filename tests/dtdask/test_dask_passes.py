"""Issue 28: the Dask engine reads each partition once (the summaries and the encoding share the
read, ``scan_partition``) and records what the tree learns from its rows (which tests met a
missing value, the values beside each cut) while the rows are routed, with no pass after the
last level. The oracles are dtcore's in-memory rules: ``encode_features`` + ``Bins.transform``
for the blocks, ``node_rows.missing_seen`` / ``cut_neighbours`` for the tree's facts."""

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

from dtcore.node_rows import cut_neighbours, missing_seen
from dtcore.schema import encode_features, target_encoding
from dtdask import fit_dask
from dtdask.fit import prepare
from dtdask.source import encode_scanned, scan_partition, value_table
from dtdask.summary import DISTINCT_LIMIT, continuous_column, merge, sample_per_partition


def awkward_table(n=12_000, seed=3):
    """Quantile-binned values (more than DISTINCT_LIMIT distinct), exact bins of one value with
    a zero, 0.0 beside -0.0, values 1e-9 apart (one exact bin of two values), NaN cells, labels
    with a missing one; the signal uses each of them."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "wide": rng.normal(size=n),
        "steps": np.round(rng.random(n) * 20) / 4,
        "zeros": rng.choice([-0.0, 0.0, 0.5, -1.5, 2.0], n),
        "close": (np.round(rng.random(n) * 6) + 1) * (1 + 1e-9 * rng.integers(0, 2, n)),
        "colour": rng.choice(["red", "green", "blue", None], n),
    })  # fmt: skip
    df.loc[rng.random(n) < 0.06, "wide"] = np.nan
    df.loc[rng.random(n) < 0.04, "steps"] = np.nan
    s = (
        df.wide.fillna(0.3) + 0.4 * df.steps.fillna(1) + (df.zeros == 0) * 0.8 + 0.3 * df.close
        + (df.colour == "red") * 1.2 + rng.normal(size=n) * 0.4
    )  # fmt: skip
    df["label"] = np.where(s > s.median(), "high", "low")
    df["value"] = s
    return df


def in_memory(df):
    return df.astype(object).where(df.notna(), None)


FEATURES = ["wide", "steps", "zeros", "close", "colour"]
KINDS = {"wide": "continuous", "steps": "continuous", "zeros": "continuous", "close": "continuous",
         "colour": "categorical"}  # fmt: skip


def test_scanned_partitions_encode_as_dtcore_encodes_the_rows():
    df = awkward_table()
    parts = [df.iloc[:5_000], df.iloc[5_000:]]  # their own label orders differ from the table's
    k = sample_per_partition(len(parts))
    scans = [scan_partition(p, FEATURES, KINDS, "label", "classification", i, k) for i, p in enumerate(parts)]
    assert scans[0][0].distinct["wide"] is None and DISTINCT_LIMIT < 5_000  # quantile-binned
    schema, bins, rows = merge([s for s, _ in scans], FEATURES, KINDS, "label", "classification", 255)
    assert rows == len(df) and [f.kind for f in bins.features][:4] == ["quantile", "exact", "exact", "exact"]
    zero_seen = [any(s.negative_zero.get(f, False) for s, _ in scans) for f in schema.names]
    assert zero_seen == [False, False, True, False, False]
    table = value_table(bins, True, zero_seen)
    # values kept where the codes do not name them: quantile bins, a bin of two values, ±0
    assert (table.raw_row >= 0).tolist() == [True, False, True, True, False]
    for (summary, scanned), part in zip(scans, parts, strict=True):
        block = encode_scanned(scanned, summary.labels, summary.target_labels, schema, bins, table)
        X = encode_features(in_memory(part[FEATURES]).to_numpy(), schema)
        want = bins.transform(X)
        assert block.codes.dtype == want.dtype
        np.testing.assert_array_equal(block.codes, want)
        y, _ = target_encoding(in_memory(part)["label"].to_numpy(), "classification", schema.classes)
        np.testing.assert_array_equal(block.y, y)
        kept = X[:, table.raw_row >= 0].T
        np.testing.assert_array_equal(block.raw, kept)
        np.testing.assert_array_equal(np.signbit(block.raw), np.signbit(kept))  # -0.0 stays -0.0


def assert_facts_are_dtcores(est, df):
    """The Dask tree's saw_missing and cut neighbours are node_rows' on the same tree and rows,
    bit for bit (the sign of a zero included)."""
    X = encode_features(in_memory(df[est.schema_.names]).to_numpy(), est.schema_)
    tree = est.tree_
    below, above = cut_neighbours(tree, X)
    np.testing.assert_array_equal(tree.saw_missing, missing_seen(tree, X))
    np.testing.assert_array_equal(tree.cut_below, below)
    np.testing.assert_array_equal(tree.cut_above, above)
    np.testing.assert_array_equal(np.signbit(tree.cut_below), np.signbit(below))
    np.testing.assert_array_equal(np.signbit(tree.cut_above), np.signbit(above))


@pytest.mark.parametrize(
    ("target", "params"),
    [
        ("label", {"max_depth": 8}),
        ("label", {"max_depth": 7, "ccp_alpha": 0.002}),  # pruned: nodes found by their path
        ("value", {"max_depth": 6, "min_samples_leaf": 40}),
        ("label", {"max_depth": 7, "max_bins": 8}),  # "steps" quantile-binned too
    ],
)
def test_the_tree_records_node_rows_facts_from_the_routing(target, params):
    df = awkward_table()
    ddf = dd.from_pandas(df[FEATURES + [target]], npartitions=4)
    with dask.config.set(scheduler="synchronous"):
        est = fit_dask(ddf, target, **params)
    assert est.tree_.node_count > 15 and est.tree_.saw_missing.any()
    tested = set(est.tree_.feature[est.tree_.feature >= 0].tolist())
    assert {0, 2, 4} <= tested  # the quantile, the ±0 and the categorical features are tested
    assert_facts_are_dtcores(est, df)


def test_given_bins_keep_the_values_for_the_neighbours():
    """Bins fitted on other rows put other values in a one-value bin ("steps": bins of 0, 2.5
    and 5, rows of 0, 0.25, …, 5): the values are kept, the neighbours are still the rows'."""
    df = awkward_table()
    other = df.assign(steps=np.round(df.steps / 2.5) * 2.5)
    with dask.config.set(scheduler="synchronous"):
        _, bins, _, _, _ = prepare(dd.from_pandas(other[FEATURES + ["label"]], npartitions=2), "label",
                                   "classification", 255)  # fmt: skip
        assert bins.features[1].kind == "exact" and bins.features[1].n_bins == 3
        est = fit_dask(
            dd.from_pandas(df[FEATURES + ["label"]], npartitions=3), "label", max_depth=6, bins=bins
        )
    assert 1 in est.tree_.feature.tolist()
    assert_facts_are_dtcores(est, df)


def test_each_partition_is_read_once():
    """One read per partition for the summaries, the encoding and the growth together (the
    task is given: inferring it profiles the target column first)."""
    df = awkward_table(6_000)
    chunks = [df.iloc[i : i + 1_500] for i in range(0, len(df), 1_500)]
    reads: list[int] = []

    def read(i):
        reads.append(i)
        return chunks[i][FEATURES + ["label"]]

    ddf = dd.from_map(read, range(len(chunks)), meta=df[FEATURES + ["label"]].iloc[:0])
    with dask.config.set(scheduler="synchronous"):
        est = fit_dask(ddf, "label", task="classification", max_depth=6)
    assert sorted(reads) == [0, 1, 2, 3]
    assert_facts_are_dtcores(est, df)


@pytest.mark.parametrize("where", ["head", "tail"])
def test_a_column_past_the_distinct_limit_is_kept_as_values_whether_its_first_rows_say_so_or_not(where):
    """A column found past DISTINCT_LIMIT in its first rows is not hashed whole; one found so only
    further down is: either way the column is kept as its values, with no distinct set sent."""
    n = 8 * DISTINCT_LIMIT
    x = np.zeros(n)
    wide = np.arange(2 * DISTINCT_LIMIT, dtype=float) / 7
    if where == "head":
        x[: wide.size] = wide
    else:
        x[-wide.size :] = wide
    x[5] = -0.0
    x[7] = np.nan
    kept, distinct, negative_zero = continuous_column(x)
    assert distinct is None and negative_zero
    assert kept.uniques is None and kept.inverse is None
    np.testing.assert_array_equal(kept.real(), x)
    assert np.signbit(kept.real()[5])
    narrow = np.where(np.arange(n) % 3 == 0, 1.5, 2.5)  # few values: hashed, its distinct set sent
    kept, distinct, _ = continuous_column(narrow)
    np.testing.assert_array_equal(distinct, [1.5, 2.5])
    np.testing.assert_array_equal(kept.real(), narrow)
