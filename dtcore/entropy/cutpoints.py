"""Binary cuts ``x ≤ t`` on continuous features: every candidate of every feature scored at once.

Input is one node's rows already sorted per feature (missing values last), as a (F, n) block;
cumulative weighted class counts give the left side of every cut, the node totals minus them the
right side, so one numpy pass per class scores all candidates of all features (no Python loop
over rows or thresholds).

Two rule sets:

* C4.5 release 8 / J48 (``score_cuts_batch``, one node or a whole tree level).  A cut lies between adjacent sorted known values that
  differ by more than 1e-5 (both programs treat closer values as equal); both sides need
  ``MinSplit = clamp(0.1·K / n_classes, MINOBJS, 25)`` weight; the gain is ρ-weighted
  (SPEC §6); the best cut is chosen by raw gain, then ``log2(#candidates)/N`` is subtracted
  (MDL) and the feature needs a positive result.  Ties: J48 scans the cuts left to right and
  moves to a later cut only when its gain is larger by more than 1e-6; ``pick_j48`` reproduces
  that scan exactly (vectorised, see there).
* textbook (ID3, SPEC §4; ``score_textbook_cuts``): every midpoint between distinct known values with both
  sides non-empty (or holding ≥ ``min_leaf`` known *rows*, whatever their fractional weights),
  plain ρ-weighted gain, first maximum wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from dtcore.criteria import SMALL, split_information

#: J48 / C4.5: adjacent values closer than this are not separated by a cut.
DISTINCT_TOL = 1e-5


@dataclass
class CutScores:
    """Per feature (arrays of length F) ID3's best cut and its scores."""

    valid: np.ndarray  # bool: the feature has a usable cut
    gain: np.ndarray  # plain ρ-weighted gain
    raw_gain: np.ndarray  # the same (the textbook rules have no penalty)
    split_info: np.ndarray  # info([K_left, K_right, N−K]) / N
    gain_ratio: np.ndarray
    pos: np.ndarray  # cut between sorted positions pos and pos+1 (-1 when invalid)
    midpoint: np.ndarray  # (v[pos] + v[pos+1]) / 2
    n_candidates: np.ndarray
    left_weight: np.ndarray
    known_weight: np.ndarray


def cut_midpoint(lo: ArrayLike, hi: ArrayLike) -> np.ndarray:
    """The midpoint cut between adjacent values lo < hi: (lo + hi)/2, or lo when rounding put it
    on hi (C4.5's candidate cut; CART's is ``cart.splitter.midpoints``, scikit-learn's lo/2 + hi/2)."""
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    mid = (lo + hi) / 2.0
    return np.where(mid == hi, lo, mid)


def _xlog2x(x: ArrayLike) -> np.ndarray:
    """x·log2(x), 0 where x ≤ 0 (log2(1) = 0 does the masking without fancy indexing)."""
    x = np.asarray(x, dtype=np.float64)
    return x * np.log2(np.where(x > 0, x, 1.0))


