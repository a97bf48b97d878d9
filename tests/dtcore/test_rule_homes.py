"""Each of the builders' rules has one home that the builders, the split explorer, the CLI and
the app call: these tests pin the home (the explorer's figure equals the builder's) and check on
the source that no second copy comes back."""

import ast
import functools
from pathlib import Path

import numpy as np
import pytest

from dtcore import explain
from dtcore.c45 import C45Classifier
from dtcore.entropy import cutpoints
from dtcore.entropy.cutpoints import mdl_penalty
from scripts import compare_j48 as cj
from tests.datasets import DATA
from tests.dtcore.one_node_cuts import c45_node_cuts
from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def functions(folder: str = "dtcore") -> tuple[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef], ...]:
    """(module path, function node) for every function defined under ``folder``, parsed once per
    run (the tests here only read the trees)."""
    out = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((path.relative_to(ROOT).as_posix(), node))
    return tuple(out)


def names_in(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


# -- 1. C4.5's MDL penalty ---------------------------------------------------------------------


def test_mdl_penalty_is_written_once():
    """log2(#candidates) appears only in ``cutpoints.mdl_penalty``."""
    homes = []
    for rel, fn in functions():
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call) or "log2" not in names_in(call.func):
                continue
            if any("candidates" in name or name == "n" for a in call.args for name in names_in(a)):
                homes.append((rel, fn.name))
    assert set(homes) == {("dtcore/entropy/cutpoints.py", "mdl_penalty")}, homes


def test_mdl_penalty_values():
    assert mdl_penalty(37, 40.0) == pytest.approx(np.log2(37) / 40)
    assert mdl_penalty(0, 10.0) == 0.0 and mdl_penalty(1, 10.0) == 0.0
    assert np.array_equal(mdl_penalty(np.array([1, 4]), np.array([2.0, 4.0])), [0.0, 0.5])


@pytest.mark.parametrize("name,target", [("diabetes.csv", None), ("breast_cancer.csv", "class")])
def test_explorer_mdl_and_gain_equal_the_builders(name, target):
    """At the root, the explorer's MDL penalty, gain after it and cut are the builder's
    (``score_cuts_batch`` on the root's rows), feature by feature."""
    X, y, kw = cj.load_csv(DATA / name) if target is None else cj.load(DATA / name, target)
    est = C45Classifier().fit(X, y, **kw)
    Xe = est.encode(X)
    yc = np.array([list(est.classes_).index(v) for v in y])
    rep = explain.split_report(est, Xe, yc, None, 0)
    checked = 0
    for j, rec in enumerate(rep.features):
        if rec.mode != "threshold":
            continue
        o = np.argsort(Xe[:, j], kind="stable")
        sc = c45_node_cuts(
            Xe[o, j][None], yc[o][None], np.ones((1, o.size)), float(o.size), len(est.classes_)
        )
        assert rec.n_candidates == sc.n_candidates[0]
        assert rec.mdl_penalty == mdl_penalty(sc.n_candidates[0], float(o.size))
        assert rec.usable == bool(sc.valid[0])
        if rec.usable:
            assert rec.raw_gain == sc.raw_gain[0]
            assert rec.gain == sc.gain[0]
            assert rec.midpoint == sc.midpoint[0]
            checked += 1
    assert checked >= 2


# -- 2. C4.5's cut scoring -------------------------------------------------------------------------


def test_c45_cuts_are_scored_by_the_batch_pass_only():
    """One scorer per rule set: ``score_cuts_batch`` (C4.5, the builder's) and
    ``score_textbook_cuts`` (ID3); the single-node C4.5 copy is gone."""
    scorers = {(rel, fn.name) for rel, fn in functions() if fn.name.startswith(("score_", "_score_"))}
    cut_scorers = {s for s in scorers if "cut" in s[1]}
    assert cut_scorers == {
        ("dtcore/entropy/cutpoints.py", "score_cuts_batch"),
        ("dtcore/entropy/cutpoints.py", "score_textbook_cuts"),
    }, cut_scorers
    assert not hasattr(cutpoints, "score_cuts") and not hasattr(cutpoints, "_score_unit")


