"""ID3's growth: every node of a depth scored in one pass, or best first under a leaf limit.

Without ``max_leaf_nodes`` a node's test depends on its own rows only, so the order nodes are
grown in does not change the tree: growing all nodes of a depth together pays numpy's fixed
cost per call once per depth and group of features, not once per node (10⁴ rows × 12
categorical features, 6 220 nodes: 47 000 entropy calls before). Best-first growth decides one
node at a time through the same code (a depth of one node). The tree is the one a
node-at-a-time recursion grows, bit for bit:

* the rules are ``dtcore.id3.rules``' (their many-node forms) and the scores
  ``score_multiway_many``'s (``score_multiway``'s numbers); a continuous feature's binary test
  is scored per node (:func:`threshold_tests`);
* every node keeps its rows in ascending row order and counts their weights in that order, so
  every weighted count adds the same numbers in the same order;
* a row whose value is missing goes down every branch with weight ``w · K_v / K``
  (``routing.distribute``'s shares, over the node's own branches);
* nodes are numbered in pre-order; the split order is pre-order (``"depth_first"``) or the
  order the splits were made (``"best_first"``).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np

from dtcore.criteria import SMALL, entropy
from dtcore.entropy.cutpoints import score_textbook_cuts
from dtcore.entropy.multiway import branch_class_counts_many, score_multiway_many
from dtcore.entropy.preorder import CreatedNodes, preorder_tree
from dtcore.id3.rules import (
    better_many,
    branches_ok_many,
    decrease_ok,
    is_positive,
    leaf_reasons,
    test_score,
    weighted_gain,
)
from dtcore.progress import checkpoint, report
from dtcore.routing import branch_index
from dtcore.tree import Tree

#: counts (nodes × features × branches × classes) made by one ``bincount``: a chunk of a
#: depth's nodes at a time, so that wide multiway features on many nodes stay in memory
CHUNK_CELLS = 1 << 21

#: a feature's plan (``rules.feature_plan``): ("cat", n) | ("bins", cuts) | ("thr", None)
Plan = dict[int, tuple[str, Any]]


@dataclass(frozen=True)
class Limits:
    """The estimator's growth settings the grower reads."""

    criterion: str
    min_samples_split: float
    min_samples_leaf: float
    max_depth: int | None
    min_impurity_decrease: float


@dataclass(frozen=True)
class ThresholdTests:
    """Each continuous feature's best binary test ``x ≤ cut`` at a node (arrays over the
    features; ``valid`` False where no cut is usable)."""

    valid: np.ndarray
    gain: np.ndarray
    score: np.ndarray
    cut: np.ndarray


def threshold_tests(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, N: float, n_classes: int, min_leaf: float, criterion: str
) -> ThresholdTests:
    """The best midpoint cut of each column of ``x`` (rows, features) at a node (SPEC §4): every
    feature in one ``score_textbook_cuts`` call, which scores each row of its (features, rows)
    arrays alone."""
    order = np.argsort(x, axis=0, kind="stable").T
    sc = score_textbook_cuts(
        np.take_along_axis(x.T, order, axis=1), y[order], w[order], N, n_classes, min_leaf=float(min_leaf)
    )
    return ThresholdTests(sc.valid, sc.gain, test_score(sc.gain, sc.split_info, criterion), sc.midpoint)


def n_branches(plan: tuple[str, Any]) -> int:
    kind, arg = plan
    return int(arg) if kind == "cat" else (2 if kind == "thr" else int(arg.size) + 1)