def pick_j48(g: np.ndarray, tol: float = SMALL, start: float = 0.0) -> int:
    """The cut J48's left-to-right scan keeps: it starts from gain ``start`` (0) and moves to a
    later cut only when that cut's gain exceeds the kept one by more than ``tol``; -1 if none
    qualifies.  (``start=-inf``: J48's setSplitPoint scan over values, ``c45.rules``.)

    Only prefix-maximum "records" can be kept, and their gains increase, so the scan is a chain
    ``next(i) = first record with gain > g_i + tol``; the last element of the chain is found by
    pointer doubling (O(R log R) numpy work for R records) instead of a Python loop over cuts.
    """
    g = np.asarray(g, dtype=np.float64)
    if g.size == 0:
        return -1
    prev = np.maximum.accumulate(np.concatenate(([-np.inf], g[:-1])))
    rec = np.nonzero((g > prev) & (g - start > tol))[0]
    if rec.size == 0:
        return -1
    v = g[rec]
    R = rec.size
    if R == 1 or v[-1] - v[-2] > tol:  # common case: the maximum stands out
        # the chain reaches the last record unless it jumps over it, which it cannot
        return int(rec[-1])
    nxt = np.searchsorted(v, v + tol, side="right")  # in 1..R (R = past the end)
    # J48 tests ``g_j − g_i > tol``; ``g_j > g_i + tol`` can round the other way: fix up
    i = np.arange(R)
    for _ in range(2):
        k = nxt - 1
        left = (k > i) & (v[np.maximum(k, 0)] - v > tol)
        nxt = np.where(left, k, nxt)
        k = np.minimum(nxt, R - 1)
        right = (nxt < R) & (v[k] - v <= tol)
        nxt = np.where(right, nxt + 1, nxt)
    nxt = np.append(nxt, R)
    # the chain starts at record 0 (the first cut with gain > tol)
    jumps = [nxt]
    while (1 << len(jumps)) <= R:
        j = jumps[-1]
        jumps.append(j[j])
    cur = 0
    for j in reversed(jumps):
        if j[cur] != R:
            cur = int(j[cur])
    return int(rec[cur])


def mdl_penalty(n_candidates: ArrayLike, N: ArrayLike) -> np.ndarray:
    """C4.5 release 8's MDL penalty on a continuous feature's best cut: log2(#candidate cuts)/N
    (0 when there is no candidate).  The one formula the builder and the split explorer use."""
    n = np.asarray(n_candidates)
    return np.log2(np.maximum(n, 1)) / np.asarray(N, dtype=np.float64)


def xlog2x_table(n: int) -> np.ndarray:
    """k·log2(k) for k = 0..n: with unit weights every count is an integer, so a lookup
    replaces 2·(classes+1) logarithms per candidate."""
    k = np.arange(n + 1, dtype=np.float64)
    return k * np.log2(np.maximum(k, 1.0))


def _empty(F: int, K: np.ndarray) -> CutScores:
    return CutScores(
        valid=np.zeros(F, bool),
        gain=np.zeros(F),
        raw_gain=np.zeros(F),
        split_info=np.zeros(F),
        gain_ratio=np.zeros(F),
        pos=np.full(F, -1, np.int64),
        midpoint=np.full(F, np.nan),
        n_candidates=np.zeros(F, np.int64),
        left_weight=np.zeros(F),
        known_weight=K,
    )


def _min_split(K: np.ndarray, n_classes: int, min_cases: float) -> np.ndarray:
    ms = 0.1 * K / n_classes
    return np.where(ms <= min_cases + SMALL, min_cases, np.where(ms > 25 + SMALL, 25.0, ms))


@dataclass
class CutGains:
    """Every cut position of every feature of one node, before the best is picked: (F, n−1)
    arrays over sorted positions i (cut between i and i+1).  What ``score_textbook_cuts`` scores
    and the split explorer (``explain.cut_gains``) shows: one computation for both."""

    left_weight: np.ndarray  # known weight left of the cut
    right_weight: np.ndarray  # known weight right of the cut
    known_weight: np.ndarray  # (F,) K
    distinct: np.ndarray  # the two neighbours are different values (a cut can lie there)
    eligible: np.ndarray  # distinct and both sides hold the minimum weight
    gain: np.ndarray | None  # ρ-weighted raw gain (no MDL penalty); J48's |x| < 1e-6 → 0
    min_split: np.ndarray  # (F,) the side minimum: MinSplit weight (c45) or min_leaf rows (textbook)


