"""Issue 29 item 2, CART's half: a categorical feature of many labels, each on a few rows. A CART
test holds a branch for every label (most of them -1 at a deep node: not seen there), so the
model file wrote nodes × labels numbers (10⁸ at 10⁵ labels: 15 minutes and 10 GB). The file now
writes long category tables as runs and names at most ``NO_BRANCH_LISTED`` unseen labels per
node, so it grows with what the nodes saw; loading refuses runs that would decode past the
schema's categories before allocating anything. In memory the tables are sparse (the codes with
a branch), so the fitted tree grows with what the nodes saw too."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dtcore import CARTClassifier
from dtcore.export import dumps_model, model_from_dict, to_dot
from dtcore.export.dot import EDGE_LABELS_CUT, EDGE_LABELS_SHOWN
from dtcore.export.model_json import NO_BRANCH_LISTED, RUNS_FROM

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def many_labels():
    """6 000 labels, each on two rows, the class a coin flip: CART splits on label subsets."""
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(6_000), 2)
    rng.shuffle(labels)
    X = np.empty((labels.size, 2), dtype=object)
    X[:, 0] = [f"L{v}" for v in labels]
    X[:, 1] = rng.integers(0, 20, labels.size).astype(float)
    y = np.where(rng.random(labels.size) < 0.5, "yes", "no")
    est = CARTClassifier(max_depth=12).fit(X, y, feature_kinds=["categorical", "continuous"])
    return est, X


def test_the_file_grows_with_what_the_nodes_saw_not_nodes_times_labels(many_labels):
    est, X = many_labels
    tree = est.tree_
    offsets, dense = tree.dense_cat_tables()
    assert dense.size > 40 * RUNS_FROM  # many tests, each with a 6 000-entry table
    text = dumps_model(est)
    d = json.loads(text)
    runs = d["tree"]["cat_branch"]
    assert set(runs) == {"values", "lengths"} and sum(runs["lengths"]) == dense.size
    assert np.array_equal(np.repeat(runs["values"], runs["lengths"]), dense)  # the dense tables' runs
    assert d["tree"]["cat_ptr"] == offsets.tolist()
    seen = int((dense >= 0).sum())
    assert len(runs["values"]) <= 2 * seen + 2 * tree.node_count
    assert len(text) < 60 * (seen + tree.node_count * NO_BRANCH_LISTED)  # not ~ nodes × labels
    for rec in d["nodes"]:
        if rec.get("test", {}).get("kind") == "categorical":
            orphans = int((tree.cat_branch_of(rec["id"]) < 0).sum())
            assert len(rec["test"]["no_branch"]) == min(orphans, NO_BRANCH_LISTED)
            assert rec["test"].get("no_branch_count", orphans) == orphans


def test_runs_load_back_to_the_same_tree_and_predictions(many_labels):
    est, X = many_labels
    back = model_from_dict(json.loads(dumps_model(est)))
    for name in ("cat_size", "cat_ptr", "cat_code", "cat_branch"):
        assert np.array_equal(getattr(back.tree_, name), getattr(est.tree_, name)), name
    assert np.array_equal(back.predict(X), est.predict(X))


def test_small_tables_stay_plain_lists():
    X = np.array([["a"], ["b"], ["c"], ["a"], ["b"], ["c"]], dtype=object)
    est = CARTClassifier().fit(X, ["p", "q", "q", "p", "q", "q"], feature_kinds=["categorical"])
    d = json.loads(dumps_model(est))
    assert isinstance(d["tree"]["cat_branch"], list)
    assert "no_branch_count" not in json.dumps(d["nodes"])


def test_crafted_runs_are_refused_before_anything_is_allocated(many_labels):
    est, _ = many_labels
    d = json.loads(dumps_model(est))
    n_nodes = len(d["tree"]["feature"])
    bomb = json.loads(json.dumps(d))
    bomb["tree"]["cat_branch"] = {"values": [-1], "lengths": [10**12]}
    bomb["tree"]["cat_ptr"] = [0] * n_nodes + [10**12]
    with pytest.raises(ValueError, match="runs do not decode"):
        model_from_dict(bomb)
    for runs in ({"values": [0], "lengths": [0]}, {"values": [0.5], "lengths": [3]}, {"values": [0]}):
        bad = json.loads(json.dumps(d))
        bad["tree"]["cat_branch"] = runs
        with pytest.raises(ValueError, match="cat_branch"):
            model_from_dict(bad)


def test_the_fitted_tree_holds_only_the_codes_its_tests_saw(many_labels):
    """Sparse in memory: the listed codes are the dense tables' entries that have a branch, and
    a node's dense table (``cat_branch_of``) and the router agree with them."""
    est, X = many_labels
    tree = est.tree_
    offsets, dense = tree.dense_cat_tables()
    assert tree.cat_branch.size == int((dense >= 0).sum()) < dense.size / 5
    tests = np.flatnonzero(tree.cat_size > 0)
    for i in tests[:50].tolist():
        table = tree.cat_branch_of(i)
        assert np.array_equal(table, dense[offsets[i] : offsets[i + 1]])
        codes = np.arange(table.size)
        assert np.array_equal(tree.cat_lookup()(np.full(codes.size, i), codes), table)


