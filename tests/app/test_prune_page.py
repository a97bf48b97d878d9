"""The Pruning page as a user drives it (streamlit AppTest): load a sample, train, open the page,
choose each method and its parameter; the before/after DOT and the metrics table are checked
against a pruning run made here with ``dtcore`` alone on the model the app trained."""

import numpy as np

from dtcore import export
from dtcore.pruning import choose_alpha_cv, cost_complexity_path, prune
from dtcore.schema import label_of
from tests.app.apptest import start
from tests.app.frame_pictures import frame_data, tree_frames
from tests.app.test_flows import score_charts
from tests.ui.test_rep_removed_figures import replay_rep
from ui.views.prune_pair import svg_size

PRUNE = "pages/prune.py"
DATA = "pages/data.py"


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def frames(at) -> list:
    """The pan frames of the before and after pictures (``ui/sections/tree_frame.py``)."""
    return [frame_data(f) for f in tree_frames(at)]


def dots(at):
    """The before and after pictures as drawn: the SVG the server's ``dot`` made of each DOT."""
    shown = frames(at)
    assert len(shown) == 2, "before and after trees"
    return shown[0]["svg"], shown[1]["svg"]


def svg(dot: str) -> str:
    return export.render(dot, "svg").decode("utf-8")


def drawn_as(at, before: str, after: str) -> bool:
    """Whether the page drew exactly these two DOT pictures."""
    return dots(at) == (svg(before), svg(after))


def table(at) -> dict:
    """The before/after metrics table (the removed subtrees' table is another grid)."""
    df = next(d.value for d in at.dataframe if d.value.columns[0] in ("Measure", "指标"))
    return {row[0]: tuple(row[1:3]) for row in df.itertuples(index=False)}


def direct_sets(at):
    """Encoded (X, y) per split from the app's model and row split, built here, not by ui."""
    res = at.session_state["result"]
    df = at.session_state["data"].df
    est = res.estimator
    X = est.encode(df[res.features].to_numpy(dtype=object))
    y_raw = df[res.target].to_numpy(dtype=object)
    out = {}
    for name in ("train", "valid", "test"):
        idx = res.rows[name]
        if idx.size:
            if est.schema_.is_classifier:
                y = np.array([est.schema_.classes.index(label_of(v)) for v in y_raw[idx]])
            else:
                y = y_raw[idx].astype(float)
            out[f"X_{name}"], out[f"y_{name}"] = X[idx], y
    return res, out


def expected_dots(at, method, rankdir=None, **kw):
    """The before/after DOT made here with dtcore alone; the layout direction (the page's
    choice, not what is tested here) is the one the page drew."""
    if rankdir is None:
        for r in ("TB", "LR"):
            out = expected_dots(at, method, r, **kw)
            if dots(at)[0] == svg(out[0]):
                return out
        return out
    res, sets = direct_sets(at)
    est = res.estimator
    grown = getattr(est, "unpruned_tree_", None) or est.tree_
    pruned, rep = prune(grown, method, **sets, **kw)
    new_leaves = [i for i in range(pruned.node_count) if pruned.is_leaf[i] and not grown.is_leaf[rep.kept[i]]]
    crit = est.get_params()["criterion"]
    before = export.to_dot(
        grown,
        est.schema_,
        ghost=rep.removed,
        highlight=rep.collapsed,
        criterion=crit,
        graph_name="before",
        rankdir=rankdir,
    )
    after = export.to_dot(
        pruned, est.schema_, highlight=new_leaves, criterion=crit, graph_name="after", rankdir=rankdir
    )
    return before, after, grown, pruned, rep


def show_all_levels(at):
    at.selectbox(key="prune_levels").select("all").run()


def test_cart_breast_cancer_each_method_end_to_end():
    at = start(sample="breast_cancer", algo="cart")
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert at.title[0].value == "Pruning"
    assert at.selectbox(key="prune_method").options == [
        "Reduced-error pruning (REP)",
        "Pessimistic error pruning (PEP)",
        "C4.5 error-based pruning (EBP)",
        "Cost-complexity pruning (CCP) · native to CART",
    ]
    assert at.selectbox(key="prune_method").value == "ccp"  # CART's own method by default
    show_all_levels(at)
    # EBP of a gini tree keeps gini node impurities (the page once showed entropy labelled gini)
    for method, kw in (("rep", {}), ("pep", {}), ("ebp", {"cf": 0.25, "impurity": "gini"})):
        at.selectbox(key="prune_method").select(method).run()
        no_exception(at)
        before, after, grown, pruned, rep = expected_dots(at, method, **kw)
        assert drawn_as(at, before, after)
        assert rep.removed and 'color="#9e9e9e"' in before and "penwidth=3" in after
        rows = table(at)
        assert rows["Nodes"] == (str(grown.node_count), str(pruned.node_count))
        assert rows["Leaves"] == (str(grown.get_n_leaves()), str(pruned.get_n_leaves()))
        assert rows["Error rate · validation"] == tuple(
            f"{rep.errors['validation'][k]:.1%}" for k in ("before", "after")
        )
        assert rows["Error rate · test"] == tuple(f"{rep.errors['test'][k]:.1%}" for k in ("before", "after"))
    # the CF chart comes with EBP; CF moves the tree
    assert "prune_cf_chart" in score_charts(at)
    at.slider(key="prune_cf").set_value(0.01).run()
    assert drawn_as(at, *expected_dots(at, "ebp", cf=0.01, impurity="gini")[:2])