def cut_gain_arrays(
    V: np.ndarray,
    Y: np.ndarray,
    W: np.ndarray,
    N: float,
    n_classes: int,
    *,
    rules: str = "c45",
    min_cases: float = 2.0,
    min_leaf: float = 0.0,
    gains: bool = True,
) -> CutGains:
    """Gain of every cut of every feature of one node (arguments as ``score_textbook_cuts``;
    ``rules="c45"``: C4.5's MinSplit and distinct-value tolerance, as ``score_cuts_batch``).  ``gains=False`` skips the gain arithmetic when no
    cut is eligible (``gain`` is then None)."""
    V = np.asarray(V, dtype=np.float64)
    known = ~np.isnan(V)
    Wk = np.where(known, W, 0.0)
    cumw = np.cumsum(Wk, axis=1)
    K = cumw[:, -1].copy() if V.shape[1] else np.zeros(V.shape[0])
    Lw = cumw[:, :-1]
    Rw = K[:, None] - Lw
    if rules == "c45":
        ms = _min_split(K, n_classes, min_cases)
        distinct = V[:, :-1] + DISTINCT_TOL < V[:, 1:]
        ok = (Lw >= ms[:, None] - SMALL) & (Rw >= ms[:, None] - SMALL)
    elif rules == "textbook":
        # min_leaf counts rows (scikit-learn's min_samples_leaf), not their fractional weight:
        # a row that reached the node with a share of its weight is still one row
        floor = max(min_leaf, 1.0)
        ms = np.full(V.shape[0], float(floor))
        distinct = V[:, :-1] < V[:, 1:]
        cumn = np.cumsum(known & (W > 0), axis=1)
        Ln = cumn[:, :-1]
        Rn = cumn[:, -1:] - Ln
        ok = (Ln >= floor - 1e-12) & (Rn >= floor - 1e-12)
    else:
        raise ValueError(f"unknown cut rules {rules!r}")
    eligible = distinct & ok
    out = CutGains(Lw, Rw, K, distinct, eligible, None, ms)
    if not gains and not eligible.any():
        return out
    # information in Σ n log n form (weight × bits), as C4.5 and J48 compute it
    new = _xlog2x(Lw) + _xlog2x(np.maximum(Rw, 0.0))
    old = _xlog2x(K)
    for c in range(n_classes):  # loop over classes, not rows
        Lc = np.cumsum(np.where(c == Y, Wk, 0.0), axis=1)
        Kc = Lc[:, -1:]
        old = old - _xlog2x(Kc[:, 0])
        new -= _xlog2x(Lc[:, :-1]) + _xlog2x(np.maximum(Kc - Lc[:, :-1], 0.0))
    numer = (old[:, None] - new) * (1.0 - (N - K) / N)[:, None]
    out.gain = np.where(np.abs(numer) < SMALL, 0.0, numer / np.where(K > 0, K, 1.0)[:, None])
    return out


def score_textbook_cuts(
    V: np.ndarray,
    Y: np.ndarray,
    W: np.ndarray,
    N: float,
    n_classes: int,
    *,
    min_leaf: float = 0.0,
) -> CutScores:
    """ID3's best cut of every feature of one node (the textbook rules: every midpoint, plain
    ρ-weighted gain, first maximum).  C4.5's cuts are scored by ``score_cuts_batch`` only.

    V: (F, n) values sorted ascending per row, NaN (missing) last; Y: (F, n) class codes and
    W: (F, n) weights in the same order; N: the node's total weight (known + unknown).
    """
    V = np.asarray(V, dtype=np.float64)
    F, n = V.shape
    if n < 2 or N <= 0:
        return _empty(F, np.cumsum(np.where(np.isnan(V), 0.0, W), axis=1)[:, -1].copy())
    cg = cut_gain_arrays(V, Y, W, N, n_classes, rules="textbook", min_leaf=min_leaf, gains=False)
    out = _empty(F, cg.known_weight)
    out.n_candidates = cg.eligible.sum(axis=1)
    if not out.n_candidates.any():
        return out
    assert cg.gain is not None  # computed: some cut is eligible
    D = np.where(cg.eligible, cg.gain, -np.inf)
    return _finish(out, D, V, cg.left_weight, cg.known_weight, N)


