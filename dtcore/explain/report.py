"""The split report of one node: every feature's candidates (``entropy``, ``cart``), the choice
between features and the reason the builder would stop, each decided by the builders' own rules
(``c45.rules``, ``id3.rules``, ``cart.rules``), gathered into a :class:`SplitReport`."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from dtcore.c45 import rules as c45_rules
from dtcore.cart.rules import decrease_ok, pretest_reason
from dtcore.explain.cart import cart_features
from dtcore.explain.entropy import c45_features, id3_features
from dtcore.explain.node_data import NodeData, cart_params, feats_impurity, with_neighbours
from dtcore.explain.records import FeatureSplits, Selection, SplitReport
from dtcore.export.thresholds import neighbours
from dtcore.id3 import rules as id3_rules
from dtcore.routing import Reached, SplitTest
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

# =============================================================================================
# selection between features


def _score(value: float | None) -> float:
    """A usable feature's score (a usable feature always has its best test's scores)."""
    assert value is not None
    return value


def _select(nd: NodeData, feats: list[FeatureSplits]) -> tuple[int | None, int | None, list[int], Selection]:
    """(chosen feature or None, runner-up or None, ranking, selection info); C4.5's gain-ratio
    rule also marks each usable feature ``above_average`` / ``in_average``."""
    algo = nd.algorithm
    usable = [j for j, r in enumerate(feats) if r.usable]
    info = Selection()
    chosen: int | None
    if algo == "cart":
        ranked = sorted(usable, key=lambda j: (feats[j].proxy, -j), reverse=True)  # first max, lowest index
        chosen = ranked[0] if ranked else None
    elif algo == "c45":
        est = nd.est
        n_all = nd.X_all.shape[0]
        schema_feats = nd.schema.features
        many = {
            j: (
                schema_feats[j].is_categorical
                and c45_rules.many_values(len(schema_feats[j].categories), n_all)
            )
            for j in usable
        }
        multi_val = all(f.is_categorical for f in schema_feats) and all(
            c45_rules.many_values(len(f.categories), n_all) for f in schema_feats
        )
        pool = [j for j in usable if not many[j] or multi_val]
        sel = c45_rules.select_test(
            [_score(feats[j].gain) for j in usable],
            [_score(feats[j].gain_ratio) for j in usable],
            [j in pool for j in usable],
            est.criterion,
        )
        chosen = None if sel.best is None else usable[sel.best]
        if est.criterion == "gain":
            ranked = sorted(usable, key=lambda j: (feats[j].gain, -j), reverse=True)
        else:
            info.average_gain = sel.average
            assert sel.above_average is not None  # given with the gain-ratio rule
            for k, j in enumerate(usable):
                feats[j].above_average = bool(sel.above_average[k])
                feats[j].in_average = j in pool
            ranked = sorted(
                usable, key=lambda j: (feats[j].above_average, feats[j].gain_ratio, -j), reverse=True
            )
    else:  # id3
        crit = nd.est.criterion

        def sc(j: int) -> Any:
            return feats[j].gain if crit == "gain" else feats[j].gain_ratio

        chosen, best = None, None
        for j in usable:
            if id3_rules.better(sc(j), best):
                chosen, best = j, sc(j)
        ranked = sorted(usable, key=lambda j: (sc(j), -j), reverse=True)
    runner = next((j for j in ranked if j != chosen), None)
    return chosen, runner, ranked, info


def _leaf_reason(nd: NodeData, feats: list[FeatureSplits], chosen: int | None) -> str | None:
    """Why the builder would stop here (None: it splits)."""
    est, algo = nd.est, nd.algorithm
    reason: str | None
    if nd.N <= 0:
        return "empty"
    if algo == "c45":
        reason = c45_rules.leaf_reason(nd.N, nd.counts, float(est.min_cases))
        if reason is not None:
            return reason
    elif algo == "id3":
        reason = id3_rules.leaf_reason(
            nd.counts, nd.rows.size, nd.depth, est.min_samples_split, est.max_depth
        )
        if reason is not None:
            return reason
    else:
        reason = pretest_reason(cart_params(nd), nd.depth, nd.rows.size, nd.N, feats_impurity(nd))
        if reason is not None:
            return reason
    if chosen is None:
        return "no_test"
    if algo == "id3":
        gain = feats[chosen].gain
        assert gain is not None  # a usable feature has its best test's gain
        if not id3_rules.decrease_ok(
            id3_rules.weighted_gain(nd.N, nd.W_root, gain), est.min_impurity_decrease
        ):
            return "min_impurity_decrease"
    if algo == "cart" and not decrease_ok(cart_params(nd), _score(feats[chosen].improvement)):
        return "min_impurity_decrease"
    return None


# =============================================================================================
# the tree's test


def tree_test(tree: Tree, node: int) -> SplitTest | None:
    """The test stored at ``node`` (``Tree.split_test``; None at a leaf); a continuous test
    carries the node's training values beside its cuts (``below``/``above``, None where there is
    none) when the tree knows them, so that it prints unambiguously."""
    out = tree.split_test(node)
    if out is None or out.is_categorical:
        return out
    if tree.cut_below is not None and tree.cut_above is not None:
        below, above = (
            tuple(float(v) if np.isfinite(v) else None for v in a) for a in neighbours(tree, node)
        )
        out = dataclasses.replace(out, below=below, above=above)
    return out


def same_test(a: SplitTest | None, b: SplitTest | None) -> bool:
    """Do two tests route every row alike (same feature, cuts or table, missing branch)?"""
    if a is None or b is None:
        return a is b
    return bool(
        a.feature == b.feature
        and a.missing_branch == b.missing_branch
        and (a.cuts or None) == (b.cuts or None)
        and (a.cat_branch or None) == (b.cat_branch or None)
    )


# =============================================================================================
# the report


def split_report(
    est: BaseTreeEstimator,
    X: ArrayLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    node: int = 0,
    tree: Tree | str | None = "fitted",
) -> SplitReport:
    """Every feature's candidate tests at ``node`` with the builder's scores.

    ``est``: a fitted estimator (its tree and schema), or an unfitted one whose ``schema_`` is set
    (then only the root, ``tree=None``). X, y: the encoded training data (``est.encode`` / class
    codes), ``sample_weight`` the training weights. ``tree`` defaults to ``est.tree_``.

    Returns a :class:`SplitReport` (``node``, ``algorithm``, ``criterion``, ``score_name``,
    ``weighted_n``, ``n_samples``, ``class_counts`` or ``mean``, ``impurity``, ``features``: a
    :class:`FeatureSplits` per feature, ``chosen`` / ``runner_up`` feature indices, ``ranking``,
    ``leaf_reason``, ``tree_test`` and ``selection``).
    """
    return report_for(explainer_data(est, X, y, sample_weight, node, tree))


def report_for(nd: NodeData) -> SplitReport:
    """The split report of the node ``nd`` holds."""
    feats: list[FeatureSplits]
    if nd.algorithm == "cart":
        feats = cart_features(nd)
    elif nd.algorithm == "c45":
        feats = c45_features(nd) if nd.N > 0 else []
    else:
        feats = id3_features(nd) if nd.N > 0 else []
    for rec in feats:
        rec.test = with_neighbours(nd, rec.test)
    held = with_neighbours(nd, tree_test(nd.tree, nd.node) if nd.tree is not None else None)
    chosen, runner, ranked, info = _select(nd, feats) if feats else (None, None, [], Selection())
    leaf = _leaf_reason(nd, feats, chosen)
    score_name = (
        "impurity_decrease"
        if nd.algorithm == "cart"
        else "gain_ratio"
        if nd.est.criterion == "gain_ratio"
        else "gain"
    )
    out = SplitReport(
        node=nd.node,
        algorithm=nd.algorithm,
        criterion=_criterion_name(nd),
        score_name=score_name,
        weighted_n=nd.N,
        n_samples=int(nd.rows.size),
        impurity=feats_impurity(nd),
        features=feats,
        chosen=chosen,
        runner_up=runner,
        ranking=ranked,
        leaf_reason=leaf,
        selection=info,
        depth=nd.depth,
        tree_test=held,
    )
    if nd.C:
        out.class_counts = nd.counts
        out.classes = list(nd.schema.classes)
    else:
        out.mean = float(np.sum(nd.w * nd.y) / nd.N) if nd.N > 0 else float("nan")
    return out


def _criterion_name(nd: NodeData) -> str:
    if nd.algorithm == "cart":
        return str(cart_params(nd).criterion)
    return str(nd.est.criterion)


def explainer_data(
    est: BaseTreeEstimator,
    X: ArrayLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    node: int = 0,
    tree: Tree | str | None = "fitted",
    known: Reached | None = None,
) -> NodeData:
    """The node's data (``tree`` defaults to ``est.tree_``), for a report and previews;
    ``known``: an ancestor's rows, where finding the node's rows starts (``Tree.reach``)."""
    if isinstance(tree, str):
        tree = getattr(est, "tree_", None)
    return NodeData(est, X, y, sample_weight, node, tree, known)