@dataclass
class _Depth:
    """The nodes of one depth and their rows: ``rows``, ``w`` and ``node`` (the node's place in
    ``ids``) per (row, node) pair, grouped by node, rows ascending within it."""

    ids: np.ndarray  # creation ids
    depth: int
    counts: np.ndarray  # (nodes, C) weighted class counts
    n_rows: np.ndarray  # rows of positive weight
    used: np.ndarray  # (nodes, p) multiway features tested above
    rows: np.ndarray
    w: np.ndarray
    node: np.ndarray

    def one(self, i: int) -> _Depth:
        """Node i alone (best-first growth decides one node at a time)."""
        mine = self.node == i
        return _Depth(
            self.ids[i : i + 1], self.depth, self.counts[i : i + 1], self.n_rows[i : i + 1],
            self.used[i : i + 1], self.rows[mine], self.w[mine], np.zeros(int(mine.sum()), dtype=np.int64),
        )  # fmt: skip


@dataclass
class _Best:
    """Each node's best test so far (feature −1: none)."""

    feature: np.ndarray
    score: np.ndarray
    gain: np.ndarray
    cut: np.ndarray

    @classmethod
    def empty(cls, k: int) -> _Best:
        return cls(np.full(k, -1), np.full(k, -np.inf), np.zeros(k), np.full(k, np.nan))