def test_min_split_is_written_once():
    """C4.5's MinSplit clamp (0.1·K/classes within [MINOBJS, 25]) lives in ``_min_split``."""
    src = (ROOT / "dtcore/entropy/cutpoints.py").read_text(encoding="utf-8")
    assert src.count("25 + SMALL") == 1


# -- 3. which branch a row takes ---------------------------------------------------------------

#: modules that may call ``searchsorted(..., side="left")`` for something other than routing a
#: value by a tree test (which is ``dtcore.routing.branch_index``'s, and ``Tree.route``'s
#: vectorised-over-nodes form in dtcore/tree.py)
SEARCHSORTED_LEFT_ELSEWHERE = {
    "dtcore/routing.py": "branch_index: the routing rule itself",
    "dtcore/tree.py": "Tree.route: the routing rule over the nodes of a level",
    "dtcore/c45/rules.py": "J48's threshold snap: the largest training value below a midpoint",
    "dtcore/cart/grower.py": "weighted quantiles of a node's targets",
    "dtcore/cart/hist/binning.py": "the histogram bin of a value",
    "dtcore/criteria.py": "the weighted median",
    "dtcore/entropy/discretize.py": "k-means labels while choosing ID3's bins",
    "dtcore/export/node_charts.py": "the histogram bin of a value in a node chart",
}


@functools.cache
def _every_call() -> tuple[tuple[str, str, ast.Call, frozenset[str]], ...]:
    """(module path, function name, call, names in the called expression) of every call in every
    function under dtcore (a call in a nested function is listed under both functions)."""
    return tuple(
        (rel, fn.name, call, frozenset(names_in(call.func)))
        for rel, fn in functions()
        for call in ast.walk(fn)
        if isinstance(call, ast.Call)
    )


def _calls(name: str):
    for rel, fn_name, call, names in _every_call():
        if name in names - {"np"}:
            yield rel, fn_name, call


