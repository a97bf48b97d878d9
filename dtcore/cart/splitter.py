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
``cart.categorical`` - Breiman's ordering for two classes and regression (exact), every subset for
more classes and at most ``EXACT_SUBSET_LIMIT`` categories, per-class orderings above that (a
bounded heuristic); O(L log L) time and O(L) memory per node for L categories.  The explorer
(``dtcore.explain.cart.categorical_candidates``) lists at most ``LISTED_LIMIT`` subsets and as many
one-vs-rest tests.

absolute_error (continuous features, no missing values, like scikit-learn): the weighted median
and absolute error of every prefix and suffix of every node (``dtcore.cart.absolute_error``).

The same kernels serve the builder (best per node) and the split explorer, whose candidate lists
(all candidates of one feature at one node) are ``dtcore.explain.cart``'s.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from dtcore.cart.absolute_error import prefix_suffix_abs_errors
from dtcore.cart.categorical import (
    best_per_segment,
)
from dtcore.criteria import (
    CLASSIFICATION_CRITERIA,
    proxy_improvement,
)

FEATURE_THRESHOLD = 1e-7

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


SCAN_CHUNK = 1 << 18  # candidates scored per pass by ``best_cuts`` (bounds its memory)
#: ``best_cuts`` scores every position in place when at least this share of them are valid cuts
DENSE_SHARE = 0.75


@dataclass
class SortedScan:
    """One feature's values sorted inside each node segment, as every candidate cut reads them
    (:func:`prepare_scan`): cumulative channels, segment totals, missing counts and the valid cut
    positions (``ok``: a gap above FEATURE_THRESHOLD). :func:`scan_sorted` lists its candidates,
    :func:`best_cuts` keeps each segment's best."""

    criterion: str
    C: np.ndarray
    base: np.ndarray
    tot: np.ndarray
    seg_start: np.ndarray
    seg_len: np.ndarray
    seg_id: np.ndarray
    n_miss: np.ndarray
    n_known: np.ndarray
    last_known: np.ndarray
    ok: np.ndarray  # whether a cut after each position is valid
    n_valid: int  # how many are
    # (known, missing) channels per segment when some segment has missing values, else None
    known_missing: tuple[np.ndarray, np.ndarray] | None
    # absolute_error: prefix and suffix absolute errors over the whole array
    abs_errors: tuple[np.ndarray, np.ndarray] | None

    @functools.cached_property
    def idx(self) -> np.ndarray:
        """Positions of the valid cuts, ascending (made only when a scan lists them)."""
        return self.ok.nonzero()[0]


def prepare_scan(
    xs: np.ndarray,
    G: np.ndarray | None,
    seg_start: np.ndarray,
    seg_len: np.ndarray,
    criterion: str,
    seg_id: np.ndarray | None = None,
    has_missing: bool | None = None,
    cumulative: np.ndarray | None = None,
) -> SortedScan:
    """The scan of one feature over node segments.

    ``xs``: feature values sorted inside each segment, NaN last; ``G``: (d, m) channels of the
    same rows in the same order (channel-first: each cumulative sum runs over contiguous memory).
    ``cumulative``: the running sums of ``G`` along the array when the caller has them already
    (G is then not read; integer sums are fine: unit-weight class counts are exact either way).
    """
    if cumulative is None:
        assert G is not None, "prepare_scan needs G or cumulative"
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
    known_missing = None
    if has_missing and n_miss.any():
        kn = np.zeros((d, seg_start.size))
        has_known = n_known > 0
        kn[:, has_known] = C[:, last_known[has_known]] - base[:, has_known]
        known_missing = (kn, tot - kn)
    abs_errors = None
    if criterion == "absolute_error":
        if known_missing is not None:
            raise ValueError(
                "criterion='absolute_error' does not support missing values "
                "(as in scikit-learn): impute them or use 'squared_error'"
            )
        # channel 1 holds y itself here; the absolute errors come from ranks, not sums
        assert G is not None  # absolute_error callers pass G, never cumulative
        abs_errors = prefix_suffix_abs_errors(G[1], G[0], seg_start, seg_len, seg_id)
    return SortedScan(
        criterion,
        C,
        base,
        tot,
        seg_start,
        seg_len,
        seg_id,
        n_miss,
        n_known,
        last_known,
        ok,
        int(np.count_nonzero(ok)),
        known_missing,
        abs_errors,
    )


