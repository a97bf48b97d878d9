"""The Growth and Compare views (no Streamlit): captions for every kind of step in both languages,
user text escaped for Markdown, tables built from a real comparison."""

import re

import numpy as np
import pandas as pd
import pytest

from dtcore.analysis import growth_steps as gs
from dtcore.analysis.compare import compare
from dtcore.estimators import make_estimator
from tests.datasets import DATA
from ui import i18n
from ui.services import growth as G
from ui.views import compare as CV
from ui.views import growth as GV
from ui.views.text import TextTable
from ui.views.tree import auto_depth

ODD = "a*b_[c]"  # Markdown would eat these characters unescaped


def frame(name):
    return pd.read_csv(DATA / name, dtype=str, keep_default_na=False)


def fitted(name, target, algorithm, rename=None, **params):
    df = frame(name)
    if rename:
        df = df.rename(columns=rename)
    X = df.drop(columns=[target])
    est = make_estimator(algorithm, **params).fit(
        X.to_numpy(object), df[target].to_numpy(object), feature_names=list(X.columns)
    )
    return est, X, df[target]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_step_has_a_caption(lang):
    t = lambda key, **v: i18n.translate(key, lang, **v)  # noqa: E731
    cases = [
        fitted("labor.csv", "class", "c45"),  # leaf, raise
        fitted("vote.csv", "Class", "c45"),  # collapse
        fitted("breast_cancer.csv", "class", "cart", ccp_alpha=0.01),
    ]
    kinds = set()
    for est, X, y in cases:
        Xe = est.encode(X.to_numpy(object))
        ye = np.array([list(est.schema_.classes).index(v) for v in y])
        splits, prunes = G.n_steps(est)
        for k in range(1, splits + prunes + 1):
            st = G.step(est, k)
            path = GV.path_text(est, st.node, "root")
            if st.phase == "grow":
                text = GV.split_caption(t, k, splits, G.split_info(est, Xe, ye, st.node), path)
            else:
                text = GV.prune_caption(t, k - splits, prunes, st, path)
                kinds.add(st.prune.kind)
            assert "{" not in text and text
            assert GV.step_dot(est, st, lang).startswith("digraph growth")
    assert kinds == {"collapse", "leaf", "raise", "ccp"}


def test_captions_escape_user_text():
    est, X, y = fitted("watermelon_2.0.csv", "好瓜", "cart", rename={"纹理": ODD, "编号": "id"})
    t = lambda key, **v: i18n.translate(key, "en", **v)  # noqa: E731
    Xe = est.encode(X.to_numpy(object))
    ye = np.array([list(est.schema_.classes).index(v) for v in y])
    root = gs.step_tree(est, 1)
    text = GV.split_caption(
        t, 1, 3, G.split_info(est, Xe, ye, root.node), GV.path_text(est, root.node, "root")
    )
    assert ODD not in text and "a\\*b\\_\\[c\\]" in text


def test_compare_tables_and_sentences():
    df = frame("watermelon_2.0.csv").drop(columns=["编号"])
    X, y = df.drop(columns=["好瓜"]).to_numpy(object), df["好瓜"].to_numpy(object)
    rows = {"train": np.arange(17)}
    c = compare(X, y, rows, fit_kw={"feature_names": list(df.columns[:-1])})
    t = lambda key, **v: i18n.translate(key, "zh", **v)  # noqa: E731
    scores = CV.scores_table(c, t)
    assert list(scores["算法"]) == ["ID3", "C4.5", "CART（基尼）"]
    agreement = CV.agreement_table(c, t)
    assert agreement.shape == (3, 3)
    # as the page prints it (an HTML table): the index a first column, every cell as shown
    shown = TextTable.of_frame(agreement, index_header="")
    assert shown.columns == ("", *agreement.columns) and [r[0] for r in shown.rows] == list(scores["算法"])
    assert [r[1:] for r in shown.rows] == [tuple(str(v) for v in row) for row in agreement.to_numpy()]
    first = CV.scores_at_first(c, t)
    assert first.shape == (2, 4) and first.iloc[0, 1].startswith("✓ 信息增益 0.381")
    words = CV.first_sentences(c, c.notes(), t)
    assert any("CART 只做二元检验" in w for w in words)
    dots = CV.tree_dots(c, "zh")
    assert len(dots) == 3
    for d in dots:  # the root alone in bold (besides the default node style)
        assert [x.split()[0] for x in d.splitlines() if "penwidth" in x and "->" not in x] == [
            "node",
            "node0",
        ]


def test_a_step_below_the_fold_opens_only_its_path():
    """A big tree's step picture keeps the fold (``auto_depth``) and opens only the path to the
    step's node and that node's branches: every level down to it made the opening picture of a
    1 300-node C4.5 tree 1 100 boxes, a 3.5 MB SVG that ``dot`` laid out in seconds (issue 26)."""
    est, _, _ = fitted("credit-g.csv", "class", "c45")  # 556 nodes grown, steps down to depth 8
    below = 0
    for k in range(gs.n_steps(est) + 1):
        st = G.step(est, k)
        tree = st.tree
        drawn = {int(i) for i in re.findall(r'id="dtnode(\d+)"', GV.step_dot(est, st, "en"))}
        depth = auto_depth(tree)
        if depth is None:
            assert drawn == set(range(tree.node_count))
            continue
        want = {int(i) for i in np.flatnonzero(tree.depth <= depth)}
        if st.shown >= 0 and tree.depth[st.shown] >= depth:
            below += 1
            path = tree.path_to(st.shown)
            want |= set(path) | {int(c) for p in path for c in tree.children_of(p)}
        assert drawn == want, k
        assert st.shown < 0 or st.shown in drawn
    assert below > 50  # most steps of this tree lie below its fold


