"""Issues 16.6 and 27 and the Pruning page's numbers: the before/after pictures' common scale, the table
of removed subtrees on real prunes (each method's own figures), changes true as printed and
round tick steps on the count axes."""

import numpy as np
import pytest

from dtcore import export
from ui.figures.style import integer_axis
from ui.services import pruning as pv
from ui.views import prune_table
from ui.views.picture_scale import MIN_TEXT_PX
from ui.views.prune_pair import HALF_FRAME_PX, NODE_FONT_PT, PAIR_BOUNDS, arrangement, pair_basis, svg_size
from ui.views.pruning import fmt_change, fmt_error

from .test_pruning_views import fit_sample


def test_change_is_the_difference_of_the_printed_numbers():
    # 0.8125 prints 81.2 %, 0.875 prints 87.5 %: the change is +6.3 pt (the unrounded +6.25 printed +6.2)
    assert (fmt_error(0.8125, "error_rate"), fmt_error(0.875, "error_rate")) == ("81.2%", "87.5%")
    assert fmt_change(0.8125, 0.875, "error_rate") == "+6.3 pt"
    assert fmt_change(1234.56, 1000.44, "mse") == "-235"  # 1000 − 1235, not −234.1
    assert fmt_change(0.1234, 0.09876, "mse") == "-0.02464"
    assert fmt_change(0.5001, 0.5004, "error_rate") == "0"  # 50.0 % → 50.0 %
    assert fmt_change(33, 21) == "-12" and fmt_change(3, 3) == "0"
    rng = np.random.default_rng(0)
    for b, a in rng.uniform(0, 1, (200, 2)):
        for metric in ("error_rate", "mse"):
            shown = [float(fmt_error(v, metric).rstrip("%")) for v in (b, a)]
            text = fmt_change(b, a, metric)
            value = 0.0 if text == "0" else float(text.removesuffix(" pt"))
            assert value == pytest.approx(shown[1] - shown[0], abs=1e-12)


def test_count_axes_step_by_round_numbers():
    steps = {m: integer_axis(m)["dtick"] for m in (1, 7, 13, 33, 61, 250, 1213, 33769)}
    assert steps == {1: 1, 7: 2, 13: 5, 33: 10, 61: 20, 250: 50, 1213: 500, 33769: 10000}
    assert all(integer_axis(m)["tick0"] == 0 for m in steps)


def test_one_scale_for_both_pictures():
    """Issue 27: both frames fit their scale to one basis (the widest and the tallest picture),
    with the text between 10 and 12 px; "auto" puts the pair one above the other when the wider
    picture would not fit half the page at 10 px."""
    small = '<svg width="100pt" height="80pt" viewBox="0.00 0.00 100.00 80.00">'
    big = '<svg width="2000pt" height="900pt" viewBox="0.00 0.00 2000.00 900.00">'
    assert svg_size(big) == (2000.0, 900.0)
    assert pair_basis([svg_size(small), svg_size(big)]) == (2000.0, 900.0)
    assert pair_basis([svg_size(small), None]) == (100.0, 80.0)
    assert pair_basis([None, None]) is None
    assert (PAIR_BOUNDS.low, PAIR_BOUNDS.high) == (10.0, 12.0)
    assert arrangement("auto", [svg_size(small), svg_size(small)]) == "side"
    assert arrangement("auto", [svg_size(small), svg_size(big)]) == "stacked"
    assert arrangement("side", [svg_size(small), svg_size(big)]) == "side"  # the user's choice
    wide_enough = HALF_FRAME_PX * NODE_FONT_PT / MIN_TEXT_PX
    assert arrangement("auto", [(wide_enough, 10.0), None]) == "side"
    assert arrangement("auto", [(wide_enough + 1, 10.0), None]) == "stacked"
    with pytest.raises(ValueError):
        svg_size("<svg>")


@pytest.mark.parametrize(
    "sample, algo, crit, values, method, kw",
    [
        ("breast_cancer", "cart", "gini", {}, "ccp", {"alpha": 0.01}),
        ("breast_cancer", "cart", "gini", {}, "pep", {}),
        ("vote", "c45", "gain_ratio", {"prune": False}, "ebp", {"cf": 0.05}),
        ("credit-g", "c45", "gain_ratio", {"prune": False}, "ebp", {"cf": 0.25}),
    ],
)
def test_removed_table_on_real_prunes(sample, algo, crit, values, method, kw):
    res, df = fit_sample(sample, algo, crit, **values)
    outcome = pv.run_prune(res, pv.encoded_sets(res, df), method, **kw)
    tree, rep = outcome.before, outcome.report
    rows = prune_table.removed_rows(res.estimator, outcome)
    raised = {r["node"]: r["branch"] for r in rep.raised}
    assert [r["node"] for r in rows] == sorted(set(rep.collapsed) | set(raised))
    assert rows, "these settings prune something"
    for r in rows:
        i = r["node"]
        assert r["samples"] == tree.weighted_n[i]
        assert len(r["path"]) == tree.depth[i]
        sub = tree.subtree(i)
        assert r["leaves"][0] == int(tree.is_leaf[sub].sum())
        if r["branch"] is None:
            assert r["nodes"] == sub.size - 1 and r["leaves"][1] == 1
        assert r["before"] is not None and r["after"] is not None
        if method == "ccp":  # the weakest link's cost: R(t) ≥ R(T_t), as impurity never rises by splitting
            leaf_cost = tree.weighted_n[i] * tree.impurity[i] / tree.weighted_n[0]
            assert r["after"] == pytest.approx(leaf_cost) and r["after"] >= r["before"] - 1e-12
        if method == "pep":  # PEP's test: e(t) + 1/2 within one SE of the subtree's
            assert r["after"] == pytest.approx(tree.weighted_n[i] - tree.value[i].max() + 0.5)
        if (
            method == "ebp" and r["branch"] is None
        ):  # C4.5 makes a leaf when it does not raise the estimate (+0.1)
            assert r["after"] <= r["before"] + 0.1 + 1e-9
    table = prune_table.removed_table(res.estimator, outcome, "zh")
    assert list(table.columns)[:3] == ["节点", "测试属性", "从根节点出发的路径"]
    assert len(table) == len(rows)
    assert all(cell == export.fmt_num(r["before"], 4) for cell, r in zip(table["剪枝前"], rows))
    assert prune_table.basis_note(outcome, "en")