def _block(pr: SortedScan, variant: int, idx: np.ndarray) -> list[np.ndarray]:
    """The candidates of one variant at the cut positions ``idx`` (ascending; "missing alone"
    has one per segment with both known and missing rows and ignores ``idx``): [index, segment,
    variant, n_left, n_right, left channels, right channels]."""
    if variant == MISSING_ALONE:
        assert pr.known_missing is not None
        kn, miss = pr.known_missing
        s3 = np.flatnonzero((pr.n_miss > 0) & (pr.n_known > 0))
        cols = [pr.last_known[s3], s3, pr.n_known[s3], pr.n_miss[s3], kn[:, s3], miss[:, s3]]
    else:
        seg = pr.seg_id[idx]
        n_left = idx - pr.seg_start[seg] + 1
        left: np.ndarray = np.take(pr.C, idx, axis=1).astype(np.float64, copy=False)
        left -= np.take(pr.base, seg, axis=1)
        if variant == MISSING_RIGHT:
            cols = [idx, seg, n_left, pr.seg_len[seg] - n_left, left, np.take(pr.tot, seg, axis=1) - left]
        else:  # MISSING_LEFT, only in segments with missing rows
            assert pr.known_missing is not None
            miss = pr.known_missing[1]
            sel = pr.n_miss[seg] > 0
            i2, s2 = idx[sel], seg[sel]
            l2 = left[:, sel] + miss[:, s2]
            cols = [i2, s2, n_left[sel] + pr.n_miss[s2], pr.n_known[s2] - n_left[sel], l2, pr.tot[:, s2] - l2]
    return cols[:2] + [np.full(cols[0].size, variant, np.int8)] + cols[2:]


def _scored(
    pr: SortedScan, cols: list[np.ndarray], min_samples_leaf: int, min_weight_leaf: float
) -> Candidates:
    """Candidates from block columns: the leaf limits applied, each scored by its proxy."""
    idx, seg, variant, n_left, n_right, left, right = cols
    left, right = left.T, right.T  # (k, d) views: channel j is a contiguous row of the base
    if _has_limits(min_samples_leaf, min_weight_leaf):
        keep = _within_limits(n_left, n_right, left, right, min_samples_leaf, min_weight_leaf)
        if not keep.all():
            idx, seg, variant, n_left, n_right, left, right = (
                a[keep] for a in (idx, seg, variant, n_left, n_right, left, right)
            )
    proxy = _proxies(pr, idx, left, right)
    # class impurities are finite by construction; regression proxies can be -inf/NaN
    fin = None if pr.criterion in CLASSIFICATION_CRITERIA else np.isfinite(proxy)
    if fin is not None and not fin.all():
        idx, seg, variant, n_left, n_right, left, right, proxy = (
            a[fin] for a in (idx, seg, variant, n_left, n_right, left, right, proxy)
        )
    return Candidates(idx, seg, variant, n_left, n_right, left, right, proxy, pr.n_miss)


def _has_limits(msl: int, mwl: float) -> bool:
    """Whether leaf limits can refuse a cut: every side of a cut holds ≥ 1 row by construction,
    so without them there is nothing to check (which saves passes over all candidates)."""
    return msl > 1 or mwl > 0


