"""The Compare page (AppTest): default algorithms, the trees side by side with the path to the
first disagreement in bold, its scores (SPEC §10 on watermelon 2.0), the tables and the CV chart,
all on the training service's row split."""

from dtcore.analysis.compare import DEFAULTS
from tests.app.apptest import start, upload_table
from tests.app.frame_pictures import heavy_nodes, html_tables, tree_svgs

COMPARE = "pages/compare.py"


def cv_chart(at) -> str | None:
    """The cross-validation chart (static SVG: a point per fold), or None."""
    return next(
        (m.value for m in at.markdown if m.value.startswith("<svg") and " · fold 1: " in m.value), None
    )


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def test_watermelon_defaults_and_first_disagreement():
    at = start(COMPARE, sample="watermelon_2.0")
    no_exception(at)
    assert at.multiselect(key="compare_algos").value == list(DEFAULTS["classification"])
    pictures = tree_svgs(at)
    assert len(pictures) == 3
    for svg in pictures:  # the root (first disagreement) is drawn bold in every tree, alone
        assert heavy_nodes(svg) == [0]
    text = " ".join(m.value for m in at.markdown)
    assert "choose different tests" in text and "CART only makes binary tests" in text
    scores_at_first = [cell for row in html_tables(at)[0] for cell in row]
    assert any("information gain 0.381" in cell for cell in scores_at_first)
    assert any("gain ratio 0.263" in cell for cell in scores_at_first)
    assert cv_chart(at) and not at.get("plotly_chart")


def test_same_split_as_training_and_agreement_on_test_rows():
    at = start(COMPARE, sample="credit-g", test=25, valid=0)
    no_exception(at)
    from ui.services import compare as service
    from ui.services.training import Split

    d = at.session_state["data"]
    c = service.run(
        d.df, at.session_state["roles"], "classification", ["id3", "c45", "cart"], Split(0, 25, 0)
    )
    assert c.rows["test"].size == 250
    text = " ".join(m.value for m in at.caption)
    assert "test rows" in text
    # the Train page's model uses the same rows
    at.switch_page("pages/train.py").run()
    res = at.session_state["result"]
    assert res.rows["test"].size == 250


def test_choosing_algorithms_and_chinese():
    at = start(COMPARE, sample="watermelon_2.0", lang="zh")
    at.multiselect(key="compare_algos").set_value(["id3", "c45"]).run()
    no_exception(at)
    assert len(tree_svgs(at)) == 2
    at.multiselect(key="compare_algos").set_value(["id3"]).run()
    no_exception(at)
    assert "选择两个或以上算法" in " ".join(m.value for m in at.caption)


def test_the_train_page_settings_are_a_contender():
    """After training on Train & tree (C4.5 without pruning, from the URL), Compare offers that
    model's settings; chosen, they give the same tree as the Train page's model."""
    at = start("pages/train.py", sample="watermelon_2.0", c45_prune=0)
    no_exception(at)
    trained = at.session_state["result"].estimator
    at.switch_page(COMPARE).run()
    assert "C4.5 with the Train & tree settings" in at.multiselect(key="compare_algos").options
    at.multiselect(key="compare_algos").set_value(["c45", "model"]).run()
    no_exception(at)
    assert len(tree_svgs(at)) == 2
    labels = [m.value for m in at.markdown]
    assert any("C4.5 with the Train & tree settings" in v for v in labels)
    from ui.services import compare as service
    from ui.services.training import Split

    d = at.session_state["data"]
    res = at.session_state["result"]
    extra = {"model": ("m", res.algorithm, dict(res.params))}
    c = service.run(d.df, at.session_state["roles"], "classification", ["model"], Split(0, 0, 0), extra)
    assert c.entries[0].nodes == trained.tree_.node_count


def test_focus_follows_the_rows_into_every_tree():
    at = start(COMPARE, sample="watermelon_2.0")
    at.selectbox(key="compare_focus").set_value(1).run()  # ID3's 纹理 = 清晰 branch
    no_exception(at)
    pictures = tree_svgs(at)
    assert len(pictures) == 3
    # the 9 rows of 纹理 = 清晰 are node 1 in ID3 and C4.5 and CART (纹理 = 清晰 goes left)
    for svg in pictures:
        assert heavy_nodes(svg) == [1]  # node 1 alone


