"""CART split candidates and their scores, vectorised over positions *and* over the nodes of a level.

Rows are summarised by "stat channels" (see ``criteria``): column 0 the weight, then weighted
class counts (classification) or Σ w·y (regression).  A feature's rows, sorted by value inside
each node, lie in contiguous segments; one cumulative sum along the array then gives the left
child's channels at every position of every node at once.

Continuous features (scikit-learn ≥ 1.3, splitter="best"):
  * a cut lies between sorted neighbours x_i < x_{i+1} that differ by more than
    ``FEATURE_THRESHOLD`` = 1e-7; its threshold is x_i/2 + x_{i+1}/2, or x_i when that rounds
    to x_{i+1};
  * missing values (NaN, sorted last) are tried on the right for every cut (MISSING_RIGHT), then
    "all known values left, missing right" (MISSING_ALONE, threshold +inf, allowed even when the
    known values are constant), then on the left for every cut (MISSING_LEFT); the first best
    wins, as in scikit-learn 1.9;
  * the threshold x_i/2 + x_{i+1}/2 is computed in float64; scikit-learn's data are float32, so
    its midpoint never rounds up to x_{i+1}; ours can, and then x_i is used (older
    scikit-learn's rule), keeping "x ≤ t" consistent with the sorted cut;
  * without missing values at the node, missing values at prediction go to the child with more
    training rows (row count, ties to the right) - scikit-learn's ``missing_go_to_left = n_left > n_right``.

Categorical features (CART subset splits; scikit-learn has none, so this is our rule): see
``catsplit`` - Breiman's ordering for two classes and regression (exact), every subset for
more classes and at most ``EXACT_SUBSET_LIMIT`` categories, per-class orderings above that (a
bounded heuristic); O(L log L) time and O(L) memory per node for L categories.  The explorer
(``categorical_candidates``) lists at most ``LISTED_LIMIT`` subsets and as many one-vs-rest tests.

absolute_error (continuous features, no missing values, like scikit-learn): the weighted median
and absolute error of every prefix and suffix of every node come from a weighted wavelet matrix
over the ranks of y (``prefix_suffix_abs_errors``), one vectorised step per bit of n.

The same kernels serve the builder (best per node) and the split explorer (all candidates of one
feature at one node: ``continuous_candidates`` / ``categorical_candidates``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dtcore.cart.categorical import EXACT_SUBSET_LIMIT as EXACT_SUBSET_LIMIT
from dtcore.cart.categorical import (
    CategoricalScan,
    _score,
    best_per_segment,
    category_stats,
    scan_categorical,
)
from dtcore.cart.categorical import categorical_branches as categorical_branches
from dtcore.criteria import (
    CLASSIFICATION_CRITERIA,
    EPSILON,
    channel_impurity,
    friedman_score,
    impurity_improvement,
    proxy_improvement,
)

FEATURE_THRESHOLD = 1e-7
LISTED_LIMIT = 512  # the explorer's subsets (and one-vs-rest tests) per categorical feature

MISSING_RIGHT, MISSING_ALONE, MISSING_LEFT = 0, 1, 2  # scikit-learn's evaluation order


@dataclass
class Candidates:
    """Valid cuts of one continuous feature for many node segments (one entry per candidate)."""

    index: np.ndarray  # position i in the sorted array: cut between i and i+1 (variant 2: last known)
    segment: np.ndarray  # which node segment
    variant: np.ndarray  # MISSING_RIGHT / MISSING_LEFT / MISSING_ALONE
    n_left: np.ndarray
    n_right: np.ndarray
    left: np.ndarray  # (k, d) channels of the left child
    right: np.ndarray  # (k, d)
    proxy: np.ndarray  # scikit-learn's proxy improvement (larger is better)
    seg_missing: np.ndarray  # rows with a missing value, per segment


def segment_ids(seg_start: np.ndarray, seg_len: np.ndarray) -> np.ndarray:
    """Segment number of every element of a segmented array."""
    return np.repeat(np.arange(seg_len.size, dtype=np.int64), seg_len)


def _block(
    idx: np.ndarray,
    seg: np.ndarray,
    variant: int,
    n_left: np.ndarray,
    n_right: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
) -> list[np.ndarray]:
    return [idx, seg, np.full(idx.size, variant, np.int8), n_left, n_right, left, right]


def scan_sorted(
    xs: np.ndarray,
    G: np.ndarray | None,
    seg_start: np.ndarray,
    seg_len: np.ndarray,
    criterion: str,
    seg_id: np.ndarray | None = None,
    min_samples_leaf: int = 1,
    min_weight_leaf: float = 0.0,
    has_missing: bool | None = None,
    cumulative: np.ndarray | None = None,
) -> Candidates:
    """Every valid cut of one feature in every segment.

    ``xs``: feature values sorted inside each segment, NaN last; ``G``: (d, m) channels of the
    same rows in the same order (channel-first: each cumulative sum runs over contiguous memory).
    ``cumulative``: the running sums of ``G`` along the array when the caller has them already
    (G is then not read; integer sums are fine: unit-weight class counts are exact either way).
    Candidates come in variant blocks, each ordered by segment then position:
    MISSING_RIGHT, MISSING_ALONE, MISSING_LEFT - the order in which scikit-learn meets them.
    """
    if cumulative is None:
        assert G is not None, "scan_sorted needs G or cumulative"
        C = np.cumsum(G, axis=1)
    else:
        C = cumulative
    d, m = C.shape
    if seg_id is None:
        seg_id = segment_ids(seg_start, seg_len)
    seg_end = seg_start + seg_len
    base = np.zeros((d, seg_start.size))
    nz = seg_start > 0
    base[:, nz] = C[:, seg_start[nz] - 1]
    tot = C[:, seg_end - 1] - base

    if has_missing is None:
        has_missing = bool(np.isnan(xs).any())
    if has_missing:
        cnan = np.cumsum(np.isnan(xs))
        n_miss = cnan[seg_end - 1] - np.where(nz, cnan[np.maximum(seg_start - 1, 0)], 0)
    else:
        n_miss = np.zeros(seg_start.size, dtype=np.int64)
    n_known = seg_len - n_miss

    ok = np.empty(m, dtype=bool)
    np.greater(xs[1:], xs[:-1] + FEATURE_THRESHOLD, out=ok[:-1])  # NaN compares False
    ok[-1] = False
    last_known = seg_start + n_known - 1
    ok[last_known[n_known > 0]] = False

    idx: np.ndarray = np.flatnonzero(ok)
    seg = seg_id[idx]
    n_left = idx - seg_start[seg] + 1
    left: np.ndarray = np.take(C, idx, axis=1).astype(np.float64, copy=False)
    left -= np.take(base, seg, axis=1)
    blocks = [
        _block(idx, seg, MISSING_RIGHT, n_left, seg_len[seg] - n_left, left, np.take(tot, seg, axis=1) - left)
    ]
    if has_missing and n_miss.any():
        kn = np.zeros((d, seg_start.size))
        has_known = n_known > 0
        kn[:, has_known] = C[:, last_known[has_known]] - base[:, has_known]
        miss = tot - kn
        # all known values left, missing right (scikit-learn evaluates it at the end of the
        # missing-right pass, even when the known values are constant)
        s3 = np.flatnonzero((n_miss > 0) & (n_known > 0))
        blocks.append(
            _block(last_known[s3], s3, MISSING_ALONE, n_known[s3], n_miss[s3], kn[:, s3], miss[:, s3])
        )
        sel = n_miss[seg] > 0
        i2, s2 = idx[sel], seg[sel]
        l2 = left[:, sel] + miss[:, s2]
        blocks.append(
            _block(
                i2, s2, MISSING_LEFT, n_left[sel] + n_miss[s2], n_known[s2] - n_left[sel], l2, tot[:, s2] - l2
            )
        )
    cols: list[np.ndarray]
    if len(blocks) > 1:
        cols = [np.concatenate([b[k] for b in blocks], axis=-1) for k in range(7)]
    else:
        cols = blocks[0]
    idx, seg, variant, n_left, n_right, left, right = cols
    left, right = left.T, right.T  # (k, d) views: channel j is a contiguous row of the base
    # every side of a cut holds ≥ 1 row by construction: with min_samples_leaf ≤ 1 and no
    # weight floor there is nothing to filter (saves passes over all candidates)
    if min_samples_leaf > 1 or min_weight_leaf > 0:
        keep = (n_left >= min_samples_leaf) & (n_right >= min_samples_leaf)
        if min_weight_leaf > 0:
            keep &= (left[:, 0] >= min_weight_leaf) & (right[:, 0] >= min_weight_leaf)
    else:
        keep = None
    if keep is not None and not keep.all():
        idx, seg, variant, n_left, n_right, left, right = (
            a[keep] for a in (idx, seg, variant, n_left, n_right, left, right)
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "absolute_error":
            if has_missing and n_miss.any():
                raise ValueError(
                    "criterion='absolute_error' does not support missing values "
                    "(as in scikit-learn): impute them or use 'squared_error'"
                )
            # channel 1 holds y itself here; the absolute errors come from ranks, not sums
            assert G is not None  # absolute_error callers pass G, never cumulative
            ae_pre, ae_suf = prefix_suffix_abs_errors(G[1], G[0], seg_start, seg_len, seg_id)
            wl, wr = left[:, 0], right[:, 0]
            proxy = -wr * (ae_suf[idx + 1] / wr) - wl * (ae_pre[idx] / wl)
        else:
            proxy = proxy_improvement(criterion, left, right)
    # class impurities are finite by construction; regression proxies can be -inf/NaN
    fin = None if criterion in CLASSIFICATION_CRITERIA else np.isfinite(proxy)
    if fin is not None and not fin.all():
        idx, seg, variant, n_left, n_right, left, right, proxy = (
            a[fin] for a in (idx, seg, variant, n_left, n_right, left, right, proxy)
        )
    return Candidates(idx, seg, variant, n_left, n_right, left, right, proxy, n_miss)


def best_per_segment_blocks(c: Candidates, n_seg: int) -> tuple[np.ndarray, np.ndarray]:
    """Best candidate per segment over the variant blocks, earlier variants winning ties."""
    if c.proxy.size == 0 or c.variant[-1] == MISSING_RIGHT:  # blocks come in order: one block
        return best_per_segment(c.segment, c.proxy, n_seg)
    best = np.full(n_seg, -np.inf)
    where = np.full(n_seg, -1, dtype=np.int64)
    for v in (MISSING_RIGHT, MISSING_ALONE, MISSING_LEFT):
        sel = np.flatnonzero(c.variant == v)
        if sel.size == 0:
            continue
        b, w = best_per_segment(c.segment[sel], c.proxy[sel], n_seg)
        better = b > best
        best[better] = b[better]
        where[better] = sel[w[better]]
    return best, where


def thresholds(xs: np.ndarray, index: np.ndarray, variant: np.ndarray) -> np.ndarray:
    """scikit-learn's threshold: x_i/2 + x_{i+1}/2, x_i if that rounds up to x_{i+1}; +inf for
    the "missing alone" split."""
    out = np.full(index.size, np.inf)
    cut = variant != MISSING_ALONE
    out[cut] = midpoints(xs[index[cut]], xs[index[cut] + 1])
    return out


def midpoints(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The threshold between neighbours a < b: a/2 + b/2, or a when that rounds up to b (the
    one home of this rule: the exact scan and the histogram splitter's exact bins use it)."""
    a = np.asarray(a, dtype=np.float64)
    t = a / 2.0 + np.asarray(b, dtype=np.float64) / 2.0
    bad = (t == b) | ~np.isfinite(t)
    return np.where(bad, a, t)


