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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from dtcore import explain
from dtcore.c45.rules import AVERAGE_EPS
from dtcore.routing import SplitTest

if TYPE_CHECKING:
    from dtcore.analysis.compare import Entry


@dataclass
class Disagreement:
    """The first node (in level order) where the contenders' tests differ.

    ``path``: the branches from the root, ``[(feature name, branch label), ...]``; ``nodes``:
    key → the node's id in that contender's grown tree, ``final``: key → the node ids of that
    path in its fitted tree (as far as the fitted tree follows it); ``chosen``: key → index into
    ``tests`` or None (the contender makes a leaf: ``leaf_reason[key]``); ``tests``: each
    competing test {"feature", "name", "labels", "test"}; ``scores[t][key]``: test t under
    contender key's criterion; ``average_gain``: C4.5's average gain at the node."""

    depth: int
    path: list[tuple[str, str]]
    n_rows: int
    weight: float
    nodes: dict[str, int]
    final: dict[str, list[int]]
    chosen: dict[str, int | None]
    leaf_reason: dict[str, str | None]
    tests: list[dict[str, Any]]
    scores: list[dict[str, dict[str, Any]]]
    criteria: dict[str, str]
    average_gain: float | None = None
    features: list[dict[str, Any]] = field(default_factory=list)
    runner_up: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(
            {
                "depth": self.depth,
                "path": [list(p) for p in self.path],
                "n_rows": self.n_rows,
                "weight": self.weight,
                "nodes": self.nodes,
                "final": self.final,
                "chosen": self.chosen,
                "leaf_reason": self.leaf_reason,
                "criteria": self.criteria,
                "average_gain": self.average_gain,
                "tests": self.tests,
                "scores": self.scores,
                "features": self.features,
                "runner_up": self.runner_up,
            }
        )


# the first disagreement


def first_disagreement(entries: list[Entry], X_train: np.ndarray, y_train: np.ndarray) -> Disagreement | None:
    """Walk the grown trees in step, level by level (see the module docstring); None when they
    hold the same tests everywhere (or there is one contender).

    Two tests are the same when they test the same feature and split the node's rows alike (a
    one-to-one map between their non-empty branches): CART's ``是 | 否`` and ID3's ``否 | 是``
    are one test, and so are a multiway test and CART's on a feature with two values present."""
    if len(entries) < 2:
        return None
    trees = [e.estimator.grown_tree_ for e in entries]
    data = [(e.estimator.encode(X_train), _encode_y(e.estimator, y_train)) for e in entries]
    schema = entries[0].estimator.schema_
    queue: list[tuple[list[int], list[tuple[str, str]]]] = [([0] * len(entries), [])]
    while queue:
        nodes, path = queue.pop(0)
        tests = [explain.tree_test(t, n) for t, n in zip(trees, nodes)]
        if all(t is None for t in tests):
            continue
        nd = [
            explain.explainer_data(e.estimator, *d, None, n, t)
            for e, d, n, t in zip(entries, data, nodes, trees)
        ]
        first = tests[0]
        maps = [_same_split(nd[0], first, t) for t in tests]
        if first is None or any(m is None for m in maps):
            return _explain_node(entries, nd, nodes, path, tests)
        labels = explain.branch_labels(schema, first)
        name = schema.features[first.feature].name
        kids = [t.children_of(n) for t, n in zip(trees, nodes)]
        for v in sorted(maps[0] or {}):
            queue.append(
                ([int(k[m[v]]) for k, m in zip(kids, maps) if m is not None], path + [(name, labels[v])])
            )
    return None


def _same_split(nd: Any, a: SplitTest | None, b: SplitTest | None) -> dict[int, int] | None:
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
    datas: list[Any],
    nodes: list[int],
    path: list[tuple[str, str]],
    tests: list[Any],
) -> Disagreement:
    distinct: list[Any] = []
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
        {
            "feature": t.feature,
            "name": schema.features[t.feature].name,
            "labels": explain.branch_labels(schema, t),
            "test": t,
            "by": [k for k, c in chosen.items() if c == i],
        }
        for i, t in enumerate(distinct)
    ]
    avg = next((r.selection.average_gain for r in reports if r.algorithm == "c45"), None)
    scores = [
        {
            e.key: {**_test_score(nd, rep, t, avg), "possible": _can_make(rep, t)}
            for e, nd, rep in zip(entries, datas, reports)
        }
        for t in distinct
    ]
    final = {
        e.key: _final_path(e.estimator.tree_, e.estimator.grown_tree_, n) for e, n in zip(entries, nodes)
    }
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
        runner_up={e.key: _runner_up(r) for e, r in zip(entries, reports)},
    )


_SCORE_FIELD = {"gain": "gain", "gain_ratio": "gain_ratio", "impurity_decrease": "improvement"}


def _runner_up(rep: Any) -> dict[str, Any] | None:
    """The report's second-best feature and its score (the explorer's ``runner_up``)."""
    if rep.runner_up is None:
        return None
    f = rep.features[rep.runner_up]
    return {
        "feature": int(rep.runner_up),
        "name": f.name,
        "score": getattr(f, _SCORE_FIELD.get(rep.score_name, "gain")),
    }