def _within_limits(
    n_left: np.ndarray, n_right: np.ndarray, left: np.ndarray, right: np.ndarray, msl: int, mwl: float
) -> np.ndarray:
    """Candidates whose children keep min_samples_leaf rows and min_weight_leaf weight."""
    keep = (n_left >= msl) & (n_right >= msl)
    if mwl > 0:
        keep &= (left[:, 0] >= mwl) & (right[:, 0] >= mwl)
    return keep


def _proxies(
    pr: SortedScan, idx: np.ndarray, left: np.ndarray, right: np.ndarray, positive: bool = False
) -> np.ndarray:
    """scikit-learn's proxy of the cuts after positions ``idx``, children's channels (k, d)
    (``positive``: :func:`dtcore.criteria.class_impurity`'s)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if pr.abs_errors is not None:
            ae_pre, ae_suf = pr.abs_errors
            wl, wr = left[:, 0], right[:, 0]
            return -wr * (ae_suf[np.minimum(idx + 1, ae_suf.size - 1)] / wr) - wl * (ae_pre[idx] / wl)
        return proxy_improvement(pr.criterion, left, right, positive)


def _dense_right_block(pr: SortedScan, a: int, b: int, msl: int, mwl: float) -> tuple[np.ndarray, np.ndarray]:
    """Proxies of "missing right" cuts after *every* position in [a, b), -inf where no valid
    cut is, and the positions' segments: when most positions are valid cuts (distinct values),
    scoring all of them in place is cheaper than gathering the valid ones first. Every valid
    cut's proxy comes from the same operations as in :func:`_block` and :func:`_scored`."""
    seg = pr.seg_id[a:b]
    # each segment's base and totals repeated over its positions in [a, b) (a repeat reads no
    # index array: 2-3× faster than taking them by ``seg``)
    s0, s1 = int(seg[0]), int(seg[-1]) + 1
    span = pr.seg_len[s0:s1].copy()
    span[0] -= a - pr.seg_start[s0]  # the first segment may begin before a,
    span[-1] -= pr.seg_start[s1 - 1] + pr.seg_len[s1 - 1] - b  # the last end after b
    left: np.ndarray = pr.C[:, a:b].astype(np.float64)
    left -= np.repeat(pr.base[:, s0:s1], span, axis=1)
    right = np.repeat(pr.tot[:, s0:s1], span, axis=1) - left
    pos = np.arange(a, b)
    valid = pr.ok[a:b]
    if _has_limits(msl, mwl):
        n_left = pos - pr.seg_start[seg] + 1
        valid = valid & _within_limits(n_left, pr.seg_len[seg] - n_left, left.T, right.T, msl, mwl)
    # every row has a positive weight (the builder drops the others), so each side of a valid
    # cut has too; a position that is no cut (an empty side) may score NaN, and is set to -inf
    proxy = _proxies(pr, pos, left.T, right.T, positive=True)
    if pr.criterion not in CLASSIFICATION_CRITERIA:
        valid = valid & np.isfinite(proxy)  # :func:`_scored` drops these
    proxy[~valid] = -np.inf
    return proxy, seg


def scan_sorted(scan: SortedScan, min_samples_leaf: int = 1, min_weight_leaf: float = 0.0) -> Candidates:
    """Every valid cut of the scanned feature in every segment (the split explorer's list).

    Candidates come in variant blocks, each ordered by segment then position:
    MISSING_RIGHT, MISSING_ALONE, MISSING_LEFT - the order in which scikit-learn meets them.
    """
    variants = [MISSING_RIGHT] + ([MISSING_ALONE, MISSING_LEFT] if scan.known_missing is not None else [])
    blocks = [_block(scan, v, scan.idx) for v in variants]
    cols = (
        [np.concatenate([b[k] for b in blocks], axis=-1) for k in range(7)] if len(blocks) > 1 else blocks[0]
    )
    return _scored(scan, cols, min_samples_leaf, min_weight_leaf)