def _finish(
    out: CutScores, D: np.ndarray, V: np.ndarray, Lw: np.ndarray, K: np.ndarray, N: float
) -> CutScores:
    """Pick each feature's cut from the candidate gains D (F, m; -inf = no candidate)."""
    has = np.isfinite(D).any(axis=1)
    feats = np.nonzero(has)[0]
    if feats.size == 0:
        return out
    Dh = D[feats]
    rows = np.arange(feats.size)
    best = Dh.argmax(axis=1)  # first maximum
    ok = Dh[rows, best] > 1e-12
    feats, best = feats[ok], best[ok]
    if feats.size == 0:
        return out
    gain = D[feats, best]
    left = Lw[feats, best]
    Kf = K[feats]
    si = split_information(np.stack([left, Kf - left, N - Kf], axis=1))
    out.valid[feats] = True
    out.raw_gain[feats] = gain
    out.gain[feats] = gain
    out.split_info[feats] = si
    out.gain_ratio[feats] = np.where(si * N > SMALL, gain / np.where(si > 0, si, 1.0), 0.0)
    out.pos[feats] = best
    out.midpoint[feats] = cut_midpoint(V[feats, best], V[feats, best + 1])
    out.left_weight[feats] = left
    return out


# ---------------------------------------------------------------------------------------------
# many nodes at once (C4.5's level-wise growth)


@dataclass
class BatchCutScores:
    """Per (feature, node) arrays of shape (F, S); ``pos`` is a column of the batch block."""

    valid: np.ndarray
    gain: np.ndarray  # after the MDL penalty (when ``mdl``)
    raw_gain: np.ndarray  # the best cut's gain before the penalty
    gain_ratio: np.ndarray
    midpoint: np.ndarray
    n_candidates: np.ndarray
    left_weight: np.ndarray  # known weight left of the best cut
    lo: np.ndarray  # the values either side of the best cut (release 8's threshold needs them)
    hi: np.ndarray


