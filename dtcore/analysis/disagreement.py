"""The first node where the compared trees' tests differ (``dtcore.analysis.compare``), scored under every
contender's criterion with the split explorer's arithmetic, and why, as records a view words.

The grown trees (``grown_tree_``: the builders' choices, before any pruning) are walked top-down
in step, level by level; while every tree holds the same test at the node the same rows reach,
the walk goes on in every branch; at the first node where the tests differ (or one tree stops),
each competing test is scored under every contender's criterion (``explain.arithmetic``,
``explain.report_for``: gain, gain ratio with C4.5's average-gain rule, Gini decrease), never a
formula of its own.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from dtcore import explain
from dtcore.analysis.compare_records import (
    BelowAverageNote,
    BinaryNote,
    C45FeatureScore,
    CartFeatureScore,
    ChoseNote,
    CompetingTest,
    Disagreement,
    EntropyScore,
    Entry,
    FeatureRow,
    FeatureScore,
    Id3FeatureScore,
    ImpurityScore,
    LeafNote,
    Note,
    PenalisedNote,
    RunnerUp,
    TestScore,
)
from dtcore.base import BaseTreeEstimator
from dtcore.c45.rules import AVERAGE_EPS
from dtcore.explain.node_data import NodeData
from dtcore.explain.records import SplitReport
from dtcore.history import FittedTree
from dtcore.progress import checkpoint
from dtcore.routing import Reached, SplitTest
from dtcore.tree import Tree

# =============================================================================================
# the first disagreement


def first_disagreement(entries: list[Entry], X_train: np.ndarray, y_train: np.ndarray) -> Disagreement | None:
    """Walk the grown trees in step, level by level (see the module docstring); None when they
    hold the same tests everywhere (or there is one contender).

    Two tests are the same when they test the same feature and split the node's rows alike (a
    one-to-one map between their non-empty branches): CART's ``是 | 否`` and ID3's ``否 | 是``
    are one test, and so are a multiway test and CART's on a feature with two values present."""
    if len(entries) < 2:
        return None
    trees = [_grown(e) for e in entries]
    data = [(e.estimator.encode(X_train), _encode_y(e.estimator, y_train)) for e in entries]
    schema = entries[0].estimator.schema_
    # (each tree's node, the rows reaching its parent in each tree, the path): a node's rows are
    # found from its parent's, not from the root again (4 000 node pairs of two 10⁵-row trees:
    # 35 s when every node re-routed every row)
    Item = tuple[list[int], list[Reached] | list[None], list[tuple[str, str]]]
    queue: list[Item] = [([0] * len(entries), [None] * len(entries), [])]
    while queue:
        checkpoint()  # a node pair at a time: a stop point (dtcore.progress)
        nodes, above, path = queue.pop(0)
        tests = [explain.tree_test(t, n) for t, n in zip(trees, nodes)]
        if all(t is None for t in tests):
            continue
        nd = [
            explain.explainer_data(e.estimator, *d, None, n, t, known)
            for e, d, n, t, known in zip(entries, data, nodes, trees, above)
        ]
        first = tests[0]
        maps = [_same_split(nd[0], first, t) for t in tests]
        if first is None or any(m is None for m in maps):
            return _explain_node(entries, nd, nodes, path, tests)
        labels = explain.branch_labels(schema, first)
        name = schema.features[first.feature].name
        kids = [t.children_of(n) for t, n in zip(trees, nodes)]
        here: list[Reached] = [(n, d.rows, d.share) for n, d in zip(nodes, nd)]
        for v in sorted(maps[0] or {}):
            queue.append(
                (
                    [int(k[m[v]]) for k, m in zip(kids, maps) if m is not None],
                    here,
                    path + [(name, labels[v])],
                )
            )
    return None


def _same_split(nd: NodeData, a: SplitTest | None, b: SplitTest | None) -> dict[int, int] | None:
    """Branch of ``a`` → branch of ``b`` when both test one feature and split the node's rows
    alike (known values; ``explain.route_test``), else None."""
    if a is None or b is None or a.feature != b.feature:
        return None
    ba, bb = explain.route_test(nd, a)[0], explain.route_test(nd, b)[0]
    known = (ba >= 0) & (bb >= 0)
    pairs = np.unique(np.stack([ba[known], bb[known]], axis=1), axis=0)
    if pairs.shape[0] != np.unique(pairs[:, 0]).size or pairs.shape[0] != np.unique(pairs[:, 1]).size:
        return None
    return {int(x): int(y) for x, y in pairs.tolist()}


