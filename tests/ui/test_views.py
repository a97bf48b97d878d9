"""View helpers without a browser: DOT through the app's path (escaping, depth window, selection),
figures, role table edits, Markdown escaping, scores, the row split and the catalogue."""

import ast
import re
import string
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, mean_absolute_error, mean_squared_error, r2_score

from dtcore import export
from tests.source_trees import parsed
from ui import i18n
from ui.services import roles as R
from ui.services.loading import load_sample, sample_catalogue
from ui.services.metrics import classification_scores, regression_scores
from ui.services.training import PARAMS, Split, algorithms_for, criteria, split_rows, train
from ui.views import tree as treeview
from ui.views.tables import role_edits, role_table
from ui.views.text import md_escape

ROOT = Path(__file__).resolve().parents[2]

EVIL = pd.DataFrame(
    {
        'say "hi"': ["a[1]", "<b>bold</b>", "a[1]", "x & y", "<b>bold</b>", "x & y"] * 3,
        "{brace}|pipe": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] * 3,
        "<class>": ['q"uote', "back\\slash", 'q"uote', "back\\slash", 'q"uote', "back\\slash"] * 3,
    }
)


@pytest.mark.parametrize("algo, crit", [("c45", "gain"), ("id3", "gain"), ("cart", "gini")])
def test_dot_escapes_user_text_and_renders(algo, crit):
    roles = R.infer_roles(EVIL, "<class>")
    res = train(EVIL, roles, R.CLASSIFICATION, algo, crit, {"min_cases": 1, "prune": False}, Split())
    dot = treeview.tree_dot(res.estimator, None, (), selected=0)
    # raw markup never reaches Graphviz's HTML labels
    assert "<b>bold</b>" not in dot and "&lt;b&gt;bold&lt;/b&gt;" in dot
    assert "&lt;class&gt;" in dot  # the target in the legend
    svg = export.render(dot, "svg").decode("utf-8")  # real Graphviz accepts it
    assert "&lt;class&gt;" in svg and "<class>" not in svg
    assert "q&quot;uote" in svg or 'q"uote' in svg
    assert "penwidth=3" in dot.split("node0 [", 1)[1].split("\n", 1)[0]  # selected node bold


def test_depth_window_and_collapse_fold_subtrees():
    df = load_sample("credit-g").df
    roles = R.infer_roles(df, "class")
    res = train(df, roles, R.CLASSIFICATION, "cart", "gini", {}, Split(0, 0, 0))
    est = res.estimator
    tree = est.tree_
    depth = treeview.auto_depth(tree)
    assert depth is not None and tree.node_count > treeview.COMFORTABLE_NODES
    inner_at = lambda d: int(((tree.depth == d) & (tree.feature >= 0)).sum())
    boxes = int((tree.depth <= depth).sum()) + inner_at(depth)
    assert boxes <= treeview.COMFORTABLE_NODES or depth == 0
    assert (
        int((tree.depth <= depth + 1).sum()) + inner_at(depth + 1) > treeview.COMFORTABLE_NODES
        or np.bincount(tree.depth)[: depth + 2].max() > treeview.COMFORTABLE_ROW
        or inner_at(depth + 1) > treeview.COMFORTABLE_ROW
    )  # one level more would not fit
    dot = treeview.tree_dot(est, depth)
    drawn = set(map(int, re.findall(r"^node(\d+) \[", dot, re.M)))
    assert drawn == set(np.nonzero(tree.depth <= depth)[0].tolist())
    first_inner = treeview.internal_nodes(est)[1]
    dot = treeview.tree_dot(est, None, collapsed=[first_inner])
    hidden = set(tree.subtree(first_inner)[1:].tolist())
    drawn = set(map(int, re.findall(r"^node(\d+) \[", dot, re.M)))
    assert drawn.isdisjoint(hidden) and f"node{first_inner}_more" in dot


def test_auto_depth_leaves_small_trees_whole():
    df = load_sample("watermelon_3.0").df
    res = train(df, R.infer_roles(df, "好瓜", ["编号"]), R.CLASSIFICATION, "cart", "gini", {}, Split())
    assert treeview.auto_depth(res.estimator.tree_) is None


