"""The command line and the app agree on roles and task (one engine: ``dtcore.data.roles``), and so
do the CLI's two engines, in memory and on Dask.

Each bundled CSV sample, and a few edge tables, is read the way each path reads it (the CLI with
``dtcore.data.readers.read_table``, the app with ``ui.services.loading``) and prepared by each path's own
function: the CLI's ``prepare_training`` and the app's ``ui.services.roles.infer_roles``/``infer_task``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from dtcore.schema import infer_kind
from tests.cli_runner import run_cli
from ui.services import roles as R
from ui.services.loading import read_bytes

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assets" / "samples"
CATALOGUE = {
    s["file"]: s for s in json.loads((SAMPLES / "index.json").read_text(encoding="utf-8"))["samples"]
}


def cli_roles(path: Path, target: str):
    """Roles and task as ``python -m dtcore train DATA --target T`` (no other flag) uses them."""
    table = read_table(path)
    X, _y, features, kinds, _cats, _classes, task = prepare_training(table, target)
    roles = {n: R.IGNORE for n in table.names}
    roles[target] = R.TARGET
    for j, n in enumerate(features):
        roles[n] = kinds.get(n) or infer_kind(X[:, j])
    return roles, task


def app_roles(path: Path, target: str):
    """Roles and task as the Data page sets them for an uploaded file (``ui.state.set_data``)."""
    loaded = read_bytes(path.read_bytes(), path.name)
    roles = R.infer_roles(loaded.df, target, (), loaded.declared_kinds)
    return roles, R.infer_task(loaded.df, R.target_of(roles))


def assert_parity(path: Path, target: str):
    cli, cli_task = cli_roles(path, target)
    app, app_task = app_roles(path, target)
    assert cli == app
    assert cli_task == app_task
    return app, app_task


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.csv")))
def test_every_sample_gets_the_same_roles_and_task(name):
    target = CATALOGUE[name]["target"] if name in CATALOGUE else None
    if target is None:
        target = read_table(SAMPLES / name).names[-1]
    roles, _ = assert_parity(SAMPLES / name, target)
    for col in CATALOGUE.get(name, {}).get("ignore", []):
        assert roles[col] == R.IGNORE, col  # the catalogue's ignored IDs are found by the rules


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


IDX_GRADE = "idx,x,grade\n" + "".join(
    f"{i},{x},{g}\n"
    for i, (x, g) in enumerate(
        [(0.5, 1), (1.5, 1), (2.5, 2), (3.1, 2), (4.2, 3), (5.0, 3), (6.3, 1), (7.7, 2)], start=1
    )
)


def test_idx_x_grade(tmp_path):
    """The issue's table: ``idx`` is an identifier in both paths, ``grade`` ∈ {1,2,3} is classes."""
    roles, task = assert_parity(_write(tmp_path, "g.csv", IDX_GRADE), "grade")
    assert roles == {"idx": R.IGNORE, "x": R.CONTINUOUS, "grade": R.TARGET}
    assert task == R.CLASSIFICATION


@pytest.mark.parametrize(
    "text,target,expected,task",
    [
        # a constant column
        (
            "k,a,y\nsame,1,p\nsame,2,q\nsame,3,p\nsame,4,q\n",
            "y",
            {"k": R.IGNORE, "a": R.CONTINUOUS, "y": R.TARGET},
            R.CLASSIFICATION,
        ),
        # an all-missing column
        (
            "m,a,y\n,1.5,2.5\n,2.5,3.5\n,3.5,1.25\n,4.5,7.5\n",
            "y",
            {"m": R.IGNORE, "a": R.CONTINUOUS, "y": R.TARGET},
            R.REGRESSION,
        ),
        # three rows: labels all distinct (an identifier), numbers kept
        (
            "name,v,y\nann,1,a\nbob,2,b\ncid,3,a\n",
            "y",
            {"name": R.IGNORE, "v": R.CONTINUOUS, "y": R.TARGET},
            R.CLASSIFICATION,
        ),
        # a few whole numbers that do not recur: values, not classes (regression_toy5's target)
        ("x,y\n1,1\n2,3\n3,3\n4,6\n5,6\n", "y", {"x": R.CONTINUOUS, "y": R.TARGET}, R.REGRESSION),
        # a 0/1 target is classes
        ("x,y\n1,0\n2,1\n3,0\n4,1\n5,1\n6,0\n", "y", {"x": R.CONTINUOUS, "y": R.TARGET}, R.CLASSIFICATION),
    ],
)
def test_edge_tables(tmp_path, text, target, expected, task):
    roles, got = assert_parity(_write(tmp_path, "t.csv", text), target)
    assert roles == expected and got == task


def test_cli_notes_the_ignored_identifier_and_trains_a_classifier(tmp_path):
    data = _write(tmp_path, "g.csv", IDX_GRADE)
    model = tmp_path / "m.json"
    proc = run_cli("train", data, "--target", "grade", "--out", model)
    assert proc.returncode == 0, proc.stderr
    assert "'idx'" in proc.stderr and "--keep idx" in proc.stderr
    d = json.loads(model.read_text(encoding="utf-8"))
    assert d["task"] == "classification" and [f["name"] for f in d["schema"]["features"]] == ["x"]
    proc = run_cli("train", data, "--target", "grade", "--keep", "idx", "--out", model)
    assert proc.returncode == 0, proc.stderr
    assert [f["name"] for f in json.loads(model.read_text(encoding="utf-8"))["schema"]["features"]] == [
        "idx",
        "x",
    ]