def _explain_node(
    entries: list[Entry],
    datas: list[NodeData],
    nodes: list[int],
    path: list[tuple[str, str]],
    tests: list[SplitTest | None],
) -> Disagreement:
    distinct: list[SplitTest] = []
    chosen: dict[str, int | None] = {}
    for e, t in zip(entries, tests):
        if t is None:
            chosen[e.key] = None
            continue
        hit = next((i for i, d in enumerate(distinct) if _same_split(datas[0], d, t) is not None), None)
        if hit is None:
            distinct.append(t)
            hit = len(distinct) - 1
        chosen[e.key] = hit
    reports = [explain.report_for(nd) for nd in datas]
    schema = entries[0].estimator.schema_
    described = [
        CompetingTest(
            t.feature,
            schema.features[t.feature].name,
            explain.branch_labels(schema, t),
            t,
            [k for k, c in chosen.items() if c == i],
        )
        for i, t in enumerate(distinct)
    ]
    avg = next((r.selection.average_gain for r in reports if r.algorithm == "c45"), None)
    scores = [
        {
            e.key: _test_score(nd, rep, t, avg, _can_make(rep, t))
            for e, nd, rep in zip(entries, datas, reports)
        }
        for t in distinct
    ]
    final = {e.key: _final_path(e.estimator.tree_, _grown(e), n) for e, n in zip(entries, nodes)}
    return Disagreement(
        depth=len(path),
        path=path,
        n_rows=int(reports[0].n_samples),
        weight=float(reports[0].weighted_n),
        nodes={e.key: int(n) for e, n in zip(entries, nodes)},
        final=final,
        chosen=chosen,
        leaf_reason={
            e.key: (r.leaf_reason if chosen[e.key] is None else None) for e, r in zip(entries, reports)
        },
        tests=described,
        scores=scores,
        criteria={e.key: r.score_name for e, r in zip(entries, reports)},
        average_gain=None if avg is None else float(avg),
        features=_feature_table(entries, reports),
        runner_up={e.key: _runner_up(r, t) for e, r, t in zip(entries, reports, tests)},
    )


def _runner_up(rep: SplitReport, test: SplitTest | None) -> RunnerUp | None:
    """The best feature after the one the contender's tree tests here, scored as its chosen test
    is (``SplitReport.runner_up_to``, ``score_of``); None at a leaf."""
    j = None if test is None else rep.runner_up_to(test.feature)
    return None if j is None else RunnerUp(j, rep.features[j].name, rep.score_of(j))


def _grown(e: Entry) -> Tree:
    """The contender's tree as grown (every dtcore estimator records its growth when fitted)."""
    return cast(FittedTree, e.estimator).grown_tree_


def _encode_y(est: BaseTreeEstimator, y: np.ndarray) -> np.ndarray:
    if est.schema_.is_classifier:
        from dtcore.schema import encode_classes

        return encode_classes(y, est.schema_.classes)[0]
    from dtcore.schema import encode_regression_target

    return encode_regression_target(y)


def _test_score(
    nd: NodeData, rep: SplitReport, test: SplitTest, avg: float | None, possible: bool
) -> TestScore:
    """``test`` under the contender's criterion: the explorer's worked arithmetic."""
    ar = explain.arithmetic(nd, test, rep)
    if ar.kind == "entropy":
        c45 = nd.algorithm == "c45"
        above = None
        if c45 and avg is not None and ar.gain is not None:
            above = bool(ar.gain >= avg - AVERAGE_EPS)
        return EntropyScore(
            ar.gain, ar.split_info, ar.iv, ar.gain_ratio, ar.gain_ratio if c45 else ar.gain, above, possible
        )
    return ImpurityScore(ar.decrease, ar.impurity, ar.weighted, ar.decrease, possible)


def _can_make(rep: SplitReport, test: SplitTest) -> bool:
    """Is ``test`` of the kind the report's algorithm makes on its feature: binary for CART,
    one branch per category for ID3 and C4.5, their own cut count on a continuous feature (the
    report's test of that feature), on a feature the algorithm's own rules let it test there
    (the explorer's ``usable``: C4.5's two branches with MINOBJS weight, ID3's leaf sizes)?"""
    own = rep.features[test.feature].test
    if rep.algorithm != "cart" and not rep.features[test.feature].usable:
        return False
    if rep.algorithm == "cart":
        table = test.cat_branch
        n = max(list(table) + [test.missing_branch]) + 1 if table is not None else len(test.cuts or ()) + 1
        return bool(n == 2)
    if test.cat_branch is not None:
        return list(test.cat_branch) == list(range(len(test.cat_branch)))
    return own is not None and own.cuts is not None and len(own.cuts) == len(test.cuts or ())