def test_node_path_reads_branch_conditions():
    df = load_sample("watermelon_2.0").df
    res = train(
        df,
        R.infer_roles(df, "好瓜", ["编号"]),
        R.CLASSIFICATION,
        "id3",
        "gain",
        {"continuous": "threshold"},
        Split(),
    )
    est = res.estimator
    tree = est.tree_
    # Zhou table 4.1: ID3 splits the root on 纹理 and 清晰 goes on to 根蒂
    assert est.schema_.features[tree.feature[0]].name == "纹理"
    leaf = int(np.nonzero(tree.depth == 2)[0][0])
    path = treeview.node_path(est, leaf)
    assert len(path) == 2 and path[0].startswith("纹理 = ")
    assert treeview.node_label(est, 0, "(root)") == "#0 · (root)"


def test_identifier_used_by_id3_is_chosen_first():
    """SPEC §1: with 编号 as a feature, ID3 picks it (gain = Ent(D))."""
    df = load_sample("watermelon_2.0").df
    roles = R.apply_edits(R.infer_roles(df, "好瓜"), {"编号": R.CATEGORICAL}, df)
    res = train(df, roles, R.CLASSIFICATION, "id3", "gain", {}, Split())
    est = res.estimator
    assert est.schema_.features[est.tree_.feature[0]].name == "编号"


def test_scores_match_scikit_learn():
    rng = np.random.default_rng(3)
    t = rng.choice(["a", "b", "c"], 60)
    p = rng.choice(["a", "b", "c"], 60)
    sc = classification_scores(t, p, ["a", "b", "c"])
    assert sc.accuracy == pytest.approx(np.mean(t == p))
    assert (sc.confusion == confusion_matrix(t, p, labels=["a", "b", "c"])).all()
    y, q = rng.normal(size=40), rng.normal(size=40)
    rs = regression_scores(y, q)
    assert rs.rmse == pytest.approx(mean_squared_error(y, q) ** 0.5)
    assert rs.mae == pytest.approx(mean_absolute_error(y, q))
    assert rs.r2 == pytest.approx(r2_score(y, q))


def test_unseen_test_class_gets_its_own_row():
    sc = classification_scores(["a", "z"], ["a", "a"], ["a", "b"])
    assert sc.labels == ("a", "b", "z") and sc.confusion[2, 0] == 1


def test_split_is_seeded_stratified_and_disjoint():
    y = np.array(["p"] * 60 + ["q"] * 40, dtype=object)
    pos = np.arange(100)
    a = split_rows(pos, Split(20, 10, 7), y)
    b = split_rows(pos, Split(20, 10, 7), y)
    c = split_rows(pos, Split(20, 10, 8), y)
    assert all((a[k] == b[k]).all() for k in a)
    assert any(not np.array_equal(a[k], c[k]) for k in a)
    allrows = np.concatenate([a["train"], a["valid"], a["test"]])
    assert sorted(allrows.tolist()) == list(range(100))
    assert (y[a["valid"]] == "p").sum() == 12 and (y[a["valid"]] == "q").sum() == 8
    assert (y[a["test"]] == "p").sum() == 6 and (y[a["test"]] == "q").sum() == 4
    tiny = split_rows(np.arange(3), Split(50, 50, 0), np.array(["a", "b", "c"], dtype=object))
    assert tiny["train"].size == 3  # each class keeps its only row for training


def test_train_reports_missing_targets_and_single_class():
    from ui.services.training import TrainingError

    df = pd.DataFrame({"x": [1, 2, 3, 4], "y": ["a", None, "a", "a"]})
    with pytest.raises(TrainingError) as info:
        train(df, {"x": R.CONTINUOUS, "y": R.TARGET}, R.CLASSIFICATION, "cart", "gini", {}, Split())
    assert info.value.key == "roles.single_class"
    df = pd.DataFrame({"x": [1, 2, 3, 4, 5], "y": ["a", None, "b", "a", "b"]})
    res = train(df, {"x": R.CONTINUOUS, "y": R.TARGET}, R.CLASSIFICATION, "cart", "gini", {}, Split())
    assert res.dropped == 1 and res.rows["train"].tolist() == [0, 2, 3, 4]


def test_regression_only_with_cart():
    assert algorithms_for(R.REGRESSION) == ("cart",)
    assert set(criteria("cart", R.REGRESSION)) == {
        "squared_error",
        "friedman_mse",
        "absolute_error",
        "poisson",
    }
    df = load_sample("regression_toy10").df
    res = train(df, R.infer_roles(df, "y"), R.REGRESSION, "cart", "squared_error", {"max_depth": 1}, Split())
    # Li Hang's example: the first cut of x1 is at 6.5 (SPEC worked example)
    assert res.estimator.tree_.cuts_of(0).tolist() == [6.5]
    assert res.scores["train"].n == 10