def test_ccp_alpha_slider_and_the_cv_choice():
    at = start(sample="breast_cancer", algo="cart")
    at.switch_page(PRUNE).run()
    show_all_levels(at)
    at.selectbox(key="prune_method").select("ccp").run()
    no_exception(at)
    res, sets = direct_sets(at)
    path = cost_complexity_path(res.estimator.tree_)
    values = np.unique(path.ccp_alphas)
    slider = at.select_slider(key="prune_alpha")
    assert slider.value == 0.0 and slider.options == [f"{a:.4g}" for a in values]
    at.select_slider(key="prune_alpha").set_value(float(values[-3])).run()
    no_exception(at)
    before, after, grown, pruned, rep = expected_dots(at, "ccp", alpha=float(values[-3]))
    assert drawn_as(at, before, after) and pruned.get_n_leaves() == path.n_leaves[-3]
    assert {"prune_alpha_error", "prune_leaves_alpha"} <= set(score_charts(at))  # error, leaves vs α
    # "Use the CV choice": 10-fold CV with the 1-SE rule, as dtcore picks it
    params = dict(res.estimator.get_params(), ccp_alpha=0.0)

    def grow(X, y, w):
        return type(res.estimator)(**params).fit_encoded(X, y, res.estimator.schema_, w).tree_

    choice = choose_alpha_cv(
        grow, sets["X_train"], sets["y_train"], k=10, one_se=True, tree=res.estimator.tree_
    )
    [b for b in at.button if b.label == "Use the CV choice"][0].click().run()
    no_exception(at)
    assert at.session_state["prune_alpha"] == choice.alpha
    assert drawn_as(at, *expected_dots(at, "ccp", alpha=choice.alpha)[:2])
    assert any(f"picks α = {choice.alpha:.4g}" in c.value for c in at.caption)


def test_c45_vote_defaults_to_ebp_which_reproduces_c45s_tree():
    at = start(sample="vote")
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert at.selectbox(key="prune_method").value == "ebp"
    before, after, grown, pruned, rep = expected_dots(at, "ebp")
    assert drawn_as(at, before, after)
    est = at.session_state["result"].estimator
    assert pruned.to_dict() == est.tree_.to_dict()  # the Train page's tree
    assert table(at)["Nodes"] == (str(grown.node_count), str(est.node_count))
    assert any("as grown" in c.value for c in at.caption)
    at.selectbox(key="prune_method").select("ccp").run()  # CCP on a multiway tree
    no_exception(at)
    assert len(dots(at)) == 2


def test_regression_offers_rep_and_ccp_and_says_why():
    at = start(sample="diabetes", algo="cart", cart_max_depth="4")
    at.switch_page(PRUNE).run()
    no_exception(at)
    box = at.selectbox(key="prune_method")
    assert box.options == ["Reduced-error pruning (REP)", "Cost-complexity pruning (CCP) · native to CART"]
    assert box.value == "ccp"  # the URL default (EBP) does not apply
    assert any("classification trees only" in i.value for i in at.info)
    box.select("rep").run()
    no_exception(at)
    show_all_levels(at)
    before, after, grown, pruned, rep = expected_dots(at, "rep")
    assert drawn_as(at, before, after)
    assert table(at)["MSE · test"] == tuple(
        export.fmt_num(rep.errors["test"][k], 4) for k in ("before", "after")
    )


