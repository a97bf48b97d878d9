"""CART's categorical subset splits: O(L log L) time and O(L·d) memory per node for L categories.

A node's rows are summarised per (node, category) pair that occurs (``CategoryStats``): only
the P ≤ min(rows, nodes × (L+1)) pairs present are kept, never a nodes × L table.  The missing
value is one more pseudo-category (code L), so the search picks the subset and the side of the
missing values together (the "learned direction").

Candidate left subsets of a node whose present categories (missing included) number p:

* 2 classes and regression - Breiman's ordering: sort the node's present categories by their
  class-1 proportion (the last class) / mean target, ties by category code; the candidates are
  the p−1 prefixes of that order, their channel sums running sums along it.  This is exactly
  optimal for gini, entropy, squared_error and friedman_mse (Breiman et al. 1984, Thm 4.5); for
  poisson the mean ordering is used without a proof of exactness (absolute_error does not take
  categorical features).  O(p log p) time, O(p·d) memory.
* more than 2 classes, at most ``EXACT_SUBSET_LIMIT`` categories counting the missing
  pseudo-category: every one of the 2^(C−1)−1 subsets is scored (exact; ≤ 511 candidates).
* more than 2 classes, more categories - a bounded heuristic: for each class k the present
  categories are ordered by their class-k proportion and the p−1 prefixes scanned, K·(p−1)
  candidates in all (O(K·p log p) time, O(K·p) memory); the best over every k and prefix wins.
  It can miss the optimal subset (finding it is exponential in general).

Scan order (the first maximum of the proxy wins, as everywhere in the builder): orderings by
class, then prefix length; exact enumeration in ``_subset_masks`` order.  Running sums restart
at every node and add the node's categories one by one in the scan order
(``segmented_cumsum``), so a node's sums never depend on the other nodes of its level.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from dtcore.criteria import CLASSIFICATION_CRITERIA, proxy_improvement

EXACT_SUBSET_LIMIT = 10  # 511 subsets: memory n_nodes × 511 × channels per level


@dataclass
class CategoryStats:
    """Channel sums and row counts of every (segment, category) pair present, sorted by segment
    then category code (code ``n_cat`` = missing)."""

    seg: np.ndarray  # (P,) segment of the pair
    cat: np.ndarray  # (P,) category code, n_cat = missing
    stats: np.ndarray  # (P, d) channel sums
    counts: np.ndarray  # (P,) rows
    n_seg: int
    n_cat: int

    def dense(self) -> tuple[np.ndarray, np.ndarray]:
        """(n_seg, n_cat+1, d) sums and (n_seg, n_cat+1) counts (only for few categories)."""
        C = self.n_cat + 1
        stats = np.zeros((self.n_seg, C, self.stats.shape[1]))
        counts = np.zeros((self.n_seg, C), np.int64)
        stats[self.seg, self.cat] = self.stats
        counts[self.seg, self.cat] = self.counts
        return stats, counts

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """(n_seg, d) channel sums (added in category order) and (n_seg,) rows per segment."""
        d = self.stats.shape[1]
        tot = np.zeros((self.n_seg, d))
        for j in range(d):  # a loop over channels
            tot[:, j] = np.bincount(self.seg, weights=self.stats[:, j], minlength=self.n_seg)
        n = np.bincount(self.seg, weights=self.counts.astype(np.float64), minlength=self.n_seg)
        return tot, n.astype(np.int64)


def category_stats(
    codes: np.ndarray, G: np.ndarray, seg_id: np.ndarray, n_seg: int, n_cat: int
) -> CategoryStats:
    """Channel sums (G: (m, d) per row) and row counts of the (segment, category) pairs present;
    a NaN code is the missing pseudo-category ``n_cat``.  Each sum adds its rows in row order."""
    c = np.where(np.isnan(codes), n_cat, np.nan_to_num(codes, nan=0.0)).astype(np.int64)
    key = np.asarray(seg_id, dtype=np.int64) * (n_cat + 1) + c
    size = n_seg * (n_cat + 1)
    d = G.shape[1]
    if size <= 4 * key.size + 1024:  # small table: count densely, keep the present pairs
        dense = np.bincount(key, minlength=size)
        pk = np.flatnonzero(dense)
        counts = dense[pk]
        stats = np.stack([np.bincount(key, weights=G[:, j], minlength=size)[pk] for j in range(d)], axis=-1)
    else:  # many categories: number the present pairs (O(m log m), nothing of size n_seg × L)
        pk, inv = np.unique(key, return_inverse=True)
        counts = np.bincount(inv, minlength=pk.size)
        stats = np.stack([np.bincount(inv, weights=G[:, j], minlength=pk.size) for j in range(d)], axis=-1)
    stats = stats.reshape(pk.size, d)
    return CategoryStats(pk // (n_cat + 1), pk % (n_cat + 1), stats, counts.astype(np.int64), n_seg, n_cat)


def segmented_cumsum(v: np.ndarray, first: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Running sums of ``v`` (P, ...) restarting at every segment [first, first+length): each a
    sequential sum inside its segment only.  Segments are padded to a power-of-two width class
    by class (≤ 2× the data, one vectorised pass per class: a loop over ~log2(P) classes)."""
    out = np.empty(v.shape, dtype=v.dtype)
    if v.shape[0] == 0:
        return out
    width_class = np.frexp(np.maximum(length, 1).astype(np.float64))[1]  # ceil-ish log2
    for b in np.unique(width_class[length > 0]):
        segs = np.flatnonzero((width_class == b) & (length > 0))
        width = int(length[segs].max())
        col = np.arange(width)
        valid = col[None, :] < length[segs, None]
        pos = (first[segs, None] + col[None, :])[valid]
        block = np.zeros((segs.size, width) + v.shape[1:], dtype=v.dtype)
        block[valid] = v[pos]
        np.cumsum(block, axis=1, out=block)
        out[pos] = block[valid]
    return out


