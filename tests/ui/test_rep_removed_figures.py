"""The Pruning page's removed-subtrees table under REP (``ui.views.prune_table.removed_rows``):
its Before / After are what REP compared when it decided the node, the validation loss of the
subtree as it stood then (already pruned below the node, REP working bottom-up) and of the node
as a leaf, not the grown subtree's.  Checked against REP replayed here step by step: each test,
deepest first, judged on the tree with every earlier decision applied (``collapse``), its
validation rows counted one by one through that tree."""

import numpy as np
import pytest

from dtcore import export
from dtcore.pruning.collapse import collapse
from dtcore.tree import Tree
from tests.ui.test_pruning_views import fit_sample
from ui.i18n import translate
from ui.services import pruning as pv
from ui.services import roles as R
from ui.services.loading import load_sample, sample_catalogue
from ui.services.training import Split, train
from ui.views import prune_table


def fit_textbook():
    """ID3 on watermelon 2.0 with the book's own training / validation rows (its split column)."""
    s = sample_catalogue()["watermelon_2.0_split"]
    d = load_sample("watermelon_2.0_split")
    roles = R.infer_roles(d.df, s.target, s.ignore, d.declared_kinds)
    task = R.infer_task(d.df, s.target)
    res = train(d.df, roles, task, "id3", "gain", {}, Split(column=s.split_column))
    assert res.rows["valid"].size == 7  # the book's 7 validation rows
    return res, d.df


def reaching(tree: Tree, X: np.ndarray) -> list[set[int]]:
    """Per node of ``tree``, the validation rows (no missing values) that pass through it."""
    row, leaf, _ = tree.route(X)  # (row, leaf) pairs, not in row order
    out: list[set[int]] = [set() for _ in range(tree.node_count)]
    for r, node in zip(row.tolist(), leaf.tolist()):
        while node >= 0:
            out[node].add(r)
            node = int(tree.parent[node])
    return out


def replay_rep(grown: Tree, X: np.ndarray, y: np.ndarray, on_tie: str = "prune") -> dict[int, tuple]:
    """REP step by step: node → (subtree loss, leaf loss) as compared when it was pruned.

    The subtree's loss is counted on the tree as it stood at that moment (the grown tree with the
    nodes pruned so far collapsed), row by row: misclassified rows, or the squared error."""
    classify = grown.n_classes > 0
    rows_at = reaching(grown, X)
    ids = np.arange(grown.node_count)
    order = [int(i) for i in ids[np.lexsort((ids, -grown.depth))] if not grown.is_leaf[i]]
    pruned: list[int] = []
    compared = {}
    for i in order:
        now = collapse(grown, pruned)[0]
        rows = sorted(rows_at[i])  # the ancestors of i are still tests: the same rows reach it
        if classify:
            said = now.predict_column(X[rows]) if rows else np.empty(0)
            subtree = float(sum(int(p != y[r]) for p, r in zip(said, rows)))
            leaf = float(sum(int(np.argmax(grown.value[i]) != y[r]) for r in rows))
        else:
            said = now.predict_value(X[rows]) if rows else np.empty(0)
            subtree = float(sum((p - y[r]) ** 2 for p, r in zip(said, rows)))
            leaf = float(sum((grown.value[i, 0] - y[r]) ** 2 for r in rows))
        tie = bool(np.isclose(leaf, subtree, rtol=1e-9, atol=1e-9))
        if (tie and on_tie == "prune") or (not tie and leaf < subtree):
            pruned.append(i)
            compared[i] = (subtree, leaf)
    return compared


def check_rows(res, outcome, X, y, on_tie):
    """Every removed row's Before / After equals the replay's, in figures and in the table."""
    compared = replay_rep(outcome.before, X, y, on_tie)
    rows = prune_table.removed_rows(res.estimator, outcome)
    assert rows and [r["node"] for r in rows] == sorted(outcome.report.collapsed)
    for r in rows:
        assert (r["before"], r["after"]) == pytest.approx(compared[r["node"]], rel=1e-9, abs=1e-9)
        assert r["after"] <= r["before"] + 1e-9  # REP's rule, on the figures it compared
    table = prune_table.removed_table(res.estimator, outcome, "en")
    assert list(table["Before"]) == [export.fmt_num(r["before"], 4) for r in rows]
    assert list(table["After"]) == [export.fmt_num(r["after"], 4) for r in rows]
    return rows, compared


@pytest.mark.parametrize("on_tie", pv.TIE_RULES)
def test_textbook_rep_rows_show_the_compared_errors(on_tie):
    """Watermelon 2.0 (the book's training / validation rows), ID3: 根蒂 reads 1 → 1, the tie REP
    saw once 纹理 #9 and 色泽 #7 below it had gone (the grown subtree misclassifies 2 rows)."""
    res, df = fit_textbook()
    sets = pv.encoded_sets(res, df)
    X, y = sets.get("valid")
    outcome = pv.run_prune(res, sets, "rep", on_tie=on_tie)
    rows, _ = check_rows(res, outcome, X, y, on_tie)
    for r in rows:
        assert float(r["before"]).is_integer() and float(r["after"]).is_integer()  # rows, not rates
    if on_tie == "prune":
        by_test = {r["test"]: r for r in rows}
        assert (by_test["根蒂"]["before"], by_test["根蒂"]["after"]) == (1.0, 1.0)
        grown, node = outcome.before, by_test["根蒂"]["node"]
        rows_at = sorted(reaching(grown, X)[node])
        assert int((grown.predict_column(X[rows_at]) != y[rows_at]).sum()) == 2  # the old, untrue 2


def test_regression_rep_rows_show_the_compared_squared_error():
    res, df = fit_sample("diabetes", "cart", "squared_error", max_depth=4)
    sets = pv.encoded_sets(res, df)
    X, y = sets.get("valid")
    for on_tie in pv.TIE_RULES:
        outcome = pv.run_prune(res, sets, "rep", on_tie=on_tie)
        rows, _ = check_rows(res, outcome, X, y, on_tie)
        # somewhere below a removed node REP had pruned first: the grown subtree's figure differs
        grown_sq = {
            r["node"]: float(
                (
                    (outcome.before.predict_value(X) - y)[sorted(reaching(outcome.before, X)[r["node"]])] ** 2
                ).sum()
            )
            for r in rows
        }
        assert any(not np.isclose(grown_sq[r["node"]], r["before"]) for r in rows)
    for lang in ("en", "zh"):
        note = prune_table.basis_note(outcome, lang)
        assert note == translate("prune.removed.basis.validation_mse", lang)
    assert "already pruned below" in prune_table.basis_note(outcome, "en")
    assert "已剪枝后的子树" in prune_table.basis_note(outcome, "zh")
