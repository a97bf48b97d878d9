"""The Pruning page's table of REP's decisions (``ui.views.prune_table.decisions_table``): one
row per test REP examined, deepest first, with the whole validation set's figure with the subtree
and as a leaf, checked against the tree pruned here by ``dtcore.pruning.collapse``; regression
trees say the MSE, not an accuracy; both languages."""

import numpy as np

from dtcore.pruning.collapse import collapse
from dtcore.pruning.losses import node_losses
from tests.ui.test_pruning_views import fit_sample
from ui.services import pruning as pv
from ui.views import prune_table
from ui.views.pruning import fmt_error


def test_regression_decisions_say_the_validation_mse_and_each_row_is_true():
    res, df = fit_sample("diabetes", "cart", "squared_error", max_depth=4)
    sets = pv.encoded_sets(res, df)
    Xv, yv = sets.get("valid")
    for rule in pv.TIE_RULES:
        outcome = pv.run_prune(res, sets, "rep", on_tie=rule)
        decisions = outcome.report.decisions
        tree = outcome.before
        assert decisions is not None and len(decisions) == int((~tree.is_leaf).sum())
        depths = [int(tree.depth[d.node]) for d in decisions]
        assert depths == sorted(depths, reverse=True)  # deepest first
        table = prune_table.decisions_table(res.estimator, outcome, "en")
        assert list(table.columns) == [
            "Node",
            "Test",
            "Path from the root",
            "Validation MSE with the subtree",
            "Validation MSE as a leaf",
            "Decision",
        ]
        leaf_loss, weight = node_losses(tree, Xv, yv)
        done: list[int] = []
        for d, row in zip(decisions, table.itertuples(index=False)):
            # the MSE as REP counts it (each row at its leaf's value), the decisions before it applied
            pruned = collapse(tree, done)[0]
            loss, _ = node_losses(pruned, Xv, yv)
            mse = float(loss[pruned.is_leaf].sum() / weight[0])
            assert np.isclose(d.error_with_subtree, mse)
            assert row[3] == fmt_error(mse, "mse")
            assert np.isclose(
                d.error_as_leaf - d.error_with_subtree, (d.leaf_loss - d.subtree_loss) / weight[0]
            )
            assert row[5] in {
                "pruned: validation error falls",
                "kept: validation error would rise",
                "pruned: validation error unchanged (Occam's razor)",
                "kept: validation error unchanged (the book's rule)",
                "pruned: no validation row reaches it (Occam's razor)",
                "kept: no validation row reaches it (the book's rule)",
            }
            assert row[5].startswith("pruned" if d.pruned else "kept")
            if d.pruned:
                done.append(d.node)
        zh = prune_table.decisions_table(res.estimator, outcome, "zh")
        assert list(zh.columns)[3:] == ["保留子树时的验证集均方误差", "剪为叶节点时的验证集均方误差", "判断"]
        assert all(v.startswith(("剪枝", "保留")) for v in zh["判断"])


def test_no_decisions_table_for_other_methods():
    res, df = fit_sample("watermelon_2.0_split", "id3", "gain")
    outcome = pv.run_prune(res, pv.encoded_sets(res, df), "pep")
    assert outcome.report.decisions is None
    assert prune_table.decisions_table(res.estimator, outcome, "en").empty