def _subset_masks(n: int) -> np.ndarray:
    """All 2^(n-1)-1 non-empty left subsets of n items, item n-1 always right (complements
    score the same)."""
    if n < 2:
        return np.zeros((0, n), dtype=bool)
    rows = np.array(list(product((False, True), repeat=n - 1))[1:], dtype=bool)[:, ::-1]
    return np.hstack([rows, np.zeros((rows.shape[0], 1), dtype=bool)])


def split_proxies(
    criterion: str,
    left: np.ndarray,
    right: np.ndarray,
    n_left: np.ndarray,
    n_right: np.ndarray,
    min_samples_leaf: int,
    min_weight_leaf: float,
) -> np.ndarray:
    """Proxy improvement of candidate children, -inf where a child is too small or the proxy
    is not finite."""
    ok = (n_left >= min_samples_leaf) & (n_right >= min_samples_leaf)
    if min_weight_leaf > 0:
        ok &= (left[..., 0] >= min_weight_leaf) & (right[..., 0] >= min_weight_leaf)
    with np.errstate(divide="ignore", invalid="ignore"):
        proxy = proxy_improvement(criterion, left, right)
    return np.where(ok & np.isfinite(proxy), proxy, -np.inf)


@dataclass
class CategoricalScan:
    """Scored candidates of every segment, block by block (one block per ordering, or one for
    exact enumeration).  In block r candidate i is a cut of segment ``seg[r][i]``: ordered
    blocks - the prefix up to sorted position ``sub[r][i]`` of ``order[r]``; the exact block -
    subset ``sub[r][i]`` of ``masks``."""

    cs: CategoryStats
    seg: list[np.ndarray]
    sub: list[np.ndarray]
    proxy: list[np.ndarray]
    n_left: list[np.ndarray]
    left: list[np.ndarray]  # (k, d) each
    right: list[np.ndarray]
    order: list[np.ndarray]  # per ordered block: pair indices in scan order
    masks: np.ndarray | None  # exact enumeration: (S, C) left subsets

    def pair_left(self, r: int, i: np.ndarray) -> np.ndarray:
        """For candidates i of block r (one per segment at most): (P,) True where a pair is on
        the left side of its segment's candidate (False for segments without one)."""
        cs = self.cs
        pick = np.full(cs.n_seg, -1, np.int64)
        pick[self.seg[r][i]] = i
        k = pick[cs.seg]
        has = k >= 0
        out = np.zeros(cs.seg.size, bool)
        if self.masks is not None:
            out[has] = self.masks[self.sub[r][k[has]], cs.cat[has]]
            return out
        rank = np.empty(cs.seg.size, np.int64)
        rank[self.order[r]] = np.arange(cs.seg.size)
        out[has] = rank[has] <= self.sub[r][k[has]]
        return out

    def left_masks(self, r: int, i: np.ndarray) -> np.ndarray:
        """(len(i), n_cat+1) left-subset masks of candidates i of block r (one segment)."""
        if self.masks is not None:
            return self.masks[self.sub[r][i]]
        C = self.cs.n_cat + 1
        out = np.zeros((i.size, C), bool)
        if i.size == 0:
            return out
        cats = self.cs.cat[self.order[r]]  # one segment: sorted positions are pair ranks
        first = np.searchsorted(self.cs.seg[self.order[r]], self.seg[r][i])
        upto = self.sub[r][i]
        col = np.arange(cats.size)
        member = (col[None, :] >= first[:, None]) & (col[None, :] <= upto[:, None])
        rows, cols = np.nonzero(member)
        out[rows, cats[cols]] = True
        return out