@dataclass
class Winners:
    """The best cut of every segment (``best_cuts``): the fields of ``Candidates`` a builder
    reads, one entry per segment; proxy -inf where a segment has no valid cut."""

    proxy: np.ndarray
    index: np.ndarray
    variant: np.ndarray
    n_left: np.ndarray
    n_right: np.ndarray
    seg_missing: np.ndarray

    def missing_left(self, k: np.ndarray) -> np.ndarray:
        """The learned missing direction of segments ``k``'s winners (:func:`missing_rule`)."""
        return missing_rule(self.variant[k], self.seg_missing[k], self.n_left[k], self.n_right[k])

    def keep(
        self,
        better: np.ndarray,
        proxy: np.ndarray,
        index: np.ndarray,
        variant: np.ndarray | int,
        n_left: np.ndarray,
        n_right: np.ndarray,
    ) -> None:
        """Segments ``better`` take these cuts (one entry per segment of ``better``)."""
        self.proxy[better] = proxy
        self.index[better], self.variant[better] = index, variant
        self.n_left[better], self.n_right[better] = n_left, n_right


def best_cuts(
    scan: SortedScan, min_samples_leaf: int = 1, min_weight_leaf: float = 0.0, chunk: int = SCAN_CHUNK
) -> Winners:
    """The best cut of every segment: the first maximum of :func:`scan_sorted`'s list in its
    order (variants in scikit-learn's order, then position), scoring at most ``chunk``
    candidates at a time: a builder needs the winners only, and the whole list costs ~100
    bytes a row (10⁶ rows: 0.1 GB). Every row must weigh more than 0 (the builder drops the
    others): the dense scan then skips the check for empty children."""
    n_seg = scan.seg_start.size
    out = Winners(
        np.full(n_seg, -np.inf),
        np.zeros(n_seg, np.int64),
        np.zeros(n_seg, np.int8),
        np.zeros(n_seg, np.int64),
        np.zeros(n_seg, np.int64),
        scan.n_miss,
    )
    variants = [MISSING_RIGHT] + ([MISSING_ALONE, MISSING_LEFT] if scan.known_missing is not None else [])
    m = scan.ok.size
    for v in variants:  # an earlier candidate wins a tie (strict >)
        if v == MISSING_RIGHT and scan.n_valid >= DENSE_SHARE * m:
            for a in range(0, m, chunk):
                proxy, seg = _dense_right_block(scan, a, min(a + chunk, m), min_samples_leaf, min_weight_leaf)
                b, where = best_per_segment(seg, proxy, n_seg)
                better = (b > out.proxy).nonzero()[0]
                k = a + where[better]
                n_left = k - scan.seg_start[better] + 1
                out.keep(better, b[better], k, MISSING_RIGHT, n_left, scan.seg_len[better] - n_left)
            continue
        for a in range(0, scan.idx.size, chunk) if v != MISSING_ALONE else [0]:
            c = _scored(scan, _block(scan, v, scan.idx[a : a + chunk]), min_samples_leaf, min_weight_leaf)
            b, where = best_per_segment(c.segment, c.proxy, n_seg)
            better = (b > out.proxy).nonzero()[0]
            if better.size == 0:
                continue
            k = where[better]
            out.keep(better, b[better], c.index[k], c.variant[k], c.n_left[k], c.n_right[k])
    return out


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


def missing_rule(
    variant: np.ndarray, n_missing: np.ndarray, n_left: np.ndarray, n_right: np.ndarray
) -> np.ndarray:
    """The learned missing direction of cuts (True: left): the variant's side, or without
    missing values at the node (``n_missing`` 0), the side with more rows."""
    return np.where(n_missing == 0, n_left > n_right, variant == MISSING_LEFT)


def missing_goes_left(c: Candidates, k: np.ndarray) -> np.ndarray:
    """:func:`missing_rule` for candidates ``k`` of a list."""
    return missing_rule(c.variant[k], c.seg_missing[c.segment[k]], c.n_left[k], c.n_right[k])