class _Grower:
    """The training arrays, each feature's branch per row, and the nodes made so far."""

    def __init__(self, X: np.ndarray, y: np.ndarray, plan: Plan, n_classes: int, limits: Limits) -> None:
        self.X, self.y, self.plan, self.C, self.limits = X, y, plan, n_classes, limits
        n, p = X.shape
        self.V = np.array([n_branches(plan[j]) for j in range(p)], dtype=np.int64)
        self.is_thr = np.array([plan[j][0] == "thr" for j in range(p)], dtype=bool)  # binary cuts
        self.thr = np.flatnonzero(self.is_thr)
        # every multiway feature's branch per row, fixed before growth (-1: unknown)
        self.B = np.zeros((n, p), dtype=np.int32)
        groups: dict[int, list[int]] = {}
        for j in range(p):
            kind, arg = plan[j]
            if kind == "thr":
                continue
            cat = np.arange(arg) if kind == "cat" else None
            self.B[:, j] = branch_index(X[:, j], cuts=None if kind == "cat" else arg, cat_branch=cat)
            groups.setdefault(int(self.V[j]), []).append(j)
        self.groups = [(V, np.array(js)) for V, js in groups.items()]
        # the nodes made so far (``root`` starts them): (parent, depth, value, weight, rows,
        # impurity) per batch, and (ids, feature, first child's id, cut or NaN) per batch of tests
        self.made: list[tuple[np.ndarray, ...]] = []
        self.tests: list[tuple[np.ndarray, ...]] = []
        self.next_id = 0
        self.N_total = 0.0

    # -- scoring ---------------------------------------------------------------------------------
    def best_tests(self, d: _Depth, cand: np.ndarray, depth_N: np.ndarray) -> _Best:
        """The best test of each candidate node (features in column order, ties keep the first)."""
        kc, p = cand.size, self.X.shape[1]
        gain = np.zeros((kc, p))
        score = np.zeros((kc, p))
        ok = np.zeros((kc, p), dtype=bool)
        cut = np.full((kc, p), np.nan)
        rank = np.full(d.ids.size, -1)
        rank[cand] = np.arange(kc)
        sel = rank[d.node] >= 0
        rows, w, node = d.rows[sel], d.w[sel], rank[d.node[sel]]
        bounds = np.r_[0, np.cumsum(np.bincount(node, minlength=kc))]
        for V, feats in self.groups:
            per_node = feats.size * V * self.C
            step = max(1, CHUNK_CELLS // max(1, per_node))  # a column with no category: 0
            for a in range(0, kc, step):
                b = min(kc, a + step)
                lo, hi = bounds[a], bounds[b]
                g, s, u = self._multiway(rows[lo:hi], w[lo:hi], node[lo:hi] - a, b - a, feats, V)
                gain[a:b, feats], score[a:b, feats], ok[a:b, feats] = g, s, u
                checkpoint()
        thr = self.thr
        for i in range(kc) if thr.size else ():  # a node's rows sorted per feature: node by node
            r = rows[bounds[i] : bounds[i + 1]]
            t = threshold_tests(
                self.X[r[:, None], thr], self.y[r], w[bounds[i] : bounds[i + 1]], float(depth_N[cand[i]]),
                self.C, self.limits.min_samples_leaf, self.limits.criterion,
            )  # fmt: skip
            gain[i, thr], score[i, thr], ok[i, thr], cut[i, thr] = t.gain, t.score, t.valid, t.cut
        best = _Best.empty(kc)
        unused = ~d.used[cand]
        for j in range(p):  # column order: a later feature must beat the best by more than rounding
            take = ok[:, j] & unused[:, j] & is_positive(gain[:, j]) & better_many(score[:, j], best.score)
            best.feature[take], best.score[take] = j, score[take, j]
            best.gain[take], best.cut[take] = gain[take, j], cut[take, j]
        return best

    def _multiway(
        self, rows: np.ndarray, w: np.ndarray, node: np.ndarray, k: int, feats: np.ndarray, V: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(gain, score, usable), each (k, F), of the multiway features ``feats`` (V branches each)
        at k nodes, counted for all of them at once (``branch_class_counts_many``)."""
        F = feats.size
        bc = branch_class_counts_many(
            self.B[rows[:, None], feats[None, :]], self.y[rows], w, node, k, V, self.C
        )
        s = score_multiway_many(bc.counts, bc.unknown)
        usable = branches_ok_many(bc.rows, self.limits.min_samples_leaf)
        score = test_score(s.gain, s.iv, self.limits.criterion)
        return s.gain.reshape(k, F), np.asarray(score).reshape(k, F), usable.reshape(k, F)

    # -- routing ---------------------------------------------------------------------------------
    def branches(self, d: _Depth, best: _Best, split: np.ndarray) -> tuple[np.ndarray, ...]:
        """The rows of the split nodes and each one's branch there (-1: unknown)."""
        mine = split[d.node]
        rows, w, node = d.rows[mine], d.w[mine], d.node[mine]
        j = best.feature[node]
        b = self.B[rows, j]
        at_cut = self.is_thr[j]
        if at_cut.any():
            x = self.X[rows[at_cut], j[at_cut]]
            b[at_cut] = np.where(np.isnan(x), -1, x > best.cut[node[at_cut]])
        return rows, w, node, b

    def children(
        self, d: _Depth, best: _Best, split: np.ndarray, first: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(child, row, weight) of every row reaching a child, sorted by child then row.

        ``first``: each split node's first child's place among the depth's children. A row
        with a known branch keeps its weight; one with an unknown value goes down every branch v
        with ``w · K_v / K`` (uniform shares when nothing is known), as ``routing.distribute``."""
        rows, w, node, b = self.branches(d, best, split)
        V = np.where(split, self.V[np.maximum(best.feature, 0)], 0)
        known = b >= 0
        child = first[node] + b
        parts = [(child[known], rows[known], w[known])]
        if not known.all():
            n_children = int(V.sum())
            bw = np.bincount(child[known], weights=w[known], minlength=n_children)
            share = np.zeros(n_children)
            for n_b in np.unique(V[split]).tolist():  # K per node, over its own branches in order
                nodes = np.flatnonzero(split & (n_b == V))
                at = first[nodes][:, None] + np.arange(n_b)
                K = bw[at].sum(axis=1)
                safe = np.where(K > SMALL, K, 1.0)
                share[at] = np.where((K > SMALL)[:, None], bw[at] / safe[:, None], 1.0 / max(n_b, 1))
            u = np.flatnonzero(~known)
            reps = V[node[u]]
            uu = np.repeat(u, reps)
            branch = np.arange(uu.size) - np.repeat(np.cumsum(reps) - reps, reps)
            ch = first[node[uu]] + branch
            cu = w[uu] * share[ch]
            has = cu > 0
            parts.append((ch[has], rows[uu[has]], cu[has]))
        child, rows, w = (np.concatenate(a) for a in zip(*parts))
        order = np.argsort(child * self.X.shape[0] + rows, kind="stable")
        return child[order], rows[order], w[order]

    # -- growth ---------------------------------------------------------------------------------
    def root(self, w: np.ndarray) -> _Depth:
        """The root and its rows (those of positive weight), recorded as node 0."""
        rows = np.flatnonzero(w > 0)
        wl = w[rows]
        self.N_total = float(wl.sum())
        counts = np.bincount(self.y[rows], weights=wl, minlength=self.C)[None, :]
        n_rows = np.array([rows.size])
        self.made = [
            (np.array([-1]), np.zeros(1, np.int64), counts, counts.sum(axis=1), n_rows, entropy(counts))
        ]
        self.tests = []
        self.next_id = 1
        used = np.zeros((1, self.X.shape[1]), dtype=bool)
        return _Depth(np.array([0]), 0, counts, n_rows, used, rows, wl, np.zeros(rows.size, dtype=np.int64))

    def decide(self, d: _Depth) -> tuple[_Best, np.ndarray]:
        """Each node's test (feature −1: it stays a leaf) and its N_t/N · gain."""
        lim = self.limits
        cand = np.flatnonzero(
            leaf_reasons(d.counts, d.n_rows, d.depth, lim.min_samples_split, lim.max_depth) == 0
        )
        N = d.counts.sum(axis=1)
        best = _Best.empty(d.ids.size)
        if cand.size:
            found = self.best_tests(d, cand, N)
            best.feature[cand], best.gain[cand], best.cut[cand] = found.feature, found.gain, found.cut
        weighted = weighted_gain(N, self.N_total, best.gain)
        best.feature[~decrease_ok(weighted, lim.min_impurity_decrease)] = -1
        return best, weighted

    def split(self, d: _Depth, best: _Best) -> _Depth:
        """Make the nodes with a test (``best.feature`` ≥ 0) tests, record their children (an
        empty branch is a leaf with its parent's counts and weight 0) and return those that hold
        rows, with their rows."""
        C = self.C
        split = best.feature >= 0
        V = np.where(split, self.V[np.maximum(best.feature, 0)], 0)
        first = np.cumsum(V) - V
        s = np.flatnonzero(split)
        self.tests.append((d.ids[s], best.feature[s], self.next_id + first[s], best.cut[s]))
        child, rows, cw = self.children(d, best, split, first)
        n_ch = int(V.sum())
        parent = np.repeat(np.arange(d.ids.size), V)  # each child's parent's place in ``d``
        reach = np.bincount(child, minlength=n_ch) > 0
        cc = np.bincount(child * C + self.y[rows], weights=cw, minlength=n_ch * C).reshape(n_ch, C)
        n_rows = np.bincount(child[cw > 0], minlength=n_ch)
        self.made.append(
            (
                d.ids[parent],
                np.full(n_ch, d.depth + 1, np.int64),
                np.where(reach[:, None], cc, d.counts[parent]),
                np.where(reach, cc.sum(axis=1), 0.0),
                n_rows,
                np.where(reach, entropy(cc), 0.0),
            )
        )
        used = d.used[parent]
        tested = best.feature[parent]
        multi = np.flatnonzero(~self.is_thr[tested])  # a binary cut leaves its feature usable
        used[multi, tested[multi]] = True
        place = np.cumsum(reach) - 1
        ids = self.next_id + np.flatnonzero(reach)
        self.next_id += n_ch
        return _Depth(ids, d.depth + 1, cc[reach], n_rows[reach], used[reach], rows, cw, place[child])

    def grow_depth_first(self, w: np.ndarray) -> tuple[Tree, np.ndarray]:
        """Every node split where a rule allows, a depth at a time; (tree, split order)."""
        d = self.root(w)
        settled = 0.0  # weight of the rows that have reached a leaf
        while d.ids.size:
            report("grow", min(settled, self.N_total), self.N_total, self.next_id, d.depth)
            best, _ = self.decide(d)
            settled += float(d.w[best.feature[d.node] < 0].sum())
            if (best.feature < 0).all():
                break
            d = self.split(d, best)
        tree, pre = self._tree()
        return tree, np.sort(pre[self._split_ids()])  # depth first: the splits in pre-order

    def grow_best_first(self, w: np.ndarray, max_leaf_nodes: int) -> tuple[Tree, np.ndarray]:
        """The largest N_t/N · gain split first, up to ``max_leaf_nodes`` leaves (a multiway test
        adds its branch count − 1 leaves, empty branches included, and is skipped when that would
        exceed the limit); (tree, split order)."""
        heap: list[tuple[float, int, _Depth, _Best]] = []
        tick, leaves = 0, 1

        def push(d: _Depth) -> None:
            nonlocal tick
            best, weighted = self.decide(d)
            if best.feature[0] >= 0:
                tick += 1
                heapq.heappush(heap, (-float(weighted[0]), tick, d, best))

        push(self.root(w))
        while heap:
            report("grow", leaves - 1, max_leaf_nodes - 1, self.next_id)
            _, _, d, best = heapq.heappop(heap)
            n_new = int(self.V[best.feature[0]])
            if leaves - 1 + n_new > max_leaf_nodes:
                continue
            leaves += n_new - 1
            kids = self.split(d, best)
            for i in range(kids.ids.size):
                push(kids.one(i))
        tree, pre = self._tree()
        return tree, pre[self._split_ids()]  # in the order made

    def _split_ids(self) -> np.ndarray:
        return np.concatenate([t[0] for t in self.tests]) if self.tests else np.zeros(0, np.int64)

    def _tree(self) -> tuple[Tree, np.ndarray]:
        """The nodes made as the pre-order Tree, and each one's pre-order id."""
        made, tests, n = self.made, self.tests, self.next_id
        parent = np.concatenate([m[0] for m in made])
        feature = np.full(n, -1, np.int64)
        first_child = np.full(n, -1, np.int64)
        cut = np.full(n, np.nan)
        if tests:
            ids, feats, firsts, cuts = (np.concatenate(a) for a in zip(*tests))
            feature[ids], first_child[ids], cut[ids] = feats, firsts, cuts
        is_test = feature >= 0
        kinds = [self.plan[j][0] for j in range(self.X.shape[1])]
        kind_code = np.array([("cat", "bins", "thr").index(k) for k in kinds] or [0])
        code = np.where(is_test, kind_code[np.maximum(feature, 0)], -1)
        V = np.where(is_test, self.V[np.maximum(feature, 0)], 0)
        cut_len = np.where(code == 1, V - 1, np.where(code == 2, 1, 0))
        cut_parts = [
            self.plan[j][1] if c == 1 else np.array([t])
            for j, c, t in zip(feature[code > 0].tolist(), code[code > 0].tolist(), cut[code > 0].tolist())
        ]
        nodes = CreatedNodes(
            parent=parent,
            depth=np.concatenate([m[1] for m in made]).astype(np.int64),
            value=np.concatenate([m[2] for m in made]),
            weighted_n=np.concatenate([m[3] for m in made]),
            n_samples=np.concatenate([m[4] for m in made]),
            impurity=np.concatenate([m[5] for m in made]),
            feature=feature,
            first_child=first_child,
            n_children=V,
            cut_len=cut_len,
            cuts=np.concatenate([np.zeros(0), *cut_parts]),
            cat_size=np.where(code == 0, V, 0),
        )
        return preorder_tree(nodes, self.C)


def grow(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    plan: Plan,
    n_classes: int,
    limits: Limits,
    max_leaf_nodes: int | None = None,
) -> tuple[Tree, np.ndarray]:
    """ID3's tree and its split order: a depth at a time, or best first under ``max_leaf_nodes``."""
    grower = _Grower(X, y, plan, n_classes, limits)
    if max_leaf_nodes is None:
        return grower.grow_depth_first(w)
    return grower.grow_best_first(w, max_leaf_nodes)
