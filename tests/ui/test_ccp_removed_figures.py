"""The Pruning page's removed-subtrees table under cost-complexity pruning: Before is the cost R
of the branch the weakest link cut, as it stood at that step (already pruned below by earlier
steps), not the grown branch's.  Checked against the path replayed here: the tree collapsed by
the steps before the node's own, its branch's leaves summed."""

import numpy as np
import pytest

from dtcore import export
from dtcore.pruning.ccp import cost_complexity_path, node_costs
from dtcore.pruning.collapse import collapse
from tests.ui.test_pruning_views import fit_sample
from ui.i18n import translate
from ui.services import pruning as pv
from ui.views import prune_table


@pytest.mark.parametrize("alpha", [0.005, 0.01, 0.02, 0.05])
def test_ccp_rows_show_the_branch_as_cut(alpha):
    res, df = fit_sample("breast_cancer", "cart", "gini")
    outcome = pv.run_prune(res, pv.encoded_sets(res, df), "ccp", alpha=alpha)
    grown = outcome.before
    cut = cost_complexity_path(grown).pruned_node.tolist()
    rows = prune_table.removed_rows(res.estimator, outcome)
    assert rows
    for r in rows:
        node = r["node"]
        now, kept = collapse(grown, cut[1 : cut.index(node)])  # the tree the step saw
        branch = now.subtree(int(np.nonzero(kept == node)[0][0]))
        as_cut = float(node_costs(now)[branch][now.is_leaf[branch]].sum())
        assert r["before"] == pytest.approx(as_cut, rel=1e-12, abs=1e-15)
        assert r["after"] == pytest.approx(node_costs(grown)[node], rel=1e-12)
    table = prune_table.removed_table(res.estimator, outcome, "en")
    assert list(table["Before"]) == [export.fmt_num(r["before"], 4) for r in rows]
    note = prune_table.basis_note(outcome, "en")
    assert note == translate("prune.removed.basis.cost", "en") and "not the grown one" in note
    assert "而非原始子树" in prune_table.basis_note(outcome, "zh")


def test_a_branch_pruned_below_before_its_cut_reads_its_cost_then():
    """α = 0.01 cuts #2 after steps below it: its grown leaves are pure (R 0), the branch it
    compared had R 0.0295 (the old table printed 0)."""
    res, df = fit_sample("breast_cancer", "cart", "gini")
    outcome = pv.run_prune(res, pv.encoded_sets(res, df), "ccp", alpha=0.01)
    grown = outcome.before
    by_node = {r["node"]: r for r in prune_table.removed_rows(res.estimator, outcome)}
    sub = grown.subtree(2)
    assert float(node_costs(grown)[sub][grown.is_leaf[sub]].sum()) == 0.0
    assert export.fmt_num(by_node[2]["before"], 4) == "0.02946"