def _encode_y(est: Any, y: np.ndarray) -> np.ndarray:
    if est.schema_.is_classifier:
        from dtcore.schema import encode_classes

        return encode_classes(y, est.schema_.classes)[0]
    from dtcore.schema import encode_regression_target

    return encode_regression_target(y)


def _test_score(nd: Any, rep: Any, test: SplitTest, avg: float | None) -> dict[str, Any]:
    """``test`` under the contender's criterion: the explorer's worked arithmetic."""
    ar = explain.arithmetic(nd, test, rep)
    if ar.kind == "entropy":
        out: dict[str, Any] = {
            "gain": ar.gain,
            "split_info": ar.split_info,
            "iv": ar.iv,
            "gain_ratio": ar.gain_ratio,
        }
        if nd.algorithm == "c45":
            out["score"] = ar.gain_ratio
            if avg is not None and ar.gain is not None:
                out["above_average"] = bool(ar.gain >= avg - AVERAGE_EPS)
        else:
            out["score"] = ar.gain
        return out
    return {"decrease": ar.decrease, "impurity": ar.impurity, "weighted": ar.weighted, "score": ar.decrease}


def _can_make(rep: Any, test: SplitTest) -> bool:
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


def _feature_table(entries: list[Entry], reports: list[Any]) -> list[dict[str, Any]]:
    """Per feature, its best test's score in each contender's report at the node."""
    out = []
    for j, f in enumerate(reports[0].features):
        row: dict[str, Any] = {"feature": j, "name": f.name}
        for e, r in zip(entries, reports):
            fs = r.features[j]
            if not fs.usable:
                row[e.key] = None
                continue
            rec: dict[str, Any] = {"gain": fs.gain}
            if r.algorithm == "c45":
                rec.update(gain_ratio=fs.gain_ratio, split_info=fs.split_info, above_average=fs.above_average)
            elif r.algorithm == "id3":
                rec.update(iv=fs.iv)
            else:
                rec = {"decrease": fs.improvement}
            row[e.key] = rec
        out.append(row)
    return out


def _final_path(final: Any, grown: Any, node: int) -> list[int]:
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


def notes(d: Disagreement | None, entries: list[Entry]) -> list[dict[str, Any]]:
    """Why the contenders chose apart at the first disagreement, as records a view puts in
    words: {"kind": "chose", "by", "test", "score_name", "score", "other", "other_score"} for each
    contender (``other``: the best of the competing tests it could have made, or None); "binary" (CART splits in two where another test has
    more branches on the same feature), "penalised" (C4.5's gain ratio divides by the split
    information: the test with more information per branch wins), "below_average" (a test's gain
    below C4.5's average), "leaf" (a contender stops here)."""
    if d is None:
        return []
    out: list[dict[str, Any]] = []
    for e in entries:
        i = d.chosen[e.key]
        if i is None:
            out.append({"kind": "leaf", "by": e.key, "reason": d.leaf_reason[e.key]})
            continue
        rivals = [j for j in range(len(d.tests)) if j != i and d.scores[j][e.key]["possible"]]
        best = max(rivals, key=lambda j: d.scores[j][e.key]["score"] or 0.0) if rivals else None
        out.append(
            {
                "kind": "chose",
                "by": e.key,
                "score_name": d.criteria[e.key],
                "test": i,
                "score": d.scores[i][e.key]["score"],
                "other": best,
                "other_score": None if best is None else d.scores[best][e.key]["score"],
                "runner_up": d.runner_up.get(e.key),
            }
        )
    for i, t in enumerate(d.tests):
        for j, u in enumerate(d.tests):
            if i != j and t["feature"] == u["feature"] and len(t["labels"]) == 2 < len(u["labels"]):
                out.append({"kind": "binary", "test": i, "other": j})
    c45 = [e.key for e in entries if e.algorithm == "c45"]
    if c45:
        k = c45[0]
        for i, _ in enumerate(d.tests):
            s = d.scores[i][k]
            if s.get("above_average") is False:
                out.append({"kind": "below_average", "test": i, "gain": s["gain"], "average": d.average_gain})
        ci = d.chosen[k]
        if ci is not None:
            for j in range(len(d.tests)):
                sj, si = d.scores[j][k], d.scores[ci][k]
                if (
                    j != ci
                    and sj["possible"]
                    and sj["gain"] is not None
                    and si["gain"] is not None
                    and sj["gain"] > si["gain"]
                ):
                    out.append(
                        {
                            "kind": "penalised",
                            "test": j,
                            "split_info": sj["split_info"],
                            "gain_ratio": sj["gain_ratio"],
                            "chosen": ci,
                            "chosen_split_info": si["split_info"],
                            "chosen_gain_ratio": si["gain_ratio"],
                        }
                    )
    return [explain.jsonable(n) for n in out]


def describe_test(t: dict[str, Any]) -> str:
    """A competing test in one line: ``纹理: = 清晰 | = 稍糊 | = 模糊`` (at most four branches
    spelled out: ``编号: = 1 | = 2 | = 3 | … (17 branches)``)."""
    labels = list(t["labels"])
    if len(labels) > 4:
        return f"{t['name']}: " + " | ".join(labels[:3]) + f" | … ({len(labels)} branches)"
    return f"{t['name']}: " + " | ".join(labels)
