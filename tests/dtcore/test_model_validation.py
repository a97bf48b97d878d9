"""Model files are user input: a crafted or damaged JSON model is refused on load with one line
that names the field, never a hang, a traceback of another type, or silently wrong predictions."""

import json
import warnings

import numpy as np
import pytest

from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.export import dumps_model, model_from_dict


def model(est_cls=CARTClassifier, **kw):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    X[::7, 1] = np.nan
    y = np.where(X[:, 0] > 0, "a", "b") if est_cls is not CARTRegressor else X[:, 0] * 2
    return json.loads(dumps_model(est_cls(**kw).fit(X, y)))


def refused(d, *phrases):
    with pytest.raises(ValueError) as info:
        model_from_dict(d)
    message = str(info.value)
    assert "\n" not in message
    for p in phrases:
        assert p in message, message


def test_a_sound_model_loads():
    for cls in (CARTClassifier, CARTRegressor, C45Classifier):
        est = model_from_dict(model(cls))
        assert est.tree_.node_count >= 3


def test_a_child_pointing_back_to_the_root_is_refused():
    d = model()
    d["tree"]["children"][1] = 0  # root's second child → the root: a cycle
    refused(d, "tree", "children")


@pytest.mark.parametrize(
    ("field", "index", "value", "phrase"),
    [
        ("children", 0, -3, "children"),
        ("children", 0, 10**6, "children"),
        ("parent", 1, 5, "parent"),
        ("feature", 0, 99, "feature"),
        ("missing_branch", 0, 7, "missing_branch"),
        ("weighted_n", 0, -1.0, "weighted_n"),
        ("n_samples", 0, -5, "n_samples"),
        ("depth", 1, 9, "depth"),
        ("child_ptr", 1, 999, "child_ptr"),
        ("cuts", 0, "NaN", "cuts"),
    ],
)
def test_broken_arrays_are_refused_naming_the_field(field, index, value, phrase):
    d = model()
    d["tree"][field][index] = value
    refused(d, phrase)


def test_non_finite_or_negative_counts_are_refused():
    d = model()
    d["tree"]["value"][0][0] = "NaN"
    refused(d, "value")
    d = model()
    d["tree"]["value"][-1][0] = -2.0
    refused(d, "value")


@pytest.mark.parametrize(
    ("path", "value", "phrase"),
    [
        (("task",), "foo", "task"),
        (("schema", "classes"), None, "classes"),
        (("tree", "feature"), None, "feature"),
        (("tree",), [], "tree"),
        (("schema",), "x", "schema"),
        (("tree", "n_classes"), 9, "n_classes"),
    ],
)
def test_wrong_entries_are_refused(path, value, phrase):
    d = model()
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    refused(d, phrase)


def test_missing_keys_are_refused():
    for key in ("parent", "value", "child_ptr"):
        d = model()
        del d["tree"][key]
        refused(d, key)


def test_a_model_file_that_is_not_utf8_is_refused_in_words(tmp_path):
    from dtcore.export import load_model

    path = tmp_path / "m.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(ValueError, match="not UTF-8"):
        load_model(path)


def test_the_cli_refuses_a_looping_model_in_one_line(tmp_path):
    from tests.cli_runner import run_cli

    d = model()
    d["tree"]["children"][1] = 0
    path = tmp_path / "loop.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    data = tmp_path / "x.csv"
    data.write_text("x0,x1,x2\n0.1,0.2,0.3\n", encoding="utf-8")
    proc = run_cli("predict", path, data, cwd=None)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("dtcore: error:") and "children" in proc.stderr


def test_a_model_with_two_missing_value_cuts_loads_without_a_warning():
    """Found by tests/dtcore/test_properties.py: CART's "known left, missing right" split stores
    the cut +inf; two such nodes side by side made the loader's sortedness check compute
    inf - inf and warn "invalid value encountered in subtract" on a sound model."""
    nan = np.nan
    X = np.array([[0.0, 0.0]] * 6 + [[0.0, nan]] * 3 + [[nan, 0.0]] * 3, dtype=object)
    y = np.array(["yes"] * 6 + ["no"] * 3 + ["maybe"] * 3, dtype=object)
    est = CARTClassifier().fit(X, y)
    assert np.isinf(est.tree_.cuts).sum() >= 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        back = model_from_dict(json.loads(dumps_model(est)))
    assert np.array_equal(back.predict(X), est.predict(X))


def test_the_tree_module_reads_no_model_files():
    """Reading a model file's tree lives in dtcore/export/: dtcore/tree.py imports only numpy,
    the standard library and top-level dtcore modules (no cycle through export or analysis)."""
    import ast
    from pathlib import Path

    import dtcore.tree

    source = Path(dtcore.tree.__file__).read_text(encoding="utf-8")
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    inside = {n for n in names if n.split(".")[0] == "dtcore"}
    assert all(n.count(".") == 1 for n in inside), inside
    assert not hasattr(dtcore.tree.Tree, "from_dict")