#: the fit of ``test_fitting_on_many_labels_holds_no_dense_table``, in its own interpreter (this
#: suite's fits are each saved and reloaded, which would count the model file's text): prints
#: the fit's peak traced bytes and the dense tables' bytes
MANY_LABELS_FIT = """
import tracemalloc
import numpy as np
from dtcore import CARTClassifier
rng = np.random.default_rng(1)
labels = np.repeat(np.arange(20_000), 2)
rng.shuffle(labels)
X = np.empty((labels.size, 2), dtype=object)
X[:, 0] = [f"L{v}" for v in labels]
X[:, 1] = rng.normal(size=labels.size).round(2)
y = np.where(rng.random(labels.size) < 0.5, "yes", "no")
tracemalloc.start()
tree = CARTClassifier().fit(X, y, feature_kinds=["categorical", "continuous"]).tree_
print(tracemalloc.get_traced_memory()[1], 4 * int(tree.cat_size.sum()), int((tree.cat_size > 0).sum()))
"""


def test_fitting_on_many_labels_holds_no_dense_table():
    """20 000 labels on two rows each, grown out (about 330 categorical tests): the dense tables
    would be 25 MB (nodes × labels) and the fit once peaked at 81 MB; it now stays below what one
    dense copy would take."""
    run = subprocess.run(
        [sys.executable, "-c", MANY_LABELS_FIT], capture_output=True, text=True, check=True, cwd=ROOT
    )
    peak, dense_bytes, n_tests = map(int, run.stdout.split())
    assert n_tests > 200 and dense_bytes > 20 * 2**20
    assert peak < dense_bytes


def test_an_edge_names_a_few_labels_and_counts_the_rest(many_labels):
    """The picture: a subset of 3 000 labels on an edge once wrote all of them (6 MB of DOT at
    5 000 labels); an edge now names ``EDGE_LABELS_CUT`` of a long list and counts the others."""
    est, _ = many_labels
    tree = est.tree_
    dot = to_dot(est)
    root = tree.cat_branch_of(0)
    n_left = int((root == 0).sum())
    assert n_left > EDGE_LABELS_SHOWN
    edge = next(line for line in dot.splitlines() if line.startswith("node0 -> node1 "))
    assert f"… {n_left - EDGE_LABELS_CUT} more" in edge
    assert (
        len(re.findall(r"\bL\d+", edge)) <= 2 * EDGE_LABELS_CUT
    )  # the subset's and the no-branch labels, cut
    assert len(dot) < 2_000 * tree.node_count