def _ordering_keys(cs: CategoryStats, criterion: str) -> list[np.ndarray] | None:
    """The sort keys of the ordered scans (None: enumerate every subset)."""
    d = cs.stats.shape[1]
    w = cs.stats[:, 0]
    safe = np.where(w > 0, w, 1.0)
    if criterion not in CLASSIFICATION_CRITERIA:
        return [cs.stats[:, 1] / safe]
    K = d - 1
    if K <= 2:
        return [cs.stats[:, d - 1] / safe]
    if cs.n_cat + 1 <= EXACT_SUBSET_LIMIT:
        return None
    return [cs.stats[:, 1 + k] / safe for k in range(K)]


def scan_categorical(
    cs: CategoryStats, criterion: str, min_samples_leaf: int = 1, min_weight_leaf: float = 0.0
) -> CategoricalScan:
    """Score every candidate subset of every segment (see the module docstring)."""
    keys = _ordering_keys(cs, criterion)
    tot, ntot = cs.totals()
    if keys is None:  # few categories, > 2 classes: every subset, on the dense (n_seg, C) table
        stats, counts = cs.dense()
        masks = _subset_masks(cs.n_cat + 1)
        mf = masks.astype(np.float64)
        left = np.einsum("sc,ncd->nsd", mf, stats)
        right = stats.sum(axis=1)[:, None, :] - left
        n_left = np.einsum("sc,nc->ns", mf, counts.astype(np.float64))
        n_right = counts.sum(axis=1)[:, None] - n_left
        proxy = split_proxies(criterion, left, right, n_left, n_right, min_samples_leaf, min_weight_leaf)
        S, d = masks.shape[0], stats.shape[2]
        seg = np.repeat(np.arange(cs.n_seg), S)
        sub = np.tile(np.arange(S), cs.n_seg)
        return CategoricalScan(
            cs,
            [seg],
            [sub],
            [proxy.ravel()],
            [n_left.ravel()],
            [left.reshape(-1, d)],
            [right.reshape(-1, d)],
            [],
            masks,
        )
    first = np.searchsorted(cs.seg, np.arange(cs.n_seg))
    length = np.bincount(cs.seg, minlength=cs.n_seg)
    is_last = np.ones(cs.seg.size, bool)
    is_last[:-1] = cs.seg[1:] != cs.seg[:-1]
    idx = np.flatnonzero(~is_last)  # a cut after every sorted position but a segment's last
    seg = cs.seg[idx]
    out = CategoricalScan(cs, [], [], [], [], [], [], [], None)
    for key in keys:  # a loop over orderings (one, or one per class)
        order = np.lexsort((key, cs.seg))  # stable: ties keep category order
        left = segmented_cumsum(cs.stats[order], first, length)[idx]
        n_left = segmented_cumsum(cs.counts[order], first, length)[idx]
        right = tot[seg] - left
        proxy = split_proxies(
            criterion, left, right, n_left, ntot[seg] - n_left, min_samples_leaf, min_weight_leaf
        )
        for lst, a in zip(
            (out.seg, out.sub, out.proxy, out.n_left, out.left, out.right, out.order),
            (seg, idx, proxy, n_left.astype(np.float64), left, right, order),
            strict=True,
        ):
            lst.append(a)
    return out