def test_compare_pictures_unfold_only_the_way_down_to_a_deep_node():
    """Each Compare picture keeps the shared comfortable levels and opens, below them, only the
    route to the node it marks (and that route's branches): opening every level down to a deep
    node drew 2 741 boxes per regression tree, 35 s of ``dot`` each (issue 26)."""
    df = frame("credit-g.csv")
    X, y = df.drop(columns=["class"]).to_numpy(object), df["class"].to_numpy(object)
    c = compare(X, y, {"train": np.arange(len(df))}, cv=0, fit_kw={"feature_names": list(df.columns[:-1])})
    levels = CV.shared_levels(c)
    assert levels is not None  # the trees are too big to draw whole: the case tests the fold
    trees = {e.key: e.estimator.tree_ for e in c.entries}
    deepest = {k: int(np.argmax(tr.depth)) for k, tr in trees.items()}
    assert all(trees[k].depth[n] > levels + 1 for k, n in deepest.items())
    for (key, tree), dot in zip(trees.items(), CV.tree_dots(c, "en", focus=deepest)):
        drawn = {int(i) for i in re.findall(r'id="dtnode(\d+)"', dot)}
        route = tree.path_to(deepest[key])
        want = {int(i) for i in np.flatnonzero(tree.depth <= levels)}
        want |= set(route) | {int(ch) for p in route for ch in tree.children_of(p)}
        assert drawn == want, key
        marked = [x for x in dot.splitlines() if x.strip().startswith(f"node{deepest[key]} ")]
        assert marked and "penwidth" in marked[0], key  # the marked node is drawn in bold
        # every level down to it (the old window) is many more boxes
        window = int(np.sum(tree.depth <= tree.depth[deepest[key]]))
        assert len(drawn) < window, (key, len(drawn), window)


def test_a_tiny_weighted_decrease_in_the_first_disagreement_keeps_its_digits():
    """CART's score at a first disagreement deep in a big tree is its impurity decrease weighted
    by the node's share of the rows: 2.1e-05 there read "0.000", the test chosen and the one it
    was preferred over alike (as on the Growth page)."""
    import dataclasses

    from dtcore.analysis.compare_records import ChoseNote

    df = frame("watermelon_2.0.csv").drop(columns=["编号"])
    X, y = df.drop(columns=["好瓜"]).to_numpy(object), df["好瓜"].to_numpy(object)
    c = compare(X, y, {"train": np.arange(17)}, fit_kw={"feature_names": list(df.columns[:-1])})
    t = lambda key, **v: i18n.translate(key, "en", **v)  # noqa: E731
    notes = [
        dataclasses.replace(n, score=2.1e-05, other_score=1.5e-05 if n.other is not None else None)
        if isinstance(n, ChoseNote)
        else n
        for n in c.notes()
    ]
    assert any(isinstance(n, ChoseNote) for n in notes)
    words = " ".join(CV.first_sentences(c, notes, t))
    assert "2.1e-05" in words and "0.000" not in words, words


def test_a_cart_steps_scores_are_the_decrease_at_its_node():
    """A CART step's caption prints the impurity decrease at the node, as the Splits page's
    worked arithmetic does, for the test and for the runner-up alike: it printed scikit-learn's
    weighted improvement (the node's share of the rows times that), under the same name."""
    from dtcore import explain

    est, X, y = fitted("breast_cancer.csv", "class", "cart", max_depth=4)
    Xe = est.encode(X.to_numpy(object))
    ye = np.array([list(est.schema_.classes).index(v) for v in y])
    grown = est.grown_tree_
    splits, _ = G.n_steps(est)
    deep = 0
    for k in range(1, splits + 1):
        node = G.step(est, k).node
        info = G.split_info(est, Xe, ye, node)
        nd = explain.explainer_data(est, Xe, ye, None, node, tree=grown)
        rep = explain.report_for(nd)
        here = explain.arithmetic(nd, explain.tree_test(grown, node), rep).decrease
        assert info.score == pytest.approx(here, rel=1e-9), k
        r = rep.features[rep.runner_up_to(int(grown.feature[node]))]
        runner = explain.arithmetic(nd, r.test, rep).decrease
        assert info.runner_up == r.name and info.runner_up_score == pytest.approx(runner, rel=1e-9)
        deep += grown.weighted_n[node] < grown.weighted_n[0]
    assert deep >= 3  # below the root the two scales differ


def test_an_exact_tie_is_not_told_as_a_preference():
    """Two tests that score the same for a contender (a tie the builder broke) are said to tie,
    not that it "prefers" one (a 10⁵-row table's first disagreement printed "prefers it to
    特征1 (64.113)" for a test of 64.113)."""
    import dataclasses

    from dtcore.analysis.compare_records import ChoseNote

    df = frame("buys_computer.csv")
    X, y = df.drop(columns=["buys_computer"]).to_numpy(object), df["buys_computer"].to_numpy(object)
    c = compare(X, y, {"train": np.arange(len(df))}, fit_kw={"feature_names": list(df.columns[:-1])})
    chose = [n for n in c.notes() if isinstance(n, ChoseNote) and n.other is not None]
    assert chose
    t = lambda key, **v: i18n.translate(key, "en", **v)  # noqa: E731
    note = chose[0]
    apart = CV.first_sentences(c, [note], t)[0]
    assert "prefers it to" in apart and "scores the same" not in apart
    level = dataclasses.replace(note, other_score=note.score * (1 + 1e-15))
    tied = CV.first_sentences(c, [level], t)[0]
    assert "prefers" not in tied and "scores the same" in tied
    zh = CV.first_sentences(c, [level], lambda key, **v: i18n.translate(key, "zh", **v))[0]
    assert "得分相同" in zh