def score_cuts_batch(
    V: np.ndarray,
    Y: np.ndarray,
    W: np.ndarray | None,
    starts: np.ndarray,
    N: np.ndarray,
    n_classes: int,
    *,
    min_cases: float = 2.0,
    mdl: bool = True,
    unit_table: np.ndarray | None = None,
) -> BatchCutScores:
    """C4.5 cuts for S nodes of one tree level in one pass (one node: ``starts=[0]``); the
    one home of C4.5's cut scoring.

    V, Y, W: (F, T) blocks (W may be None with ``unit_table``), node s occupying columns
    ``starts[s]:starts[s+1]``, each node's
    columns sorted by value per feature (missing last); N: (S,) node weights.  The numbers are
    those of scoring each node on its own: cumulative sums are made local to a node
    by subtracting the sum before its first column, and per-node maxima come from
    ``ufunc.reduceat`` over the node's columns.  ``unit_table`` (``xlog2x_table``): every
    weight is 1 and no value is missing, so integer counts and a table of k·log2(k) are used.
    """
    V = np.asarray(V, dtype=np.float64)
    F, T = V.shape
    starts = np.asarray(starts, dtype=np.int64)
    S = starts.size
    N = np.asarray(N, dtype=np.float64)
    lengths = np.diff(np.append(starts, T))
    seg = np.repeat(np.arange(S), lengths)  # node of each column
    out = BatchCutScores(
        valid=np.zeros((F, S), bool),
        gain=np.zeros((F, S)),
        raw_gain=np.zeros((F, S)),
        gain_ratio=np.zeros((F, S)),
        midpoint=np.full((F, S), np.nan),
        n_candidates=np.zeros((F, S), np.int64),
        left_weight=np.zeros((F, S)),
        lo=np.full((F, S), np.nan),
        hi=np.full((F, S), np.nan),
    )
    if T < 2:
        return out
    ends = np.append(starts[1:], T)

    def local_cumsum(A: np.ndarray, dtype: DTypeLike = np.float64) -> tuple[np.ndarray, np.ndarray]:
        """Per-node cumulative sums (F, T) and node totals (F, S)."""
        c = np.cumsum(A, axis=1, dtype=dtype)  # contiguous: fast gathers later
        before = np.zeros((F, S), dtype=dtype)  # (F, S) sum before each node
        nz = starts > 0
        before[:, nz] = c[:, starts[nz] - 1]
        total = c[:, ends - 1] - before
        c -= np.repeat(before, lengths, axis=1)  # = before[:, seg], without a fancy gather
        return c, total

    if unit_table is not None:
        gains = _batch_unit_gains(
            V, Y, starts, ends, seg, n_classes, min_cases, unit_table, local_cumsum, out
        )
        if gains is None:
            return out
        D, Lw, K = gains
        return _batch_finish(out, D, V, Lw, K, N, starts, ends, seg, mdl)
    assert W is not None  # only the unit_table path goes without weights
    known = ~np.isnan(V)
    Wk = np.where(known, W, 0.0)

    Lw, K = local_cumsum(Wk)
    Ks = np.repeat(K, lengths, axis=1)
    Rw = Ks - Lw
    mss = np.repeat(_min_split(K, n_classes, min_cases), lengths, axis=1) - SMALL
    last = np.zeros(T, dtype=bool)
    last[np.append(starts[1:], T) - 1] = True  # no cut after a node's last column
    cand = np.zeros((F, T), dtype=bool)
    cand[:, :-1] = V[:, :-1] + DISTINCT_TOL < V[:, 1:]
    cand &= ~last & (Lw >= mss) & (Rw >= mss)
    out.n_candidates = np.add.reduceat(cand, starts, axis=1).astype(np.int64)
    if not out.n_candidates.any():
        return out
    new = _xlog2x(Lw) + _xlog2x(np.maximum(Rw, 0.0))
    old = _xlog2x(K)
    for c in range(n_classes):  # loop over classes, not rows
        Lc, Kc = local_cumsum(np.where(c == Y, Wk, 0.0))
        old = old - _xlog2x(Kc)
        new -= _xlog2x(Lc) + _xlog2x(np.maximum(np.repeat(Kc, lengths, axis=1) - Lc, 0.0))
    Ns = N[seg]
    numer = (np.repeat(old, lengths, axis=1) - new) * (1.0 - (Ns - Ks) / Ns)
    g = np.where(np.abs(numer) < SMALL, 0.0, numer / np.where(Ks > 0, Ks, 1.0))
    D = np.where(cand, g, -np.inf)
    return _batch_finish(out, D, V, Lw, K, N, starts, ends, seg, mdl)


