"""ID3's ``min_samples_split`` counts a node's rows, as its ``min_samples_leaf`` and scikit-learn
do, not the node's weight: with missing values a row reaches a node with a fraction of its weight
and still counts as one row. It used to compare the weight and stop where textbook ID3 splits
(watermelon 2.0α: 纹理=清晰 → 脐部=稍凹 holds 3 rows of weight 1.678 and was a leaf with reason
``min_samples_split`` although 触感 is a valid test there); the split explorer agrees."""

import numpy as np
import pytest

from dtcore.data.readers import read_table
from dtcore.explain import split_report
from dtcore.id3.estimator import ID3Classifier
from dtcore.id3.rules import leaf_reason
from tests.datasets import DATA

FEATURES = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"]


def melon_missing(**params):
    table = read_table(DATA / "watermelon_2.0_missing.csv")
    X = table.rows[:, [table.column_index(n) for n in FEATURES]]
    y = table.rows[:, table.column_index("好瓜")]
    est = ID3Classifier(**params).fit(X, y, feature_names=FEATURES)
    classes = list(est.schema_.classes)
    codes = np.array([classes.index(str(v)) for v in y])
    return est, est.encode(X), codes


def child(est, node, feature, category):
    """The child of ``node`` (a test on ``feature``) that ``category`` goes to."""
    tree, j = est.tree_, FEATURES.index(feature)
    assert tree.feature[node] == j
    return int(tree.children_of(node)[est.schema_.features[j].categories.index(category)])


def test_the_textbook_node_splits_on_touch():
    est, Xe, codes = melon_missing()
    node = child(est, child(est, 0, "纹理", "清晰"), "脐部", "稍凹")
    tree = est.tree_
    assert tree.n_samples[node] == 3
    assert tree.weighted_n[node] == pytest.approx(1.678, abs=5e-4)  # below min_samples_split=2
    assert not tree.is_leaf[node]
    assert tree.feature[node] == FEATURES.index("触感")
    report = split_report(est, Xe, codes, node=node)
    assert report.leaf_reason is None
    assert report.chosen == FEATURES.index("触感")


def test_three_rows_stop_at_min_samples_split_four():
    est, Xe, codes = melon_missing(min_samples_split=4)
    node = child(est, child(est, 0, "纹理", "清晰"), "脐部", "稍凹")
    assert est.tree_.is_leaf[node]
    assert split_report(est, Xe, codes, node=node).leaf_reason == "min_samples_split"


@pytest.mark.parametrize("mss", [2, 3, 4, 6])
def test_the_explorer_stops_exactly_where_the_builder_stops(mss):
    est, Xe, codes = melon_missing(min_samples_split=mss)
    tree = est.tree_
    for node in range(tree.node_count):
        if tree.weighted_n[node] <= 0:
            continue  # an empty branch: a leaf by construction
        reason = split_report(est, Xe, codes, node=node).leaf_reason
        assert (reason is None) == (not tree.is_leaf[node]), (node, reason)
        if reason == "min_samples_split":
            assert tree.n_samples[node] < mss


def test_leaf_reason_reads_rows_not_weight():
    counts = np.array([0.678, 1.0])  # 1.678 of weight over three rows
    assert leaf_reason(counts, 3, depth=2, min_samples_split=2, max_depth=None) is None
    assert leaf_reason(counts, 1, depth=2, min_samples_split=2, max_depth=None) == "min_samples_split"
    assert leaf_reason(np.array([2.0, 0.0]), 5, depth=0, min_samples_split=2, max_depth=None) == "pure"
