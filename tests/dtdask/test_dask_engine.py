"""The Dask engine on a real ``distributed.LocalCluster`` (2 workers) and real Parquet files:
the same tree as the in-memory ``splitter="hist"``, the same JSON model, bins gathered across
partitions, and ``dtcore train … --engine dask --scheduler ADDR`` as a user runs it: a separate
``python -m dtcore`` process reaching the scheduler over TCP."""

import json
import subprocess
import sys
from pathlib import Path

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.cart.hist import grow_in_memory
from dtcore.export import dumps_model, model_from_dict
from dtdask import connect, fit_dask, read_frame
from dtdask.fit import prepare
from tests.cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client():
    # threads (no process start-up) with TCP, so that a CLI subprocess can reach the scheduler
    with connect(processes=False, protocol="tcp") as c:
        yield c


def table(n=100_000, seed=0):
    """≤ 255 distinct values per continuous feature, NaN cells, a categorical column."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{i}": np.round(rng.random(n) * (20 + 40 * i)) / 4 for i in range(4)})
    df.loc[rng.random(n) < 0.05, "x1"] = np.nan
    df["colour"] = rng.choice(["red", "green", "blue", "amber", "grey"], n)
    df.loc[rng.random(n) < 0.02, "colour"] = None
    signal = df.x0.fillna(0) + 0.3 * df.x1.fillna(5) + 4 * (df.colour == "red") + rng.normal(size=n)
    df["value"] = signal
    df["label"] = np.where(signal > signal.median(), "high", "low")
    return df


@pytest.fixture(scope="module")
def parquet_dir(tmp_path_factory):
    df = table()
    d = tmp_path_factory.mktemp("parts")
    for i, idx in enumerate(np.array_split(np.arange(len(df)), 8)):
        df.iloc[idx].to_parquet(d / f"part-{i}.parquet")
    return d, df


def in_memory(df):
    """The frame as the app and the CLI hand it to dtcore: object cells, None where missing."""
    return df.astype(object).where(df.notna(), None)


def assert_same_tree(a, b, exact_values=True):
    for name in ("feature", "parent", "children", "cuts", "cat_branch", "missing_branch", "n_samples"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    if exact_values:
        np.testing.assert_array_equal(a.value, b.value)
    else:
        np.testing.assert_allclose(a.value, b.value, rtol=1e-9)


def test_classification_from_parquet_is_the_in_memory_hist_tree(client, parquet_dir):
    d, df = parquet_dir
    features = ["x0", "x1", "x2", "x3", "colour"]
    levels = []
    dist = fit_dask(
        str(d / "*.parquet"), "label", features=features, client=client, max_depth=6, on_level=levels.append
    )
    mem = CARTClassifier(splitter="hist", max_depth=6).fit(
        in_memory(df[features]), df["label"], target_name="label"
    )
    assert dist.tree_.node_count > 40
    assert_same_tree(dist.tree_, mem.tree_)
    assert levels == list(range(1, len(levels) + 1)) and len(levels) == dist.get_depth()
    # the same model file, and a normal dtcore model
    assert dumps_model(dist) == dumps_model(mem)
    again = model_from_dict(json.loads(dumps_model(dist)))
    np.testing.assert_array_equal(
        again.predict(df[features].head(500)), mem.predict(df[features].head(500)).astype(str)
    )


def test_regression_from_a_dask_frame(client, parquet_dir):
    _, df = parquet_dir
    cols = ["x0", "x1", "x2", "colour", "value"]
    ddf = dd.from_pandas(df[cols], npartitions=5)
    dist = fit_dask(ddf, "value", client=client, max_depth=5, min_samples_leaf=50)
    assert isinstance(dist, CARTRegressor)
    mem = CARTRegressor(splitter="hist", max_depth=5, min_samples_leaf=50).fit(
        in_memory(df[cols[:-1]]), df["value"]
    )
    assert_same_tree(dist.tree_, mem.tree_, exact_values=False)


def test_many_distinct_values_bin_by_a_sketch_and_grow_the_in_memory_tree_on_those_bins(client, tmp_path):
    rng = np.random.default_rng(5)
    n = 40_000
    df = pd.DataFrame({"a": rng.normal(size=n), "b": rng.random(n), "c": np.round(rng.random(n) * 9)})
    df["y"] = (df.a + df.b * 2 + rng.normal(size=n) * 0.3 > 1).astype(int)
    for i, idx in enumerate(np.array_split(np.arange(n), 4)):
        df.iloc[idx].to_parquet(tmp_path / f"p{i}.parquet")
    ddf = read_frame(str(tmp_path / "*.parquet"))
    schema, bins, rows, _, _ = prepare(ddf, "y", "classification", 64, client=client)
    assert rows == n and [f.kind for f in bins.features] == ["quantile", "quantile", "exact"]
    assert all(f.n_bins <= 64 for f in bins.features)
    dist = fit_dask(ddf, "y", client=client, max_depth=5, max_bins=64)
    est = CARTClassifier(splitter="hist", max_depth=5, max_bins=64)
    X = df[["a", "b", "c"]].to_numpy()
    tree = grow_in_memory(
        X, df.y.to_numpy(), np.ones(n), [0, 0, 0], est._params_for(n, np.ones(n), 2), bins=bins
    )
    assert_same_tree(dist.tree_, tree)


def test_cli_trains_on_a_glob_at_a_scheduler_address(client, parquet_dir, tmp_path):
    d, df = parquet_dir
    out = tmp_path / "model.json"
    proc = subprocess.run(
        [sys.executable, "-m", "dtcore", "train", *sorted(map(str, d.glob("*.parquet"))), "--target", "label",
         "--ignore", "value", "--engine", "dask", "--scheduler", client.scheduler.address,
         "--max-depth", "4", "--out", str(out)],
        cwd=ROOT, capture_output=True, encoding="utf-8", timeout=600,  # a hang guard
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "level 4 done" in proc.stderr and "trained cart on dask" in proc.stderr
    model = json.loads(out.read_text(encoding="utf-8"))
    assert model["params"]["splitter"] == "hist"
    mem = CARTClassifier(splitter="hist", max_depth=4)
    mem.fit(in_memory(df[["x0", "x1", "x2", "x3", "colour"]]), df["label"], target_name="label")
    assert dumps_model(model_from_dict(model)) == dumps_model(mem)


def test_cli_sends_parquet_and_too_large_files_to_the_dask_engine(tmp_path, parquet_dir):
    from dtcore.cli.engines import check_fits_in_memory
    from dtcore.schema import DataError

    d, _ = parquet_dir
    proc = run_cli("train", d / "part-0.parquet", "--target", "label", "--out", tmp_path / "m.json")
    assert proc.returncode == 2 and "--engine dask" in proc.stderr
    csv = tmp_path / "big.csv"
    csv.write_text("a,b,y\n" + "1.5,2.5,0\n" * 10_000, encoding="utf-8")
    with pytest.raises(DataError, match="--engine dask"):
        check_fits_in_memory(csv, available=100_000)  # 10⁴ rows × 3 columns × 8 × 4 bytes > 100 kB
    check_fits_in_memory(csv, available=10**9)