def best_categorical(sc: CategoricalScan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per segment: best proxy (-inf: none), its left row count, and per pair whether it lies
    on the left of its segment's best subset.  First maximum in scan order (earlier blocks win
    ties)."""
    n_seg = sc.cs.n_seg
    best = np.full(n_seg, -np.inf)
    n_left = np.zeros(n_seg)
    pair_left = np.zeros(sc.cs.seg.size, bool)
    for r in range(len(sc.proxy)):
        b, w = best_per_segment(sc.seg[r], sc.proxy[r], n_seg)
        better = np.flatnonzero(b > best)
        if better.size == 0:
            continue
        best[better] = b[better]
        k = w[better]
        n_left[better] = sc.n_left[r][k]
        won = np.zeros(n_seg, bool)
        won[better] = True
        pl = sc.pair_left(r, k)
        sel = won[sc.cs.seg]
        pair_left[sel] = pl[sel]
    return best, n_left, pair_left


def best_per_segment(seg: np.ndarray, proxy: np.ndarray, n_seg: int) -> tuple[np.ndarray, np.ndarray]:
    """(best proxy per segment (-inf: none), candidate index of the first maximum or -1).

    Candidates must be grouped by segment (one contiguous group each); inside a segment the
    first maximum in array order wins, as with scikit-learn's strict ``>``.
    """
    best = np.full(n_seg, -np.inf)
    where = np.full(n_seg, -1, dtype=np.int64)
    if seg.size == 0:
        return best, where
    change = np.empty(seg.size, bool)
    change[0] = True
    np.not_equal(seg[1:], seg[:-1], out=change[1:])
    start = change.nonzero()[0]
    gseg = seg.take(start)  # one group per segment: a block is ordered by segment
    best[gseg] = np.maximum.reduceat(proxy, start)
    # the first candidate of each group that reaches its group's best (hits come in array order)
    hit = (proxy == best.take(seg)).nonzero()[0]
    if hit.size:  # (none only if a group's best is NaN)
        hseg = seg.take(hit)
        first = np.empty(hit.size, bool)
        first[0] = True
        np.not_equal(hseg[1:], hseg[:-1], out=first[1:])
        where[hseg[first]] = hit[first]
    return best, where


def categorical_branches(
    mask: np.ndarray, counts: np.ndarray, n_left: float, n_right: float
) -> tuple[np.ndarray, int]:
    """(cat_branch over real categories, missing_branch) from a left-subset mask over C = n_cat+1."""
    present = counts[:-1] > 0
    branch = np.where(present, np.where(mask[:-1], 0, 1), -1).astype(np.int32)
    if counts[-1] > 0:
        missing = 0 if mask[-1] else 1
    else:
        missing = 0 if n_left > n_right else 1
    return branch, missing