def test_a_large_table_compares_without_cv_or_id3_until_asked():
    """Above ASKED_ROWS training rows, cross-validation waits for its switch (5-fold CV of ID3,
    C4.5 and CART on 10⁵ rows never ended); a continuous column with thousands of distinct
    values leaves ID3 (one branch per value) out of the defaults, saying why."""
    import numpy as np

    from dtcore.id3.rules import INTERVAL_BRANCHES
    from dtcore.pruning.alpha_selection import ASKED_ROWS

    n = ASKED_ROWS + 500
    at, X = upload_table(n)
    at.switch_page(COMPARE).run()
    no_exception(at)
    assert at.multiselect(key="compare_algos").value == [k for k in DEFAULTS["classification"] if k != "id3"]
    captions = " ".join(c.value for c in at.caption)
    widest = max(len(np.unique(X[:, 0])), len(np.unique(X[:, 1])))
    assert widest > INTERVAL_BRANCHES
    assert "ID3 is not among the defaults" in captions and f"{widest:,}" in captions
    assert f"Cross-validation is off on {n:,} training rows" in captions
    toggle = at.toggle(key="compare_ask_cv")
    assert toggle.value is False
    assert cv_chart(at) is None  # no CV chart
    assert not any("CV" in col for table in html_tables(at) for col in table[0])  # scores table
    toggle.set_value(True).run()
    no_exception(at)
    assert cv_chart(at)
    scores = next(table for table in html_tables(at) if "CV5 mean" in table[0])
    mean = scores[0].index("CV5 mean")
    assert len(scores) == 3 and all(float(row[mean]) > 0 for row in scores[1:])  # header, two rows


def test_id3_on_wide_continuous_columns_is_left_out_then_warned_about():
    """300 distinct values in a column: ID3 (one branch per value) is not a default; added, it
    runs under a warning saying why it may be slow; cross-validation runs unasked on few rows."""
    at, X = upload_table(300)
    at.switch_page(COMPARE).run()
    no_exception(at)
    assert "id3" not in at.multiselect(key="compare_algos").value
    assert not at.toggle  # few rows: no switch, CV runs
    assert cv_chart(at)
    at.multiselect(key="compare_algos").set_value(["id3", "c45"]).run()
    no_exception(at)
    warned = " ".join(w.value for w in at.warning)
    assert "one branch per distinct value" in warned
    assert f"{max(len(set(X[:, 0])), len(set(X[:, 1]))):,} of them" in warned
    assert len(tree_svgs(at)) == 2


def test_absolute_error_leaves_the_regression_defaults_on_a_large_table():
    """CART with absolute error (95 s of CPU on 85 000 rows, squared error 3 s) is not a default
    above ASKED_ROWS training rows; the page says so with the row count."""
    from dtcore.analysis.compare import DEFAULTS
    from dtcore.pruning.alpha_selection import ASKED_ROWS

    n = ASKED_ROWS + 500
    at, _ = upload_table(n, regression=True)
    at.switch_page(COMPARE).run()
    no_exception(at)
    assert at.session_state["task"] == "regression"
    chosen = at.multiselect(key="compare_algos").value
    assert chosen == [k for k in DEFAULTS["regression"] if k != "cart-absolute_error"]
    captions = " ".join(c.value for c in at.caption)
    assert f"CART (absolute error) is not among the defaults on {n:,} training rows" in captions
    assert "ID3" not in captions  # not a regression contender: nothing to say about it
    assert len(tree_svgs(at)) == 2


def test_a_big_lead_trees_focus_selector_lists_the_neighbourhood_of_its_pick():
    """A noisy 4 000-row table: the lead tree is over the selector limit, so the focus selector
    lists the path, children and siblings of the picked node only (a selector of every node sent
    all their labels on every run), and moves with the pick."""
    import re

    from ui.views import focus

    at, _ = upload_table(4000, flip=0.3)
    at.switch_page(COMPARE).run()
    no_exception(at)
    at.multiselect(key="compare_algos").set_value(["cart", "cart-entropy"]).run()
    no_exception(at)

    def listed() -> list[int]:
        return [int(re.match(r"#(\d+)", o).group(1)) for o in at.selectbox(key="compare_focus").options]

    from ui.services import compare as service
    from ui.services.training import Split

    d = at.session_state["data"]
    c = service.run(
        d.df, at.session_state["roles"], "classification", ["cart", "cart-entropy"], Split(0, 0, 0)
    )
    lead = c.entries[0].estimator.tree_
    assert focus.is_big(lead)
    assert listed() == focus.nearby_nodes(lead, None) and len(listed()) < 10
    child = int(lead.children_of(0)[0])
    box = at.selectbox(key="compare_focus")
    box.select(box.options[listed().index(child)]).run()
    no_exception(at)
    assert listed() == focus.nearby_nodes(lead, child) and child in listed()
