"""Issue 29 item 2, CART's half: a categorical feature of many labels, each on a few rows. A CART
test holds a branch for every label (most of them -1 at a deep node: not seen there), so the
model file wrote nodes × labels numbers (10⁸ at 10⁵ labels: 15 minutes and 10 GB). The file now
writes long category tables as runs and names at most ``NO_BRANCH_LISTED`` unseen labels per
node, so it grows with what the nodes saw; loading refuses runs that would decode past the
schema's categories before allocating anything."""

import json

import numpy as np
import pytest

from dtcore import CARTClassifier
from dtcore.export import dumps_model, model_from_dict
from dtcore.export.model_json import NO_BRANCH_LISTED, RUNS_FROM


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
    assert tree.cat_branch.size > 40 * RUNS_FROM  # many tests, each with a 6 000-entry table
    text = dumps_model(est)
    d = json.loads(text)
    runs = d["tree"]["cat_branch"]
    assert set(runs) == {"values", "lengths"} and sum(runs["lengths"]) == tree.cat_branch.size
    seen = int((tree.cat_branch >= 0).sum())
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
    assert np.array_equal(back.tree_.cat_branch, est.tree_.cat_branch)
    assert np.array_equal(back.tree_.cat_ptr, est.tree_.cat_ptr)
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
