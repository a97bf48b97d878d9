"""The command line and the app agree on roles and task (one engine: ``dtcore.data.roles``).

Each bundled CSV sample, and a few edge tables, is read the way each path reads it (the CLI with
``dtcore.data.readers.read_table``, the app with ``ui.services.loading``) and prepared by each path's own
function: the CLI's ``prepare_training`` and the app's ``ui.services.roles.infer_roles``/``infer_task``.
"""

from __future__ import annotations

import json
from pathlib import Path

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