def test_role_table_and_edits():
    df = load_sample("watermelon_3.0").df
    roles = R.infer_roles(df, "好瓜")
    issues = R.warnings(df, roles)
    table = role_table(df, roles, issues, "zh")
    assert table["column"].tolist() == list(df.columns)
    assert table.set_index("column").loc["密度", "values"] == "数值"
    edited = table.copy()
    edited.loc[edited["column"] == "色泽", "role"] = R.IGNORE
    edited.loc[edited["column"] == "含糖率", "role"] = "bogus"
    assert role_edits(table, edited) == {"色泽": R.IGNORE}


def test_md_escape_neutralises_markdown():
    evil = "**x** [link](http://e) <img src=x> $a$ :red[b] `c`"
    out = md_escape(evil)
    for ch in "*[]()$`:":
        assert re.search(r"(?<!\\)" + re.escape(ch), out) is None
    assert "<" not in out


@pytest.mark.parametrize(
    "text",
    ['<a href="https://example.org/x">feat</a>', "see www.example.org", "mail a@example.org", "HTTP://E.ORG"],
)
def test_md_escape_stops_gfm_autolinks(text):
    """GFM links bare URLs and e-mails after escapes are decoded: a word joiner breaks them."""
    out = md_escape(text)
    plain = re.sub(r"\\(.)", r"\1", out).replace("&lt;", "<").replace("&amp;", "&")
    assert not re.search(r"(?i)https?://|www\.|\w@", plain), plain
    assert plain.replace("\u2060", "") == text


def test_catalogue_complete_and_formats_agree():
    names = lambda s: {f for _, f, _, _ in string.Formatter().parse(s) if f}
    for key, (en, zh) in i18n.CATALOGUE.items():
        assert en and zh, key
        assert names(en) == names(zh), key
    for algo, params in PARAMS.items():
        for p in params:
            assert f"param.{p.name}" in i18n.CATALOGUE and f"help.{p.name}" in i18n.CATALOGUE
            for opt in p.options:
                assert i18n.option_label(p.name, opt, "zh") != str(opt), (p.name, opt)
        for task in (R.CLASSIFICATION, R.REGRESSION):
            for c in criteria(algo, task):
                assert f"opt.{c}" in i18n.CATALOGUE
    for code in (
        "identifier",
        "constant",
        "many_categories",
        "missing",
        "target_missing",
        "no_target",
        "many_targets",
        "no_features",
        "not_numeric",
        "regression_labels",
        "single_class",
    ):
        assert f"roles.{code}" in i18n.CATALOGUE


def _catalogue_keys_used(path):
    tree = parsed(path)
    keys = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "t"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            keys.add(node.args[0].value)
    return keys


def test_pages_use_catalogue_keys_and_no_inline_text():
    """Every literal t("key") exists, and no page passes prose straight to Streamlit."""
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    for path in files:
        for key in _catalogue_keys_used(path):
            assert key in i18n.CATALOGUE, (path.name, key)
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    text = first.value
                    prose = re.search(r"[A-Za-z]{3,} [A-Za-z]{2,}|[\u4e00-\u9fff]", text)
                    assert not (
                        prose
                        and node.func.attr
                        in {
                            "markdown",
                            "caption",
                            "write",
                            "info",
                            "warning",
                            "error",
                            "success",
                            "title",
                            "header",
                            "subheader",
                            "button",
                            "selectbox",
                            "radio",
                            "slider",
                            "checkbox",
                            "number_input",
                            "text",
                            "metric",
                            "expander",
                            "download_button",
                        }
                    ), (path.name, text)


def test_sample_titles_in_both_languages():
    for s in sample_catalogue().values():
        assert s.title("en") != s.title("zh")


def test_very_wide_first_level_folds_to_the_root():
    df = load_sample("breast_cancer").df
    res = train(
        df, R.infer_roles(df, "class"), R.CLASSIFICATION, "id3", "gain", {"continuous": "intervals"}, Split()
    )
    tree = res.estimator.tree_
    assert len(tree.children_of(0)) > treeview.COMFORTABLE_ROW  # one branch per interval
    assert treeview.auto_depth(tree) == 0
    dot = treeview.tree_dot(res.estimator, 0)
    assert re.findall(r"^node(\d+) \[", dot, re.M) == ["0"] and "node0_more" in dot