def test_rep_without_validation_rows_says_so_and_chinese_ui():
    at = start(prune_method="rep")  # watermelon 3.0: no validation rows
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert at.warning and "validation rows" in at.warning[0].value
    assert not at.get("bidi_component") and not at.get("graphviz_chart")
    at.selectbox(key="prune_method").select("pep").run()
    no_exception(at)
    assert len(dots(at)) == 2
    # (AppTest formats options outside the session: after a language switch only one run is checked)
    at.session_state["lang"] = "zh"
    at.run()
    no_exception(at)
    assert at.title[0].value == "剪枝"
    assert list(at.dataframe[0].value.columns) == ["指标", "剪枝前", "剪枝后", "变化"]
    assert any("剪枝后" in m.value for m in at.markdown)
    before, after = dots(at)  # the pictures speak Chinese too
    assert "样本数 = 17" in before and "样本数 = 17" in after


def test_the_default_method_follows_the_model_until_the_user_or_the_link_chooses():
    at = start()  # C4.5 on watermelon 3.0
    at.switch_page(PRUNE).run()
    assert at.selectbox(key="prune_method").value == "ebp"
    at.session_state["algo"] = "cart"
    at.switch_page("pages/train.py").run()
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert at.selectbox(key="prune_method").value == "ccp"  # not C4.5's EBP left over
    at.selectbox(key="prune_method").select("pep").run()
    at.switch_page("pages/train.py").run()
    at.switch_page(PRUNE).run()
    assert at.selectbox(key="prune_method").value == "pep"  # the user's choice stays
    linked = start(algo="cart", prune_method="ebp")
    linked.switch_page(PRUNE).run()
    assert linked.selectbox(key="prune_method").value == "ebp"  # so does the link's


def test_ebp_keeps_a_cart_trees_gini():
    """Watermelon 3.0, CART: the root reads gini = 0.498 before and after EBP (not entropy 0.998
    under the name gini)."""
    at = start(algo="cart")
    at.switch_page(PRUNE).run()
    at.selectbox(key="prune_method").select("ebp").run()
    no_exception(at)
    before, after = dots(at)
    for picture in (before, after):
        first = picture.index('id="dtnode0"')
        root = picture[first : picture.index("</g>", first)]
        assert "gini = 0.498" in root and "0.998" not in root


def test_before_and_after_share_one_readable_scale_and_scroll():
    """Issues 16.6 and 27: both pictures come from the server's dot, not each fitted to half a
    column: both frames fit one scale to one basis (the larger picture's size) with the node
    text between 10 and 12 px, at a fixed scale (they scroll); side by side both frames are as
    tall, one above the other each is as tall as its own picture (up to the cap). The 33-node
    tree does not fit half the page at 10 px: "auto" puts the pair one above the other."""
    at = start(sample="breast_cancer", algo="cart", prune_method="rep", prune_arrange="side")
    at.switch_page(PRUNE).run()
    no_exception(at)
    before, after = frames(at)
    widths = [svg_size(f["svg"])[0] for f in (before, after)]
    heights = [svg_size(f["svg"])[1] for f in (before, after)]
    assert before["basis"] == after["basis"] == [max(widths), max(heights)]
    assert before["bounds"] == after["bounds"] == {"low": 10.0, "high": 12.0, "max_height": 560}
    assert before["fixed"] and after["fixed"] and before["same_height"] and after["same_height"]
    assert not at.get("graphviz_chart")  # no picture fitted to its column by the browser
    for arrange in ("stacked", "auto"):
        at.radio(key="prune_arrange").set_value(arrange).run()
        no_exception(at)
        b, a = frames(at)
        assert b["basis"] == a["basis"] == before["basis"] and not b["same_height"] and not a["same_height"]
        assert b["svg"] == before["svg"] and a["svg"] == after["svg"]


def test_removed_subtrees_table():
    """Issue 16.6: one row per removed subtree (the textbook's watermelon 2.0 training and
    validation rows, ID3, REP): its test, path, samples, what it lost and the validation errors
    REP compared, the subtree as it stood when REP decided the node against the node as a leaf."""
    at = start(sample="watermelon_2.0_split", algo="id3", prune_method="rep")
    at.switch_page(PRUNE).run()
    no_exception(at)
    res, sets = direct_sets(at)
    before, after, grown, pruned, rep = expected_dots(at, "rep")
    assert rep.collapsed
    df = next(d.value for d in at.dataframe if "Path from the root" in d.value.columns)
    assert list(df.columns) == [
        "Node",
        "Test",
        "Path from the root",
        "Samples",
        "Nodes removed",
        "Leaves",
        "Replaced by",
        "Before",
        "After",
    ]
    assert list(df["Node"]) == [f"#{i}" for i in sorted(rep.collapsed)]
    assert sum(int(v) for v in df["Nodes removed"]) == len(rep.removed)
    schema = res.estimator.schema_
    compared = replay_rep(grown, sets["X_valid"], sets["y_valid"])
    for row, i in zip(df.itertuples(index=False), sorted(rep.collapsed)):
        assert row[1] == schema.features[int(grown.feature[i])].name
        assert row[3] == str(int(grown.weighted_n[i]))
        assert row[5] == f"{int(grown.is_leaf[grown.subtree(i)].sum())} → 1"
        # the validation errors REP compared, counted here row by row on REP replayed step by
        # step: rows reaching node i, misclassified by the tree as it stood when REP decided i
        # (already pruned below i: REP works bottom-up), and by node i's majority class. Not the
        # grown subtree's errors: those are not what REP weighed (根蒂 #5: 2 as grown, but 1 once
        # 纹理 #9 and 色泽 #7 below it had gone, a tie 1 = 1)
        subtree, leaf = compared[i]
        assert (row[7], row[8]) == (str(int(subtree)), str(int(leaf)))
        assert int(row[8]) <= int(row[7])  # REP's rule, on the figures it compared
    assert {row[1]: (row[7], row[8]) for row in df.itertuples(index=False)}["根蒂"] == ("1", "1")
    assert any("already pruned below the node, not the grown one" in c.value for c in at.caption)