def _feature_table(entries: list[Entry], reports: list[SplitReport]) -> list[FeatureRow]:
    """Per feature, its best test's score in each contender's report at the node."""
    out = []
    for j, f in enumerate(reports[0].features):
        scores: dict[str, FeatureScore | None] = {}
        for e, r in zip(entries, reports):
            fs = r.features[j]
            if not fs.usable:
                scores[e.key] = None
            elif r.algorithm == "c45":
                scores[e.key] = C45FeatureScore(fs.gain, fs.gain_ratio, fs.split_info, fs.above_average)
            elif r.algorithm == "id3":
                scores[e.key] = Id3FeatureScore(fs.gain, fs.iv)
            else:
                scores[e.key] = CartFeatureScore(fs.improvement)
        out.append(FeatureRow(j, f.name, scores))
    return out


def _final_path(final: Tree, grown: Tree, node: int) -> list[int]:
    """The fitted tree's nodes along the grown tree's path to ``node``, as far as the fitted
    tree holds the same tests (pruning may have cut it short)."""
    path = grown.path_to(node)
    out = [0]
    for parent, child in zip(path[:-1], path[1:]):
        cur = out[-1]
        if not explain.same_test(explain.tree_test(final, cur), explain.tree_test(grown, parent)):
            break
        b = int(np.flatnonzero(grown.children_of(parent) == child)[0])
        out.append(int(final.children_of(cur)[b]))
    return out


# =============================================================================================
# in words


def notes(d: Disagreement | None, entries: list[Entry]) -> list[Note]:
    """Why the contenders chose apart at the first disagreement, as records a view puts in
    words: a :class:`ChoseNote` for each contender that splits (``other``: the best of the
    competing tests it could have made, or None), a :class:`LeafNote` for each that stops here;
    :class:`BinaryNote` (CART splits in two where another test has more branches on the same
    feature), :class:`PenalisedNote` (C4.5's gain ratio divides by the split information: the test
    with more information per branch wins), :class:`BelowAverageNote` (a test's gain below
    C4.5's average)."""
    if d is None:
        return []
    out: list[Note] = []
    for e in entries:
        i = d.chosen[e.key]
        if i is None:
            out.append(LeafNote(e.key, d.leaf_reason[e.key]))
            continue
        rivals = [j for j in range(len(d.tests)) if j != i and d.scores[j][e.key].possible]
        best = max(rivals, key=lambda j: d.scores[j][e.key].score or 0.0) if rivals else None
        out.append(
            ChoseNote(
                e.key,
                d.criteria[e.key],
                i,
                d.scores[i][e.key].score,
                best,
                None if best is None else d.scores[best][e.key].score,
                d.runner_up.get(e.key),
            )
        )
    for i, t in enumerate(d.tests):
        for j, u in enumerate(d.tests):
            if i != j and t.feature == u.feature and len(t.labels) == 2 < len(u.labels):
                out.append(BinaryNote(i, j))
    c45 = [e.key for e in entries if e.algorithm == "c45"]
    if c45:
        k = c45[0]
        ours = [row[k] for row in d.scores]  # C4.5's scores are entropy scores
        for i, s in enumerate(ours):
            if isinstance(s, EntropyScore) and s.above_average is False:
                out.append(BelowAverageNote(i, s.gain, d.average_gain))
        ci = d.chosen[k]
        si = ours[ci] if ci is not None else None
        if ci is not None and isinstance(si, EntropyScore):
            for j, sj in enumerate(ours):
                if (
                    j != ci
                    and isinstance(sj, EntropyScore)
                    and sj.possible
                    and sj.gain is not None
                    and si.gain is not None
                    and sj.gain > si.gain
                ):
                    out.append(
                        PenalisedNote(j, sj.split_info, sj.gain_ratio, ci, si.split_info, si.gain_ratio)
                    )
    return out


def describe_test(t: CompetingTest) -> str:
    """A competing test in one line: ``纹理: = 清晰 | = 稍糊 | = 模糊`` (at most four branches
    spelled out: ``编号: = 1 | = 2 | = 3 | … (17 branches)``)."""
    labels = list(t.labels)
    if len(labels) > 4:
        return f"{t.name}: " + " | ".join(labels[:3]) + f" | … ({len(labels)} branches)"
    return f"{t.name}: " + " | ".join(labels)