def missing_goes_left(c: Candidates, k: np.ndarray) -> np.ndarray:
    """Learned direction; without missing values at the node, the side with more rows."""
    v = c.variant[k]
    none_missing = c.seg_missing[c.segment[k]] == 0
    return np.where(none_missing, c.n_left[k] > c.n_right[k], v == MISSING_LEFT)


# ---------------------------------------------------------------------------------------------
# absolute error: weighted medians of every prefix and suffix, vectorised


class _WaveletMatrix:
    """Weighted wavelet matrix over integer ranks: k-th-weight queries on many ranges at once,
    one vectorised step per bit (a loop over ~log2(n) bits, never over rows)."""

    def __init__(self, ranks: np.ndarray, w: np.ndarray, y: np.ndarray) -> None:
        m = ranks.size
        self.bits = max(1, int(m - 1).bit_length())
        self.c0: list[np.ndarray] = []  # per bit: zeros up to each position
        self.z: list[np.ndarray] = []  # per bit: weight of the zeros up to each position
        self.zy: list[np.ndarray] = []  # per bit: Σw·y of the zeros up to each position
        self.nz: list[int] = []  # per bit: number of zeros
        cur, cw, cy = ranks, w, w * y
        for b in range(self.bits - 1, -1, -1):
            zero = ((cur >> b) & 1) == 0
            self.c0.append(np.concatenate([[0], np.cumsum(zero)]))
            self.z.append(np.concatenate([[0.0], np.cumsum(np.where(zero, cw, 0.0))]))
            self.zy.append(np.concatenate([[0.0], np.cumsum(np.where(zero, cy, 0.0))]))
            self.nz.append(int(self.c0[-1][-1]))
            order = np.concatenate([np.flatnonzero(zero), np.flatnonzero(~zero)])
            cur, cw, cy = cur[order], cw[order], cy[order]

    def quantile(
        self, a: np.ndarray, b: np.ndarray, t: np.ndarray, strict: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank of the first element of [a, b) (in value order) whose cumulative weight reaches t
        (``strict``: exceeds t), with the weight and Σw·y of the elements of smaller rank."""
        a, b = a.copy(), b.copy()
        t = t.astype(np.float64).copy()
        val = np.zeros(a.size, np.int64)
        wl = np.zeros(a.size)
        wyl = np.zeros(a.size)
        for k, bit in enumerate(range(self.bits - 1, -1, -1)):
            c0, z, zy = self.c0[k], self.z[k], self.zy[k]
            zw = z[b] - z[a]
            right = (t >= zw) if strict else (t > zw)
            t = np.where(right, t - zw, t)
            wl += np.where(right, zw, 0.0)
            wyl += np.where(right, zy[b] - zy[a], 0.0)
            val |= right.astype(np.int64) << bit
            a0, b0 = c0[a], c0[b]
            a = np.where(right, self.nz[k] + a - a0, a0)
            b = np.where(right, self.nz[k] + b - b0, b0)
        return val, wl, wyl


def range_abs_errors(
    wm: _WaveletMatrix, ys: np.ndarray, a: np.ndarray, b: np.ndarray, w_tot: np.ndarray, wy_tot: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Σ w·|y − median| over ranges [a, b), with scikit-learn's weighted median (the midpoint
    when the cumulative weight hits exactly half)."""
    half = 0.5 * w_tot
    lo, _, _ = wm.quantile(a, b, half, strict=False)
    hi, wl, wyl = wm.quantile(a, b, half, strict=True)
    med = np.where(lo == hi, ys[hi], (ys[lo] + ys[np.minimum(hi, ys.size - 1)]) / 2)
    return (wy_tot - wyl - med * (w_tot - wl)) + (med * wl - wyl), med


def prefix_suffix_abs_errors(
    y: np.ndarray, w: np.ndarray, seg_start: np.ndarray, seg_len: np.ndarray, seg_id: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Absolute error of every prefix [start, i] and every suffix [i, end) of every segment."""
    m = y.size
    if seg_id is None:
        seg_id = segment_ids(seg_start, seg_len)
    order = np.argsort(y, kind="stable")
    ranks = np.empty(m, np.int64)
    ranks[order] = np.arange(m)
    ys = y[order]
    wm = _WaveletMatrix(ranks, w, y)
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cwy = np.concatenate([[0.0], np.cumsum(w * y)])
    pos = np.arange(m)
    start = seg_start[seg_id]
    end = start + seg_len[seg_id]
    a, b = start, pos + 1
    pre, _ = range_abs_errors(wm, ys, a, b, cw[b] - cw[a], cwy[b] - cwy[a])
    a, b = pos, end
    suf, _ = range_abs_errors(wm, ys, a, b, cw[b] - cw[a], cwy[b] - cwy[a])
    return pre, np.concatenate([suf, [0.0]])


# ---------------------------------------------------------------------------------------------
# one node, one feature: every candidate (the split explorer's view, same kernels as training)


def _channels(
    y: ArrayLike, w: ArrayLike | None, criterion: str, n_classes: int | None, with_squares: bool = True
) -> tuple[np.ndarray, float]:
    """Per-row channels; regression y is centred on the node's weighted mean (ranks unchanged)."""
    y = np.asarray(y)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=np.float64)
    if criterion in CLASSIFICATION_CRITERIA:
        assert n_classes is not None  # the callers fill it in for classification
        G = np.zeros((len(y), n_classes + 1))
        G[:, 0] = w
        G[np.arange(len(y)), 1 + y.astype(np.int64)] = w
        return G, 0.0
    y = y.astype(np.float64)
    if criterion == "absolute_error":
        return np.stack([w, y], axis=1), 0.0
    shift = 0.0 if criterion == "poisson" else float(np.sum(w * y) / np.sum(w))
    yc = y - shift
    cols = [w, w * yc] + ([w * yc * yc] if with_squares else [])
    return np.stack(cols, axis=1), shift


def continuous_candidates(
    x: ArrayLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    criterion: str = "gini",
    n_classes: int | None = None,
    min_samples_leaf: int = 1,
    min_weight_leaf: float = 0.0,
    w_total: float | None = None,
) -> dict:
    """Every valid threshold of one continuous feature at one node, with its scores.

    x: the node's values (NaN = missing); y: class codes (0..K-1) or targets; returns arrays
    ``threshold``, ``proxy`` (what the builder maximises), ``improvement`` (weighted impurity
    decrease, w_total = the root's weight, default this node's), ``impurity_left/right``,
    ``n_left/right``, ``weight_left/right``, ``missing_left`` and ``variant`` (friedman_mse adds
    ``friedman``, Friedman's score), in scikit-learn's scan order (the builder takes the first maximum of ``proxy``).
    """
    x = np.asarray(x, dtype=np.float64)
    if criterion in CLASSIFICATION_CRITERIA and n_classes is None:
        n_classes = int(np.max(y)) + 1
    G, _ = _channels(y, sample_weight, criterion, n_classes)
    order = np.argsort(x, kind="stable")
    xs, Gs = x[order], np.ascontiguousarray(G[order].T)
    start, length = np.array([0]), np.array([x.size])
    c = scan_sorted(
        xs, Gs, start, length, criterion, min_samples_leaf=min_samples_leaf, min_weight_leaf=min_weight_leaf
    )
    own = _own_impurities(c, Gs, criterion) if criterion in ("absolute_error", "poisson") else None
    return _describe(
        c.left,
        c.right,
        c.proxy,
        c.n_left,
        c.n_right,
        criterion,
        G,
        w_total,
        extra={
            "threshold": thresholds(xs, c.index, c.variant),
            "missing_left": missing_goes_left(c, np.arange(c.proxy.size)),
            "variant": c.variant,
        },
        own=own,
    )


def _own_impurities(c: Candidates, Gs: np.ndarray, criterion: str) -> tuple[np.ndarray, np.ndarray, float]:
    """(I_L, I_R, I_parent) of every candidate of one node for absolute_error (mean absolute
    deviation around the weighted median) and poisson (half deviance); Gs = (w, Σw·y…) sorted."""
    w, y = Gs[0], Gs[1] / np.where(Gs[0] == 0, 1.0, Gs[0]) if criterion == "poisson" else Gs[1]
    wl, wr = c.left[:, 0], c.right[:, 0]
    n = w.size
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "absolute_error":
            pre, suf = prefix_suffix_abs_errors(y, w, np.array([0]), np.array([n]))
            return pre[c.index] / wl, suf[c.index + 1] / wr, float(pre[n - 1] / w.sum())
        t = np.where(y > 0, w * y * np.log(np.where(y > 0, y, 1.0)), 0.0)
        cum = np.cumsum(t)
        tot = float(cum[-1])
        n_known = n - int(c.seg_missing[0])
        t_miss = tot - (float(cum[n_known - 1]) if n_known > 0 else 0.0)
        tl = cum[c.index] + np.where(c.variant == MISSING_LEFT, t_miss, 0.0)
        tr = tot - tl
        sl, sr = c.left[:, 1], c.right[:, 1]
        il = (tl - sl * np.log(sl / wl)) / wl
        ir = (tr - sr * np.log(sr / wr)) / wr
        s, wt = float(np.sum(Gs[1])), float(np.sum(w))
        ip = (tot - s * np.log(s / wt)) / wt if s > 0 else np.inf
    return il, ir, ip


def _canonical_partitions(masks: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Left-subset masks (S, C) as partitions of the present categories: restricted to them and
    flipped so that the first present category is on the left (a subset and its complement are
    one test)."""
    m = masks & present[None, :]
    first = int(np.argmax(present))
    return np.where(m[:, first : first + 1], m, present[None, :] & ~m)


def _keep_best(proxy: np.ndarray, limit: int) -> np.ndarray:
    """Indices of the ``limit`` largest proxies (earlier ones first among equals), in order."""
    if proxy.size <= limit:
        return np.arange(proxy.size)
    return np.sort(np.argsort(-proxy, kind="stable")[:limit])


def _fresh_one_vs_rest(sc: CategoricalScan, cats: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Which one-vs-rest tests ``a = v`` (v in ``cats``) are not already scanned candidates (the
    same partition of the node's present categories)."""
    if sc.masks is not None:  # few categories: compare the partitions themselves
        ok = np.isfinite(sc.proxy[0])
        known = _canonical_partitions(sc.masks[sc.sub[0][ok]], present)
        ovr = np.zeros((cats.size, present.size), bool)
        ovr[np.arange(cats.size), cats] = True
        new = _canonical_partitions(ovr, present)
        return ~(new[:, None, :] == known[None, :, :]).all(axis=2).any(axis=1)
    # ordered scans: a prefix is {v} | rest when it holds the first category alone or all but the last
    single = np.zeros(present.size, bool)
    for r, order in enumerate(sc.order):
        ok = np.isfinite(sc.proxy[r])
        if ok.size and ok[0]:
            single[sc.cs.cat[order[0]]] = True
        if ok.size and ok[-1]:
            single[sc.cs.cat[order[-1]]] = True
    return ~single[cats]


def categorical_candidates(
    codes: ArrayLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    n_categories: int,
    criterion: str = "gini",
    n_classes: int | None = None,
    min_samples_leaf: int = 1,
    min_weight_leaf: float = 0.0,
    w_total: float | None = None,
) -> dict:
    """Every candidate subset split of one categorical feature at one node, with ``left_mask``
    (n, n_categories+1; last column = missing) and scores.

    First the subsets the builder considers (``eligible`` True), then every one-vs-rest test
    ``a = v`` / ``a ≠ v`` that is not among them (``eligible`` False: the builder's subset search
    does not pick it, e.g. Breiman's ordering for two classes; it never beats the optimal
    subset there).  ``one_vs_rest`` is, per candidate, the category code v of a one-vs-rest
    test (−1: another subset) and ``split_impurity`` Σ_v |D^v|/|D|·I(D^v) (Gini(D, a) for gini).

    Many categories: each list holds at most ``LISTED_LIMIT`` candidates, those of the largest
    proxy (the builder's best always among them), still in scan order; below that (fewer than
    ~``LISTED_LIMIT`` / classes categories) every candidate is listed."""
    codes = np.asarray(codes, dtype=np.float64)
    if criterion in CLASSIFICATION_CRITERIA and n_classes is None:
        n_classes = int(np.max(y)) + 1
    G, _ = _channels(y, sample_weight, criterion, n_classes)
    cs = category_stats(codes, G, np.zeros(codes.size, np.int64), 1, n_categories)
    sc = scan_categorical(cs, criterion, min_samples_leaf, min_weight_leaf)
    counts = np.zeros(n_categories + 1, np.int64)
    counts[cs.cat] = cs.counts
    # the builder's candidates in scan order (finite proxies only), at most LISTED_LIMIT
    blk = np.concatenate([np.full(p.size, r) for r, p in enumerate(sc.proxy)] + [np.zeros(0, np.int64)])
    pos = np.concatenate([np.arange(p.size) for p in sc.proxy] + [np.zeros(0, np.int64)])
    proxy = np.concatenate(sc.proxy) if sc.proxy else np.zeros(0)
    ok = np.flatnonzero(np.isfinite(proxy))
    ok = ok[_keep_best(proxy[ok], LISTED_LIMIT)]
    blk, pos = blk[ok].astype(np.int64), pos[ok]
    C, d = n_categories + 1, cs.stats.shape[1]
    parts = [(r, pos[blk == r]) for r in range(len(sc.proxy))]
    masks = np.concatenate([sc.left_masks(r, i) for r, i in parts] + [np.zeros((0, C), bool)])
    proxy = proxy[ok]
    n_left = np.concatenate([sc.n_left[r][i] for r, i in parts] + [np.zeros(0)])
    left = np.concatenate([sc.left[r][i] for r, i in parts] + [np.zeros((0, d))])
    right = np.concatenate([sc.right[r][i] for r, i in parts] + [np.zeros((0, d))])
    n_scanned = proxy.size
    present = counts > 0
    cats = np.flatnonzero(present[:-1])
    if cats.size >= 2:
        cats = cats[_fresh_one_vs_rest(sc, cats, present)]
        tot, n_tot = cs.totals()
        xl = np.zeros((cats.size, d))
        xl[:] = cs.stats[np.searchsorted(cs.cat, cats)]
        xr = tot[0][None, :] - xl
        xn = counts[cats].astype(np.float64)
        xp = _score(criterion, xl, xr, xn, n_tot[0] - xn, min_samples_leaf, min_weight_leaf)
        xok = np.flatnonzero(np.isfinite(xp))
        xok = xok[_keep_best(xp[xok], LISTED_LIMIT)]
        extra_m = np.zeros((xok.size, C), bool)
        extra_m[np.arange(xok.size), cats[xok]] = True
        masks = np.concatenate([masks, extra_m])
        proxy = np.concatenate([proxy, xp[xok]])
        n_left = np.concatenate([n_left, xn[xok]])
        left = np.concatenate([left, xl[xok]])
        right = np.concatenate([right, xr[xok]])
    eligible = np.arange(proxy.size) < n_scanned
    # one-vs-rest: one present category on one side, every other present one on the other
    on_left = (masks[:, :-1] & present[None, :-1]).sum(axis=1)
    n_present = int(present[:-1].sum())
    miss_left = masks[:, -1] & present[-1]
    alone_left = (on_left == 1) & ~miss_left
    alone_right = (on_left == n_present - 1) & (miss_left | ~present[-1]) & (n_present >= 2)
    single = np.where(alone_left[:, None], masks[:, :-1], ~masks[:, :-1]) & present[None, :-1]
    ovr_code = np.where(alone_left | alone_right, np.argmax(single, axis=1), -1)
    own = None
    if criterion == "poisson":
        own = _poisson_subset_impurities(codes, y, sample_weight, masks, present)
    out = _describe(
        left,
        right,
        proxy,
        n_left.astype(np.int64),
        (counts.sum() - n_left).astype(np.int64),
        criterion,
        G,
        w_total,
        extra={"left_mask": masks, "eligible": eligible, "one_vs_rest": ovr_code.astype(np.int64)},
        own=own,
    )
    wl, wr = out["weight_left"], out["weight_right"]
    with np.errstate(divide="ignore", invalid="ignore"):
        out["split_impurity"] = (wl * out["impurity_left"] + wr * out["impurity_right"]) / (wl + wr)
    return out


def _poisson_subset_impurities(
    codes: np.ndarray, y: ArrayLike, sample_weight: ArrayLike | None, masks: np.ndarray, present: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """(I_L, I_R, I_parent) of subset candidates under poisson: the half deviance of a set of
    rows is (Σ w·y·ln y − Y·ln(Y/W)) / W with W = Σ w, Y = Σ w·y (the −y + ȳ terms cancel),
    so per-category sums of w, w·y and w·y·ln y give every subset's at once (inf when Y ≤ ε,
    as scikit-learn)."""
    yv = np.asarray(y, dtype=np.float64)
    w = np.ones_like(yv) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    C = masks.shape[1]
    cat = np.where(np.isnan(codes), C - 1, np.nan_to_num(codes)).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ylny = np.where(yv > 0, yv * np.log(np.where(yv > 0, yv, 1.0)), 0.0)
    sums = np.stack([np.bincount(cat, weights=v, minlength=C) for v in (w, w * yv, w * ylny)], axis=1)
    right_masks = ~masks & present[None, :]

    def impurity(part: np.ndarray) -> np.ndarray:
        W, Y, S = part[..., 0], part[..., 1], part[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            dev = (S - Y * np.log(np.where(Y > 0, Y, 1.0) / np.where(W > 0, W, 1.0))) / W
        return np.where(Y <= EPSILON, np.inf, dev)

    node = impurity(sums.sum(axis=0))
    return (
        impurity(masks.astype(np.float64) @ sums),
        impurity(right_masks.astype(np.float64) @ sums),
        float(node),
    )


def _describe(
    left: np.ndarray,
    right: np.ndarray,
    proxy: np.ndarray,
    n_left: np.ndarray,
    n_right: np.ndarray,
    criterion: str,
    G: np.ndarray,
    w_total: float | None,
    extra: dict[str, np.ndarray],
    own: tuple[np.ndarray, np.ndarray, float] | None = None,
) -> dict[str, np.ndarray | float]:
    """Impurities and improvements of candidate children from their channel sums."""
    tot = G.sum(axis=0)
    w_node = tot[0]
    imp: np.ndarray | float
    w_total = w_node if w_total is None else w_total
    if criterion in CLASSIFICATION_CRITERIA or criterion in ("squared_error", "friedman_mse"):
        imp_l = channel_impurity(criterion, left)
        imp_r = channel_impurity(criterion, right)
        imp = channel_impurity(criterion, tot)
    elif own is not None:  # poisson / absolute_error: computed from the rows (``_own_impurities``)
        imp_l, imp_r, imp = own
    else:  # categorical absolute_error: the builder refuses categories (as scikit-learn)
        imp_l = imp_r = np.full(proxy.size, np.nan)
        imp = np.nan
    improvement = impurity_improvement(
        criterion,
        w_total,
        w_node,
        imp,
        left[:, 0],
        imp_l,
        right[:, 0],
        imp_r,
        left[:, 1] if left.shape[1] > 1 else None,
        right[:, 1] if right.shape[1] > 1 else None,
    )
    out = dict(
        proxy=proxy,
        improvement=improvement,
        impurity=imp,
        impurity_left=imp_l,
        impurity_right=imp_r,
        n_left=n_left,
        n_right=n_right,
        weight_left=left[:, 0],
        weight_right=right[:, 0],
    )
    if criterion == "friedman_mse":  # Friedman's own score, shown next to the decrease it splits by
        out["friedman"] = friedman_score(left[:, 0], right[:, 0], left[:, 1], right[:, 1])
    out.update(extra)
    return out