def _batch_unit_gains(
    V: np.ndarray,
    Y: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    seg: np.ndarray,
    C: int,
    min_cases: float,
    table: np.ndarray,
    local_cumsum: Callable[[np.ndarray, DTypeLike], tuple[np.ndarray, np.ndarray]],
    out: BatchCutScores,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Gains when every weight is 1 and nothing is missing: counts are integers, so
    k·log2(k) comes from a table; left/right weights depend only on the column position."""
    F, T = V.shape
    n = (ends - starts).astype(np.int64)  # (S,) rows per node
    Lw = np.arange(T) - starts[seg] + 1  # (T,) rows left of each cut
    Rw = n[seg] - Lw
    mss = _min_split(n, C, min_cases)[seg] - SMALL
    ok_pos = (Lw >= mss) & (Rw >= mss) & (Rw > 0)
    cand = np.zeros((F, T), dtype=bool)
    cand[:, :-1] = V[:, :-1] + DISTINCT_TOL < V[:, 1:]
    cand &= ok_pos[None, :]
    out.n_candidates = np.add.reduceat(cand, starts, axis=1).astype(np.int64)
    if not out.n_candidates.any():
        return None
    # Σ_c k·log2 k over the class counts left and right of every cut, summed in class order
    # (acc starts from the first term: 0 + x is x, so the bits are those of a zero start)
    acc = None
    old = table[n].copy()  # (S,)
    left_sum = None
    kc_sum = np.zeros(n.size, dtype=np.int64)
    idt = np.intp  # table.take is fastest with native indices (int32 ones are converted)
    for c in range(C):  # loop over classes, not rows
        if c < C - 1:
            Lc, Kc = local_cumsum(np.equal(Y, c), idt)
            kc = Kc[0].astype(np.int64)  # same for every feature
            if left_sum is None:
                left_sum = Lc.copy() if C > 2 else Lc
            else:
                left_sum += Lc
            kc_sum += kc
        else:  # the last class is what the others leave
            Lc = (
                np.subtract(Lw.astype(idt)[None, :], left_sum)
                if left_sum is not None
                else np.repeat(Lw.astype(idt)[None, :], F, axis=0)
            )
            kc = n - kc_sum
        old -= table[kc]
        t = table.take(Lc)
        if acc is None:
            acc = t
        else:
            acc += t
        Rc = np.subtract(kc[seg].astype(idt)[None, :], Lc, out=Lc if c == C - 1 else None)
        acc += table.take(Rc)
    numer = acc
    numer += (old[seg] - (table[Lw] + table[Rw]))[None, :]
    g = np.divide(numer, n[seg][None, :])
    g[np.abs(numer) < SMALL] = 0.0
    g[~cand] = -np.inf
    D = g
    K = np.broadcast_to(n.astype(np.float64), (F, n.size))
    return D, np.broadcast_to(Lw.astype(np.float64), (F, T)), K


def _batch_finish(
    out: BatchCutScores,
    D: np.ndarray,
    V: np.ndarray,
    Lw: np.ndarray,
    K: np.ndarray,
    N: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    seg: np.ndarray,
    mdl: bool,
) -> BatchCutScores:
    """Per node and feature: J48's pick, MDL, split information, midpoint."""
    T = D.shape[1]
    gmax = np.maximum.reduceat(D, starts, axis=1)  # (F, S)
    col = np.arange(T)
    lengths = ends - starts
    first = np.where(np.repeat(gmax, lengths, axis=1) == D, col, T)
    best = np.minimum.reduceat(first, starts, axis=1)  # first maximum per node
    ok = gmax > SMALL
    before = np.maximum.reduceat(np.where(col < np.repeat(best, lengths, axis=1), D, -np.inf), starts, axis=1)
    with np.errstate(invalid="ignore"):
        slow = ok & (before > SMALL) & (gmax - before <= SMALL)
    for f, s in zip(*np.nonzero(slow)):  # loop over (rare) near-tied features, not cuts
        best[f, s] = starts[s] + pick_j48(D[f, starts[s] : ends[s]])
    fi, si_ = np.nonzero(ok)
    if fi.size == 0:
        return out
    b = best[fi, si_]
    raw = D[fi, b]
    Nn = N[si_]
    gain = raw - (mdl_penalty(out.n_candidates[fi, si_], Nn) if mdl else 0.0)
    keep = gain > SMALL
    fi, si_, b, raw, gain, Nn = fi[keep], si_[keep], b[keep], raw[keep], gain[keep], Nn[keep]
    if fi.size == 0:
        return out
    left = Lw[fi, b]
    Kf = K[fi, si_]
    info = split_information(np.stack([left, Kf - left, Nn - Kf], axis=1))
    out.valid[fi, si_] = True
    out.gain[fi, si_] = gain
    out.raw_gain[fi, si_] = raw
    out.left_weight[fi, si_] = left
    out.gain_ratio[fi, si_] = np.where(info * Nn > SMALL, gain / np.where(info > 0, info, 1.0), 0.0)
    out.lo[fi, si_], out.hi[fi, si_] = V[fi, b], V[fi, b + 1]
    out.midpoint[fi, si_] = cut_midpoint(out.lo[fi, si_], out.hi[fi, si_])
    return out