def test_on_a_large_table_the_alpha_cv_waits_for_its_switch():
    """Above ASKED_ROWS training rows the α curves come without cross-validation (10 more trees)
    until the switch asks for it; then the page gives the CV choice and its button."""
    from dtcore.pruning.alpha_selection import ASKED_ROWS
    from tests.app.apptest import upload_table

    at, _ = upload_table(ASKED_ROWS + 500)
    at.switch_page("pages/train.py").run()
    at.selectbox(key="algo").set_value("cart").run()
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert at.session_state["prune_method"] == "ccp"
    captions = " ".join(c.value for c in at.caption)
    assert f"Cross-validation is off on {ASKED_ROWS + 500:,} training rows" in captions
    assert "cross-validation (" not in captions  # no CV choice
    assert not any(b.key == "prune_use_cv" for b in at.button)
    at.toggle(key="prune_ask_cv").set_value(True).run()
    no_exception(at)
    captions = " ".join(c.value for c in at.caption)
    assert "10-fold cross-validation (1-SE rule) picks α" in captions
    assert any(b.key == "prune_use_cv" for b in at.button)


def test_on_a_large_table_the_cf_curve_is_drawn_when_opened():
    """EBP's curve against CF prunes the tree twelve times: on a large table it waits in a closed
    section, drawn once opened."""
    from dtcore.pruning.alpha_selection import ASKED_ROWS
    from tests.app.apptest import upload_table

    at, _ = upload_table(ASKED_ROWS + 500)
    at.switch_page("pages/train.py").run()
    at.switch_page(PRUNE).run()
    no_exception(at)
    assert at.session_state["prune_method"] == "ebp"
    assert "prune_cf_chart" not in score_charts(at)
    box = next(e for e in at.get("expander") if "prunings of the tree" in e.label)
    assert "12 prunings" in box.label and f"{ASKED_ROWS + 500:,} training rows" in box.label
    at.session_state["prune_cf_open"] = True
    at.run()
    no_exception(at)
    assert "prune_cf_chart" in score_charts(at)


def test_a_long_rep_table_sends_its_first_rows_until_asked():
    """REP's decisions on a big tree (one row per test): the first FIRST_ROWS rows, the rest once
    the switch asks (5 800 decisions of an 11 601-node tree were 2.1 MB on every run)."""
    from tests.app.apptest import upload_table
    from ui.sections.long_table import FIRST_ROWS

    at, _ = upload_table(4000, flip=0.3, valid=25)
    at.switch_page("pages/train.py").run()
    at.selectbox(key="algo").set_value("cart").run()
    at.number_input(key="cart_max_depth").set_value(0)  # fully grown
    [b for b in at.button if b.label == "Train"][0].click().run()
    tests = int((at.session_state["result"].estimator.tree_.feature >= 0).sum())
    assert tests > FIRST_ROWS
    at.switch_page(PRUNE).run()
    at.selectbox(key="prune_method").set_value("rep").run()
    no_exception(at)
    decisions = next(d for d in at.dataframe if d.value.columns[-1] == "Decision")
    assert len(decisions.value) == FIRST_ROWS
    assert f"The first {FIRST_ROWS} of {tests:,} rows." in [c.value for c in at.caption]
    at.toggle(key="prune_decisions_all").set_value(True).run()
    no_exception(at)
    decisions = next(d for d in at.dataframe if d.value.columns[-1] == "Decision")
    assert len(decisions.value) == tests  # every test, once
    assert decisions.value.iloc[:, 0].is_unique