def test_routing_by_a_test_has_one_home():
    """Outside dtcore/routing.py and tree.py no module locates values among a test's cuts by itself or looks
    category codes up in a ``cat_branch`` table: they call ``branch_index`` (or ``Tree.branch_of``)."""
    left = {
        rel
        for rel, _, call in _calls("searchsorted")
        if any(k.arg == "side" and getattr(k.value, "value", None) == "left" for k in call.keywords)
    }
    assert left <= set(SEARCHSORTED_LEFT_ELSEWHERE), left - set(SEARCHSORTED_LEFT_ELSEWHERE)
    lookups = []
    for path in sorted((ROOT / "dtcore").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(parsed(path)):
            if (
                isinstance(node, ast.Subscript)
                and not isinstance(node.slice, ast.Slice)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "cat_branch"
            ):
                lookups.append(rel)
    # CART's level-wise grower keeps its per-node tables (Grower.route, a vectorised form)
    assert set(lookups) <= {"dtcore/tree.py", "dtcore/cart/grower.py"}, lookups


def test_pruning_explorer_and_counterfactual_route_through_branch_index():
    for rel in (
        "dtcore/pruning/ebp.py",
        "dtcore/pruning/ebp_nodes.py",
        "dtcore/explain/entropy.py",
        "dtcore/explain/counterfactual.py",
        "dtcore/explain/prediction.py",
    ):
        assert "branch_index" in {
            name for r, _, c in _calls("branch_index") if r == rel for name in names_in(c.func)
        }, rel


# -- 4. ID3's rules --------------------------------------------------------------------------------

ID3_RULES = {
    "feature_plan",
    "leaf_reason",
    "leaf_reasons",
    "branch_rows",
    "branches_ok",
    "branches_ok_many",
    "is_positive",
    "better",
    "better_many",
    "test_score",
    "weighted_gain",
    "decrease_ok",
}


def test_id3_rules_live_in_id3_rules():
    """ID3's rules are defined in dtcore/id3/rules.py only (C4.5's ``leaf_reason`` and CART's
    ``decrease_ok`` are the other algorithms'), and the explorer imports that module."""
    from dtcore.id3 import estimator, rules

    others = {("dtcore/c45/rules.py", "leaf_reason"), ("dtcore/cart/rules.py", "decrease_ok")}
    defined = {(rel, fn.name) for rel, fn in functions() if fn.name in ID3_RULES} - others
    assert {rel for rel, _ in defined} == {"dtcore/id3/rules.py"}, defined
    assert {name for rel, name in defined if rel == "dtcore/id3/rules.py"} == ID3_RULES
    assert rules.POSITIVE_GAIN == 1e-12 and not hasattr(estimator, "POSITIVE_GAIN")
    for rel in ("dtcore/explain/entropy.py", "dtcore/explain/report.py", "dtcore/explain/node_data.py"):
        src = (ROOT / rel).read_text(encoding="utf-8")
        assert "from dtcore.id3 import rules as id3_rules" in src and "id3 import estimator" not in src, rel


def test_id3_decrease_test_is_written_once():
    """``min_impurity_decrease`` is compared with N_t/N · gain in ``id3.rules.decrease_ok`` only."""
    compares = []
    for rel, fn in functions():
        if not rel.startswith(("dtcore/id3/", "dtcore/explain/")):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and "min_impurity_decrease" in names_in(node):
                compares.append((rel, fn.name))
    assert set(compares) <= {
        ("dtcore/id3/rules.py", "decrease_ok"),
        ("dtcore/id3/estimator.py", "_validate_params"),  # the parameter check (≥ 0)
    }, compares


@pytest.mark.parametrize("limit,stopped", [(0.0, 0), (0.02, 2), (0.1, 2), (0.5, 1)])
def test_explorer_stops_where_id3_stops_on_the_decrease_test(limit, stopped):
    """The explorer's leaf reasons match the builder's tree node by node, and
    ``min_impurity_decrease`` stops the nodes the builder left as leaves for it (iris)."""
    from dtcore.id3.estimator import ID3Classifier
    from dtcore.id3.rules import decrease_ok

    assert decrease_ok(0.1, 0.1) and not decrease_ok(0.0999, 0.1)
    X, y, kw = cj.load_csv(DATA / "iris.csv")
    est = ID3Classifier(continuous="threshold", min_impurity_decrease=limit).fit(X, y, **kw)
    Xe = est.encode(X)
    yc = np.array([list(est.classes_).index(v) for v in y])
    t = est.tree_
    reasons = []
    for node in range(t.node_count):
        if t.weighted_n[node] <= 0:
            continue
        rep = explain.split_report(est, Xe, yc, None, node)
        assert (rep.leaf_reason is None) == (t.feature[node] >= 0), (node, rep.leaf_reason)
        reasons.append(rep.leaf_reason)
    assert reasons.count("min_impurity_decrease") == stopped, reasons


# -- a node's class ------------------------------------------------------------------------------


def test_a_nodes_class_is_read_in_one_place():
    """Which class a node predicts is ``Tree.node_classes`` (the first most probable, as
    prediction reads it): no other ``argmax`` over the class weights or probabilities of nodes
    in the library or the app (J48's text keeps Weka's rule, on its own ``counts``)."""
    homes = []
    for folder in ("dtcore", "ui", "pages"):
        for rel, fn in functions(folder):
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call) or "argmax" not in names_in(call.func):
                    continue
                read = set().union(set(), *(names_in(a) for a in call.args))
                if isinstance(call.func, ast.Attribute) and call.func.attr == "argmax":
                    read |= names_in(call.func.value)
                if read & {"value", "leaf_distribution", "dist"}:
                    homes.append((rel, fn.name))
    assert set(homes) == {("dtcore/tree.py", "node_classes")}, homes


# -- an empty node's class ---------------------------------------------------------------------


def _weighs_nothing(node: ast.AST) -> bool:
    """``<…>.value….sum(…) <= 0``: a node of no weight."""
    return (
        isinstance(node, ast.Compare)
        and isinstance(node.ops[0], ast.LtE)
        and isinstance(node.left, ast.Call)
        and "sum" in names_in(node.left.func)
        and "value" in names_in(node.left)
    )


def test_an_empty_node_takes_its_ancestors_class_in_one_place():
    """A node of no weight predicts its nearest non-empty ancestor's class: only
    ``labels.prediction_sources`` climbs ``parent`` from a node that weighs nothing (the single-node
    and every-node forms had each their own climb)."""
    homes = [
        (rel, fn.name)
        for rel, fn in functions()
        if "parent" in names_in(fn) and any(_weighs_nothing(n) for n in ast.walk(fn))
    ]
    assert homes == [("dtcore/export/labels.py", "prediction_sources")], homes
