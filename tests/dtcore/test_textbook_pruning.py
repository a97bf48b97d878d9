"""Zhou, 机器学习 §4.3 (issue 27 item 7): the bundled "watermelon 2.0, the textbook's training /
validation rows" sample grows the book's unpruned tree (figure 4.5) and prints the book's
validation accuracies (42.9 %, 57.1 %, 71.4 %); REP with the book's tie rule (``on_tie="keep"``)
prunes it to figure 4.7, with SPEC §8's (``"prune"``, the default) to the 脐部 stump.

On the training rows Gain(色泽) = Gain(脐部) = 0.2755 exactly, in floating point too; every
builder keeps the first of equal tests, so in table 4.2's column order (色泽 … 脐部 …) the root
is 色泽. The sample therefore lists 脐部 first; the algorithms' tie rule is unchanged."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dtcore import ID3Classifier
from dtcore.explain.report import split_report
from dtcore.export import load_model
from dtcore.pruning.collapse import collapse
from dtcore.pruning.interface import prune
from dtcore.tree import Tree
from tests.cli_runner import run_cli
from tests.datasets import DATA

BOOK_ORDER = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"]  # table 4.2's columns


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return pd.read_csv(DATA / "watermelon_2.0_textbook_split.csv", dtype=str)


def features(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c not in ("编号", "好瓜", "集合")]


def fit(df: pd.DataFrame, cols: list[str]) -> tuple[ID3Classifier, np.ndarray, np.ndarray]:
    tr, va = df[df["集合"] == "训练"], df[df["集合"] == "验证"]
    est = ID3Classifier().fit(tr[cols], tr["好瓜"])
    classes = list(est.schema_.classes)
    yv = np.array([classes.index(v) for v in va["好瓜"]])
    return est, est.encode(va[cols]), yv


def accuracy(tree: Tree, X: np.ndarray, y: np.ndarray) -> float:
    return round(float((tree.predict_proba(X).argmax(axis=1) == y).mean()), 3)


def shape(est: ID3Classifier, tree: Tree, node: int = 0) -> object:
    """The tree as nested {feature: {category: subtree}}, leaves as their class."""
    schema = est.schema_
    assert schema.classes is not None
    if tree.feature[node] < 0:
        return schema.classes[int(np.argmax(tree.value[node]))]
    feat = schema.features[int(tree.feature[node])]
    branch = tree.cat_branch_of(node)
    kids = tree.children_of(node)
    return {feat.name: {cat: shape(est, tree, int(kids[branch[k]])) for k, cat in enumerate(feat.categories)}}


def node_at(est: ID3Classifier, tree: Tree, *path: str) -> int:
    """The node reached by following category values from the root."""
    node = 0
    for value in path:
        feat = est.schema_.features[int(tree.feature[node])]
        node = int(tree.children_of(node)[tree.cat_branch_of(node)[feat.categories.index(value)]])
    return node


#: figure 4.5 (好瓜 = 是, 坏瓜 = 否)
FIGURE_4_5 = {
    "脐部": {
        "凹陷": {"色泽": {"青绿": "是", "乌黑": "是", "浅白": "否"}},
        "稍凹": {
            "根蒂": {
                "蜷缩": "否",
                "稍蜷": {
                    "色泽": {
                        "青绿": "是",
                        "乌黑": {"纹理": {"清晰": "否", "稍糊": "是", "模糊": "是"}},
                        "浅白": "是",
                    }
                },
                "硬挺": "是",
            }
        },
        "平坦": "否",
    }
}


def test_in_the_books_column_order_the_root_gains_tie_exactly_and_the_first_column_wins(sample):
    est, _, _ = fit(sample, BOOK_ORDER)
    tr = sample[sample["集合"] == "训练"]
    classes = list(est.schema_.classes)
    rep = split_report(est, est.encode(tr[BOOK_ORDER]), np.array([classes.index(v) for v in tr["好瓜"]]))
    gain = {f.name: f.gain for f in rep.features}
    assert round(gain["色泽"], 4) == 0.2755
    assert gain["色泽"] == gain["脐部"]  # an exact tie in floating point, not only in print
    assert est.schema_.features[int(est.tree_.feature[0])].name == "色泽"


def test_the_sample_lists_the_navel_first_so_it_grows_figure_4_5(sample):
    assert features(sample) == ["脐部", "色泽", "根蒂", "敲声", "纹理", "触感"]
    assert sorted(features(sample)) == sorted(BOOK_ORDER)
    est, Xv, yv = fit(sample, features(sample))
    assert shape(est, est.tree_) == FIGURE_4_5
    assert accuracy(est.tree_, Xv, yv) == 0.429  # "验证集精度 42.9%"


def test_the_books_pruning_steps_and_accuracies(sample):
    """Pre-pruning: the root split alone, 42.9 % as a leaf → 71.4 % (figure 4.6). Post-pruning
    (figure 4.7): 纹理 (⑥) → leaf 57.1 %; 色泽 under 稍蜷 (⑤) → leaf leaves 57.1 %, kept; 色泽
    under 凹陷 (②) → leaf 71.4 %; 根蒂 (③) → leaf leaves 71.4 %, kept; the root as a leaf 42.9 %."""
    est, Xv, yv = fit(sample, features(sample))
    tree = est.tree_
    n2, n3 = node_at(est, tree, "凹陷"), node_at(est, tree, "稍凹")
    n5, n6 = node_at(est, tree, "稍凹", "稍蜷"), node_at(est, tree, "稍凹", "稍蜷", "乌黑")
    names = [est.schema_.features[int(tree.feature[i])].name for i in (n2, n3, n5, n6)]
    assert names == ["色泽", "根蒂", "色泽", "纹理"]

    def acc(*nodes: int) -> float:
        return accuracy(collapse(tree, list(nodes))[0], Xv, yv)

    assert acc(0) == 0.429  # the root as a leaf (好瓜)
    assert acc(n2, n3) == 0.714  # figure 4.6: pre-pruning keeps only the root's test
    assert acc(n6) == 0.571
    assert acc(n6, n5) == 0.571  # no better: the book keeps ⑤
    assert acc(n6, n2) == 0.714
    assert acc(n6, n2, n3) == 0.714  # no better: the book keeps ③
    figure_4_7 = collapse(tree, [n6, n2])[0]
    assert shape(est, figure_4_7) == {
        "脐部": {
            "凹陷": "是",
            "稍凹": {
                "根蒂": {
                    "蜷缩": "否",
                    "稍蜷": {"色泽": {"青绿": "是", "乌黑": "是", "浅白": "是"}},
                    "硬挺": "是",
                }
            },
            "平坦": "否",
        }
    }


def test_rep_reaches_the_books_accuracy_and_prunes_its_ties(sample):
    """Our REP prunes when the validation error does not increase (SPEC §8, Quinlan's rule), so
    the subtrees the book keeps on a tie (③, with ⑤ below it) go too: the same 71.4 % as figure
    4.7 with the tree of figure 4.6."""
    est, Xv, yv = fit(sample, features(sample))
    tree = est.tree_
    pruned, report = prune(tree, "rep", X_valid=Xv, y_valid=yv)
    assert sorted(report.collapsed) == sorted([node_at(est, tree, "凹陷"), node_at(est, tree, "稍凹")])
    assert accuracy(pruned, Xv, yv) == 0.714
    assert shape(est, pruned) == {"脐部": {"凹陷": "是", "稍凹": "是", "平坦": "否"}}


#: figure 4.7, the book's post-pruned tree: ⑥ (纹理) pruned, ② (色泽 under 凹陷) pruned, ③ and ⑤
#: kept because the validation accuracy stays at 71.4 % and 57.1 % ("可以不进行剪枝")
FIGURE_4_7 = {
    "脐部": {
        "凹陷": "是",
        "稍凹": {
            "根蒂": {
                "蜷缩": "否",
                "稍蜷": {"色泽": {"青绿": "是", "乌黑": "是", "浅白": "是"}},
                "硬挺": "是",
            }
        },
        "平坦": "否",
    }
}


def test_rep_keeping_its_ties_is_figure_4_7(sample):
    est, Xv, yv = fit(sample, features(sample))
    tree = est.tree_
    pruned, report = prune(tree, "rep", X_valid=Xv, y_valid=yv, on_tie="keep")
    assert shape(est, pruned) == FIGURE_4_7
    assert pruned.node_count == 10 and pruned.get_n_leaves() == 7
    assert accuracy(pruned, Xv, yv) == 0.714  # "验证集精度 71.4%"
    assert report.params == {"on_tie": "keep"}
    n2, n6 = node_at(est, tree, "凹陷"), node_at(est, tree, "稍凹", "稍蜷", "乌黑")
    assert sorted(report.collapsed) == sorted([n2, n6])  # ③ and ⑤ stay


def test_rep_decisions_follow_the_books_walk_through(sample):
    """§4.3.2 in the book's order ⑥ ⑤ ② ③ ①: the accuracy with the subtree and with the node as
    a leaf, and what each tie rule does with it."""
    est, Xv, yv = fit(sample, features(sample))
    tree = est.tree_
    n2, n3 = node_at(est, tree, "凹陷"), node_at(est, tree, "稍凹")
    n5, n6 = node_at(est, tree, "稍凹", "稍蜷"), node_at(est, tree, "稍凹", "稍蜷", "乌黑")
    book = [  # node, accuracy before, accuracy as a leaf, the book prunes
        (n6, 0.429, 0.571, True),
        (n5, 0.571, 0.571, False),
        (n2, 0.571, 0.714, True),
        (n3, 0.714, 0.714, False),
        (0, 0.714, 0.429, False),
    ]
    _, keep = prune(tree, "rep", X_valid=Xv, y_valid=yv, on_tie="keep")
    assert keep.decisions is not None
    seen = [
        (d.node, round(1 - d.error_with_subtree, 3), round(1 - d.error_as_leaf, 3), d.pruned)
        for d in keep.decisions
    ]
    assert seen == book
    notes = [d.note for d in keep.decisions]
    assert notes == [
        "pruned: accuracy rises",
        "kept: accuracy unchanged (the book's rule)",
        "pruned: accuracy rises",
        "kept: accuracy unchanged (the book's rule)",
        "kept: accuracy would fall",
    ]
    _, occam = prune(tree, "rep", X_valid=Xv, y_valid=yv)  # SPEC §8's default
    assert occam.params == {"on_tie": "prune"}
    assert occam.decisions is not None
    assert [(d.node, d.pruned, d.reason) for d in occam.decisions] == [
        (n6, True, "lower"),
        (n5, True, "tie"),
        (n2, True, "lower"),
        (n3, True, "tie"),
        (0, False, "higher"),
    ]
    assert occam.decisions[1].note == "pruned: accuracy unchanged (Occam)"
    as_json = occam.to_dict()["decisions"]
    assert as_json[1]["note"] == "pruned: accuracy unchanged (Occam)" and as_json[1]["on_tie"] == "prune"


def test_rep_refuses_an_unknown_tie_rule(sample):
    est, Xv, yv = fit(sample, features(sample))
    with pytest.raises(ValueError, match="'prune'.*'keep'.*not 'occam'"):
        prune(est.tree_, "rep", X_valid=Xv, y_valid=yv, on_tie="occam")
    with pytest.raises(ValueError, match="tie rule"):  # refused before the validation set is asked for
        prune(est.tree_, "rep", on_tie="Keep")


def test_the_command_line_keeps_ties_with_rep_ties_keep(sample, tmp_path):
    train, valid = tmp_path / "train.csv", tmp_path / "valid.csv"
    cols = ["编号", *features(sample), "好瓜"]
    sample[sample["集合"] == "训练"][cols].to_csv(train, index=False)
    sample[sample["集合"] == "验证"][cols].to_csv(valid, index=False)
    model, out = tmp_path / "model.json", tmp_path / "pruned.json"
    proc = run_cli("train", str(train), "--target", "好瓜", "--algorithm", "id3", "--out", str(model))
    assert proc.returncode == 0, proc.stderr
    nodes = {}
    for rule in ("prune", "keep"):
        proc = run_cli(
            "prune",
            str(model),
            "--method",
            "rep",
            "--validation",
            str(valid),
            "--rep-ties",
            rule,
            "--out",
            str(out),
        )
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        assert report["params"] == {"on_tie": rule}
        assert report["errors"]["validation"]["after"] == pytest.approx(2 / 7)  # 71.4 % both ways
        nodes[rule] = (report["after"]["nodes"], load_model(out).tree_.node_count)
        notes = [d["note"] for d in report["decisions"]]
        assert ("kept: accuracy unchanged (the book's rule)" in notes) == (rule == "keep")
        assert ("pruned: accuracy unchanged (Occam)" in notes) == (rule == "prune")
    assert nodes == {"prune": (4, 4), "keep": (10, 10)}
    proc = run_cli(
        "prune",
        str(model),
        "--method",
        "rep",
        "--validation",
        str(valid),
        "--rep-ties",
        "book",
        "--out",
        str(out),
    )
    assert proc.returncode == 2 and "--rep-ties" in proc.stderr and "Traceback" not in proc.stderr