def test_url_values_round_trip():
    from ui.state.url import decode_url_value, encode_url_value, url_defaults

    d = url_defaults()
    assert d["algo"] == "c45" and d["cart_criterion"] == "gini" and d["cart_reg_criterion"] == "squared_error"
    for value, default in [
        (True, True),
        (False, True),
        (3, 0),
        (0.25, 0.25),
        ([3, 7], []),
        (5, None),
        ("all", "auto"),
        (4, "auto"),
        ("iris", "watermelon_3.0"),
    ]:
        assert decode_url_value(encode_url_value(value), default) == value
    with pytest.raises(ValueError):
        decode_url_value("maybe", True)
    with pytest.raises(ValueError):
        decode_url_value("x", 0)


def test_tree_picture_speaks_the_ui_language():
    import numpy as np

    from dtcore.cart.estimator import CARTClassifier
    from ui.views import tree as treeview

    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    est = CARTClassifier().fit(X, ["是", "是", "否", "否"], feature_names=["密度"])
    zh = treeview.tree_dot(est, None, lang="zh")
    en = treeview.tree_dot(est, None, lang="en")
    assert "样本数 = 4" in zh and "samples" not in zh
    assert "samples = 4" in en and "样本数" not in en


def test_one_vs_rest_rows_list_the_textbook_ginis(tmp_path):
    """The splits page's table under CART's subset bars: the optimal subset, then every
    one-vs-rest test with Gini(D, a) (Li Hang's loan table: 年龄=中年 0.48)."""
    from dtcore import explain
    from tests.dtcore.test_explain import loan_cart
    from ui.views.splits import one_vs_rest_rows

    est, X, y = loan_cart(tmp_path)
    rep = explain.split_report(est, X, y, None, 0)
    j = [f.name for f in est.schema_.features].index("年龄")
    rows = one_vs_rest_rows(rep.features[j], est.schema_, lambda key: key)
    # the optimal subset here is itself one-vs-rest ({青年}): first, marked, not repeated
    assert rows[0]["splits.col.test"] == "年龄 = 青年 (splits.status.chosen)"
    by = {r["splits.col.test"].split(" (")[0]: r["splits.col.split_impurity"] for r in rows}
    assert by == {"年龄 = 青年": "0.4400", "年龄 = 中年": "0.4800", "年龄 = 老年": "0.4400"}


def test_the_tree_names_its_impurity_in_the_ui_language():
    from dtcore.cart.estimator import CARTRegressor
    from ui.views.tree import tree_dot

    df = load_sample("watermelon_3.0").df
    res = train(df, R.infer_roles(df, "好瓜", ["编号"]), R.CLASSIFICATION, "c45", "gain_ratio", {}, Split())
    zh, en = tree_dot(res.estimator, None, lang="zh"), tree_dot(res.estimator, None, lang="en")
    assert "信息熵 = 0.998" in zh and "entropy =" not in zh and "entropy = 0.998" in en
    reg = CARTRegressor(criterion="poisson", max_depth=1).fit([[0.0], [1.0], [2.0]], [1.0, 2.0, 6.0])
    assert "泊松偏差 = " in tree_dot(reg, None, lang="zh")


def test_a_training_that_runs_out_of_memory_releases_it(monkeypatch):
    """The issue's 10⁵-level run: an exception, and the server kept 10 GB. Now a message, and the
    failed fit's arrays are gone once it is shown (no traceback or context keeps their frames)."""
    import gc
    import weakref

    from dtcore.cart.estimator import CARTClassifier
    from ui.services.training import TrainingError

    held = []

    def greedy_fit(self, *args, **kwargs):
        big = np.ones(4_000_000)  # what the failed run had allocated so far
        held.append(weakref.ref(big))
        raise MemoryError("Unable to allocate 74.5 GiB for an array")

    monkeypatch.setattr(CARTClassifier, "fit", greedy_fit)
    df = pd.DataFrame({"x": ["a", "b", "c", "d"] * 3, "y": ["p", "q"] * 6})
    with pytest.raises(TrainingError) as info:
        train(df, {"x": R.CATEGORICAL, "y": R.TARGET}, R.CLASSIFICATION, "cart", "gini", {}, Split())
    assert info.value.key == "train.err.memory" and "74.5 GiB" in info.value.params["detail"]
    assert info.value.__context__ is None and info.value.__cause__ is None
    gc.collect()
    assert held[0]() is None
