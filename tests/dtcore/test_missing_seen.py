"""Tree.saw_missing: which tests met a missing value in training. It equals a brute-force check
over Tree.reach, survives the JSON model and pruning, and DOT says "missing →" only there (old
models without the field keep the label everywhere)."""

import json
import re

import numpy as np
import pytest

from dtcore.export import dumps_model, model_from_dict, to_dot
from dtcore.pruning import prune
from tests.dtcore.whatif_models import fitted

MARK = re.compile(r"<I>missing[^<]* →</I>")  # "missing →", or "missing, 蜷缩 →" with categories


@pytest.mark.parametrize(
    ("sample", "algo"),
    [("watermelon_2.0_missing", "cart"), ("watermelon_2.0_missing", "c45"), ("labor", "c45"),
     ("vote", "cart"), ("penguins", "id3"), ("iris", "cart")],
)  # fmt: skip
def test_saw_missing_equals_the_rows_that_reach_each_test(sample, algo):
    est, _, Xe = fitted(sample, algo)
    tree = est.tree_
    want = np.zeros(tree.node_count, dtype=bool)
    for i in np.flatnonzero(tree.feature >= 0):
        rows, w = tree.reach(Xe, int(i))
        rows = rows[w > 0]
        want[i] = bool(np.any(tree.branch_of(int(i), Xe[rows, tree.feature[i]]) < 0))
    np.testing.assert_array_equal(tree.saw_missing, want)
    assert want.any() == (sample != "iris")


def test_dot_marks_missing_only_where_training_met_it():
    complete, _, _ = fitted("watermelon_3.0", "cart")
    assert not complete.tree_.saw_missing.any()
    assert "missing →" not in to_dot(complete)
    est, _, _ = fitted("watermelon_2.0_missing", "cart")
    dot = to_dot(est)
    tree = est.tree_
    assert len(MARK.findall(dot)) == int(tree.saw_missing.sum()) > 0
    for i in np.flatnonzero(tree.saw_missing):
        child = int(tree.children_of(int(i))[tree.missing_branch[i]])
        assert f'dtedge{i}_{child}", label=<' in dot
        line = next(s for s in dot.splitlines() if f'id="dtedge{i}_{child}"' in s)
        assert MARK.search(line)


def test_json_round_trip_and_old_models():
    est, _, _ = fitted("watermelon_2.0_missing", "cart")
    d = json.loads(dumps_model(est))
    assert d["tree"]["saw_missing"] == est.tree_.saw_missing.tolist()
    again = model_from_dict(d)
    np.testing.assert_array_equal(again.tree_.saw_missing, est.tree_.saw_missing)
    del d["tree"]["saw_missing"]  # a model saved before the field existed
    old = model_from_dict(d)
    assert old.tree_.saw_missing is None
    assert len(MARK.findall(to_dot(old))) == int((old.tree_.feature >= 0).sum())
    d["tree"]["saw_missing"] = [1] * len(d["tree"]["feature"])
    with pytest.raises(ValueError, match="saw_missing"):
        model_from_dict(d)


def test_pruning_keeps_the_flags_of_kept_tests():
    est, X, Xe = fitted("watermelon_2.0_missing", "cart")
    tree = est.tree_
    pruned, _ = prune(tree, "ccp", alpha=0.05)
    assert pruned.saw_missing is not None and pruned.saw_missing.size == pruned.node_count
    assert not pruned.saw_missing[pruned.feature < 0].any()
    assert pruned.saw_missing.sum() <= tree.saw_missing.sum()
    c45, X, Xe = fitted("watermelon_2.0_missing", "c45")
    y = np.array([0] * 8 + [1] * 9)
    raised, _ = prune(c45.tree_, "ebp", X_train=Xe, y_train=y, cf=0.5)
    assert raised.saw_missing is not None and raised.saw_missing.size == raised.node_count


def test_forced_split_trees_know_their_missing_values():
    from dtcore.analysis.forcing import force_split
    from dtcore.explain import tree_test
    from dtcore.schema import encode_classes

    est, X, Xe = fitted("watermelon_2.0_missing", "cart")
    y = encode_classes(["是"] * 8 + ["否"] * 9, est.schema_.classes)[0]
    c45, _, _ = fitted("watermelon_2.0_missing", "c45")
    forced = force_split(est, Xe, y, None, 0, tree_test(c45.tree_, 0))  # C4.5's multiway root test
    assert forced.saw_missing is not None and forced.saw_missing[0]
    for i in np.flatnonzero(forced.feature >= 0):
        rows, w = forced.reach(Xe, int(i))
        lost = forced.branch_of(int(i), Xe[rows[w > 0], forced.feature[i]]) < 0
        assert forced.saw_missing[i] == bool(lost.any())