# =============================================================================================
# memory and Dask: the same rules (``dtcore.data.roles``) on the same table


def _roles_table(n=600, seed=3):
    """An integer ID, a label ID, an integer with 200 distinct values and a float in {1, 2, 3}
    (the two targets the engines used to read oppositely), numbers and labels."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "id": rng.permutation(n),
            "code": [f"c{i:04d}" for i in rng.permutation(n)],
            "x": np.round(rng.random(n) * 50, 2),
            "colour": rng.choice(["red", "green", "blue"], n),
            "n200": np.arange(n) % 200,
            "g3": rng.choice([1.0, 2.0, 3.0], n),
        }
    )


@pytest.fixture(scope="module")
def dask_client():
    from dtdask.cluster import connect

    with connect(n_workers=1, processes=False, protocol="tcp") as c:
        yield c


@pytest.fixture(scope="module")
def same_table(tmp_path_factory):
    """The table as a CSV file (the in-memory engine reads no Parquet) and as three Parquet files."""
    df = _roles_table()
    d = tmp_path_factory.mktemp("roles")
    df.to_csv(d / "t.csv", index=False)
    parts = []
    for i, idx in enumerate(np.array_split(np.arange(len(df)), 3)):
        parts.append(d / f"part-{i}.parquet")
        df.iloc[idx].to_parquet(parts[-1])
    return df, d / "t.csv", parts


def _trained(argv, capsys):
    from dtcore.cli import main

    out = Path(argv[argv.index("--out") + 1])
    assert main(argv) == 0, capsys.readouterr().err
    model = json.loads(out.read_text(encoding="utf-8"))
    kinds = {f["name"]: f["kind"] for f in model["schema"]["features"]}
    return model["task"], kinds, capsys.readouterr().err


@pytest.mark.parametrize(
    "target,task",
    [("n200", R.REGRESSION), ("g3", R.CLASSIFICATION)],
)
def test_memory_and_dask_clis_give_the_same_roles_and_task(
    dask_client, same_table, tmp_path, capsys, target, task
):
    _, csv, parts = same_table
    out = ["--target", target, "--max-depth", "3"]
    mem = _trained(["train", str(csv), *out, "--out", str(tmp_path / "mem.json")], capsys)
    dask_argv = ["train", *map(str, parts), *out, "--engine", "dask"]
    dask_argv += ["--scheduler", dask_client.scheduler.address, "--out", str(tmp_path / "dask.json")]
    dist = _trained(dask_argv, capsys)
    assert mem[:2] == dist[:2]
    assert mem[0] == task
    other = {"n200": "g3", "g3": "n200"}[target]
    assert mem[1] == {"x": R.CONTINUOUS, "colour": R.CATEGORICAL, other: R.CONTINUOUS}
    for err in (mem[2], dist[2]):  # both say why the identifiers are left out
        assert "'id'" in err and "--keep id" in err and "'code'" in err and "--keep code" in err


def test_dask_cli_keeps_an_identifier_when_told(dask_client, same_table, tmp_path, capsys):
    _, _, parts = same_table
    argv = ["train", *map(str, parts), "--target", "g3", "--keep", "id", "--max-depth", "2"]
    argv += ["--engine", "dask", "--scheduler", dask_client.scheduler.address]
    task, kinds, _ = _trained([*argv, "--out", str(tmp_path / "m.json")], capsys)
    assert task == R.CLASSIFICATION and kinds["id"] == R.CONTINUOUS and "code" not in kinds


def test_dask_profiles_are_the_in_memory_profiles(dask_client, same_table, monkeypatch):
    """Per-partition summaries merged give each column's in-memory profile, also when the
    partitions hold more distinct values than they keep (then the workers count the IDs)."""
    import dask.dataframe as dd

    import dtdask.profiles as P
    from dtcore.data import roles as E

    df, _, _ = same_table
    ddf = dd.from_pandas(df, npartitions=4)
    whole = {n: E.profile_column(n, P.profile_cells(df[n])) for n in df.columns}
    assert P.profile_frame(ddf, list(df.columns), dask_client) == whole
    monkeypatch.setattr(P, "DISTINCT_KEPT", 30)  # fewer than the IDs and n200 hold per partition
    got = P.profile_frame(ddf, list(df.columns), dask_client)
    assert got["id"] == whole["id"] and got["code"] == whole["code"] and got["id"].identifier
    assert got["n200"].n_distinct > 30 and not got["n200"].class_like  # a lower bound decides it
    assert got["g3"] == whole["g3"] and got["colour"] == whole["colour"]


def test_blocks_merge_into_the_whole_columns_profile():
    from dtcore.data import roles as E

    columns = {
        "mixed": [1, "a", None, 2.5, "a", "?"],
        "whole": ["1", "2", None, "3", "2", "1"],
        "comma": ["1,5", "2,5", None, None, "3,5", "1,5"],
        "split": ["train", "test", "train", None, "valid", "train"],
        "empty": [None, "", None, "NA", None, None],
        "ids": ["a", "b", "c", "d", "e", "f"],
    }
    for name, cells in columns.items():
        arr = np.array(cells, dtype=object)
        blocks = [E.column_part(name, arr[i : i + 2]) for i in range(0, len(arr), 2)]
        assert E.profile_of_parts(blocks) == E.profile_column(name, arr), name
