"""Best split of every node of a level from its histograms, with the exact splitter's rules.

Continuous feature, per node: the candidate cuts lie after every non-empty known bin that has a
non-empty known bin after it; left sums are cumulative sums over the bins (over the non-empty
ones only when every row weighs 1: whole numbers, exact in any order).  Consecutive continuous
features with as many bins are scored together, each (node, feature) its own segment.  As in
``cart.splitter.scan_sorted`` the missing values are tried on the right of every cut, then alone
("every known value left, missing right"), then on the left of every cut; the first maximum of
the proxy wins (earlier variants, then lower bins).  Categorical features: the (node, category)
sums of the histogram are ``cart.categorical.CategoryStats``, scanned by ``cart.categorical`` itself.  Across
features the first maximum wins (the lowest feature index), as in ``cart.grower``.

The proxies, the child-size rules and the tie order are the exact splitter's (``criteria``,
``categorical.split_proxies``); with exact bins the candidates are the same, so the chosen split is too.
Regression channels are centred on the node mean (as ``cart.grower`` centres y) before scoring.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcore.cart.categorical import (
    CategoryStats,
    best_categorical,
    best_per_segment,
    scan_categorical,
    split_proxies,
)
from dtcore.cart.hist.binning import Bins
from dtcore.criteria import CLASSIFICATION_CRITERIA, proxy_improvement


@dataclass
class LevelChoice:
    """Best split per node: proxy (−inf: none), feature, threshold (NaN: categorical), missing
    direction, and which bins of the feature go left (missing bin included)."""

    proxy: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    missing_left: np.ndarray
    left: np.ndarray  # (n_nodes, max bins + 1) bool
    present: np.ndarray  # (n_nodes, max bins + 1) bool: the feature's bins holding rows


def _channels(Hf: np.ndarray, criterion: str, mean: np.ndarray | None) -> np.ndarray:
    """The channels the proxies read: classification as they are; regression [w, Σw·(y − mean)]."""
    if criterion in CLASSIFICATION_CRITERIA:
        return Hf
    assert mean is not None
    return np.stack([Hf[..., 0], Hf[..., 1] - mean[:, None] * Hf[..., 0]], axis=-1)


def _proxies(
    criterion: str, left: np.ndarray, right: np.ndarray, nl: np.ndarray, nr: np.ndarray, msl: int, mwl: float
) -> np.ndarray:
    """``categorical.split_proxies``; without leaf limits a valid cut needs no size test, and class
    proxies are always finite, so those passes are skipped (same values)."""
    if msl <= 1 and mwl <= 0 and criterion in CLASSIFICATION_CRITERIA:
        return proxy_improvement(criterion, left, right)
    return split_proxies(criterion, left, right, nl, nr, msl, mwl)


@dataclass(frozen=True)
class KnownSums:
    """A run's sums as its cuts are scored, per segment (a node and a feature, M of them): its
    non-empty known bins in order (segment, then bin), with the sums of the segment's known bins
    up to each (inclusive), and its known and missing totals."""

    seg: np.ndarray  # (n,) the segment of each non-empty known bin
    bin: np.ndarray  # (n,) its bin
    left: np.ndarray  # (n, d) channel sums of the segment's known bins up to it
    n_left: np.ndarray  # (n,) rows in them
    known: np.ndarray  # (M, d) channel sums of the segment's known bins
    n_known: np.ndarray  # (M,)
    miss: np.ndarray  # (M, d) the missing bin's
    n_miss: np.ndarray  # (M,)


def _dense_sums(G: np.ndarray, cnt: np.ndarray) -> KnownSums:
    """``KnownSums`` by cumulative sums over every bin of every segment, in bin order: the bits
    scoring one feature at a time gives.  G: (..., s, d) channels, cnt: (..., s) rows, for
    features of s bins each (bin s − 1 missing); the segments are the leading cells."""
    s, d = G.shape[-2:]
    M, nb = int(np.prod(cnt.shape[:-1])), s - 1
    Ck = np.cumsum(G[..., :nb, :], axis=-2).reshape(M * nb, d)
    nk = np.cumsum(cnt[..., :nb], axis=-1).reshape(M * nb)
    at = np.flatnonzero(cnt[..., :nb] > 0)  # the non-empty known bins, by segment then bin
    seg, k = np.divmod(at, nb)
    last = np.arange(1, M + 1) * nb - 1
    known = Ck.take(last, axis=0) if nb else np.zeros((M, d))
    n_known = nk.take(last) if nb else np.zeros(M, np.int64)
    miss, n_miss = G[..., nb, :].reshape(M, d), cnt[..., nb].reshape(M)
    return KnownSums(seg, k, Ck.take(at, axis=0), nk.take(at), known, n_known, miss, n_miss)


def _sparse_sums(H: np.ndarray, cnt: np.ndarray, o: int, c: int, s: int) -> KnownSums:
    """``KnownSums`` of the run of ``c`` features of ``s`` bins from bin ``o`` of H (N, total,
    d) and cnt, summing the non-empty bins only (deep nodes leave most bins empty).  For whole
    sums only (every row weighs 1): one cumulative sum over all segments, less each segment's
    start, is exact then, so the sums are those of ``_dense_sums``."""
    N, total, d = H.shape
    nb = s - 1
    block = cnt[:, o : o + c * s].reshape(N * c, s)
    at = np.flatnonzero(block[:, :nb] > 0)
    seg, k = np.divmod(at, nb)
    node, f = np.divmod(seg, c)
    row = node * total + (o + f * s + k)  # the bins' rows of H.reshape(-1, d)
    run = np.cumsum(H.reshape(-1, d).take(row, axis=0), axis=0)
    M = N * c
    known = np.zeros((M, d))
    if at.size:
        new_seg = np.empty(at.size, bool)  # the first non-empty bin of each segment
        new_seg[0] = True
        np.not_equal(seg[1:], seg[:-1], out=new_seg[1:])
        start = np.flatnonzero(new_seg)
        before = np.zeros((start.size, d))
        before[1:] = run.take(start[1:] - 1, axis=0)
        run -= before.take(np.cumsum(new_seg) - 1, axis=0)
        end = np.append(start[1:], at.size) - 1
        known[seg.take(start)] = run.take(end, axis=0)
    # every row weighs 1: channel 0 (the weight) counts the rows
    n_run, n_known = run[:, 0].astype(np.int64), known[:, 0].astype(np.int64)
    miss = H[:, o + nb : o + c * s : s].reshape(M, d)
    return KnownSums(seg, k, run, n_run, known, n_known, miss, block[:, nb].copy())


def _continuous(
    ks: KnownSums, criterion: str, msl: int, mwl: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best cut of every segment (a node and a continuous feature): (proxy, bin, next non-empty
    bin, variant (0 right, 1 alone, 2 left), n_left), each of M.  A cut follows a non-empty
    known bin that has a non-empty known bin after it in its segment."""
    M = ks.known.shape[0]
    cand = np.flatnonzero(ks.seg[:-1] == ks.seg[1:])  # a non-empty bin follows in the segment
    seg, k, nxt_bin = ks.seg.take(cand), ks.bin.take(cand), ks.bin.take(cand + 1)
    L0, nl0 = ks.left.take(cand, axis=0), ks.n_left.take(cand)
    tot, n_tot = ks.known + ks.miss, ks.n_known + ks.n_miss
    best = np.full(M, -np.inf)
    where = np.zeros(M, np.int64)
    nxt = np.zeros(M, np.int64)
    variant = np.zeros(M, np.int8)
    n_left = np.zeros(M, np.int64)
    has_miss = ks.n_miss > 0

    def scan(pick: np.ndarray | None, v: int) -> None:
        """Score the cuts (``pick``: those of segments with missing values), missing values
        right (v = 0) or left (v = 2); keep each segment's first maximum when it beats earlier
        variants."""
        s_, L, nl = (
            (seg, L0, nl0) if pick is None else (seg.take(pick), L0.take(pick, axis=0), nl0.take(pick))
        )
        if s_.size == 0:
            return
        if v == 2:
            L = L + ks.miss.take(s_, axis=0)
            nl = nl + ks.n_miss.take(s_)
        p = _proxies(criterion, L, tot.take(s_, axis=0) - L, nl, n_tot.take(s_) - nl, msl, mwl)
        b, w = best_per_segment(s_, p, M)  # candidates by segment, then bin: the lowest bin first
        better = np.flatnonzero(b > best)
        i = w[better] if pick is None else pick[w[better]]
        best[better], where[better], nxt[better], variant[better] = b[better], k[i], nxt_bin[i], v
        n_left[better] = nl[w[better]]

    scan(None, 0)
    if has_miss.any():
        p = split_proxies(criterion, ks.known, ks.miss, ks.n_known, ks.n_miss, msl, mwl)
        p = np.where(has_miss & (ks.n_known > 0), p, -np.inf)
        better = np.flatnonzero(p > best)
        best[better], variant[better] = p[better], 1
        n_left[better] = ks.n_known[better]
        scan(np.flatnonzero(has_miss.take(seg)), 2)
    return best, where, nxt, variant, n_left


#: (nodes × features × bins × channels) cells scored at once: continuous features with as many
#: bins are scored together (a few numpy calls per run instead of per feature: the shallow
#: levels' cost is calls), in runs of at most this many cells, as a deep level's temporaries
#: then stay in cache (measured at 10⁵ rows × 20, depth 10: runs of 2²⁰–2²² cells scored a
#: 462-node level 1.3–1.5× slower than one feature at a time, 2¹⁷–2¹⁸ as fast)
RUN_CELLS = 1 << 17


def _runs(bins: Bins, n_nodes: int, d: int) -> list[tuple[int, int]]:
    """(first feature, count) of the features scored together, in feature order: a categorical
    feature alone; consecutive continuous features of as many bins, up to ``RUN_CELLS`` cells."""
    out: list[tuple[int, int]] = []
    for j, fb in enumerate(bins.features):  # a loop over features
        if out and fb.kind != "categorical":
            j0, c = out[-1]
            head = bins.features[j0]
            cells = n_nodes * (c + 1) * (fb.n_bins + 1) * d
            if head.kind != "categorical" and head.n_bins == fb.n_bins and cells <= RUN_CELLS:
                out[-1] = (j0, c + 1)
                continue
        out.append((j, 1))
    return out


def best_splits(
    H: np.ndarray,
    cnt: np.ndarray,
    bins: Bins,
    criterion: str,
    mean: np.ndarray | None,
    min_samples_leaf: int,
    min_weight_leaf: float,
    whole: bool = False,
) -> LevelChoice:
    """The best split of every node whose histograms are H (N, total bins, d) and cnt;
    ``whole``: the channel sums are whole numbers (classification, every row weighing 1), so
    the cumulative sums may skip the empty bins (``_sparse_sums``)."""
    N, _, d = H.shape
    width = int(bins.n_bins.max()) + 1 if bins.features else 1
    ch = LevelChoice(
        np.full(N, -np.inf),
        np.full(N, -1, np.int64),
        np.full(N, np.nan),
        np.zeros(N, bool),
        np.zeros((N, width), bool),
        np.zeros((N, width), bool),
    )
    n_rows = cnt[:, : int(bins.n_bins[0]) + 1].sum(axis=1) if bins.features else np.zeros(N, np.int64)
    # a continuous winner's cut (bin, next non-empty bin, variant): its threshold and bins are
    # set once the winners are known
    cont = np.zeros(N, bool)
    cut_k = np.zeros(N, np.int64)
    cut_next = np.zeros(N, np.int64)
    cut_v = np.zeros(N, np.int8)
    at = np.arange(N)
    for j0, c in _runs(bins, N, d):  # a loop over runs of features
        fb, o = bins.features[j0], int(bins.offset[j0])
        s = fb.n_bins + 1
        if fb.kind == "categorical":
            G = _channels(H[:, o : o + s], criterion, mean)
            cj = cnt[:, o : o + s]
            seg, cat = np.nonzero(cj > 0)  # present pairs, by node then category
            cs = CategoryStats(seg, cat, G[seg, cat], cj[seg, cat], N, fb.n_bins)
            b, nl, pair_left = best_categorical(
                scan_categorical(cs, criterion, min_samples_leaf, min_weight_leaf)
            )
            left = np.zeros((N, s), bool)
            left[seg, cat] = pair_left
            miss_left = np.where(cj[:, -1] == 0, nl > n_rows - nl, left[:, -1])
            better = b > ch.proxy  # strict: the lower feature keeps a tie
            left[:, -1] = miss_left
            ch.threshold[better] = np.nan
            ch.left[better] = False
            ch.left[better, :s] = left[better]
            ch.present[better] = False
            ch.present[better, :s] = cj[better] > 0
            pick = np.zeros(N, np.int64)
        else:
            cj = cnt[:, o : o + c * s].reshape(N, c, s)
            if whole:
                sums = _sparse_sums(H, cnt, o, c, s)
            else:
                G = _channels(H[:, o : o + c * s], criterion, mean)
                sums = _dense_sums(G.reshape(N, c, s, G.shape[-1]), cj)
            bs, cuts, nxts, vs, nls = (
                a.reshape(N, c) for a in _continuous(sums, criterion, min_samples_leaf, min_weight_leaf)
            )
            # each node's first maximum over the run's features (NaN never wins, as below)
            pick = np.argmax(np.where(np.isnan(bs), -np.inf, bs), axis=1)
            b, nl, v = bs[at, pick], nls[at, pick], vs[at, pick]
            miss_left = np.where(cj[at, pick, -1] == 0, nl > n_rows - nl, v == 2)
            better = b > ch.proxy  # strict: the lower feature keeps a tie
            cut_k[better], cut_next[better] = cuts[at, pick][better], nxts[at, pick][better]
            cut_v[better] = v[better]
        cont[better] = fb.kind != "categorical"
        ch.proxy[better] = b[better]
        ch.feature[better] = j0 + pick[better]
        ch.missing_left[better] = miss_left[better]
    _continuous_winners(ch, cnt, bins, np.flatnonzero(cont), cut_k, cut_next, cut_v)
    return ch


def _continuous_winners(
    ch: LevelChoice,
    cnt: np.ndarray,
    bins: Bins,
    nodes: np.ndarray,
    cut_k: np.ndarray,
    cut_next: np.ndarray,
    cut_v: np.ndarray,
) -> None:
    """The threshold, left bins and present bins of the ``nodes`` whose best split is on a
    continuous feature: its known bins up to the cut go left (all of them when the missing
    values go alone), its missing bin as ``ch.missing_left`` says."""
    if nodes.size == 0:
        return
    f = ch.feature[nodes]
    k, v = cut_k[nodes], cut_v[nodes]
    thr = np.full(nodes.size, np.inf)  # missing values alone: every known value goes left
    for j in np.unique(f).tolist():  # a loop over the winning features
        cut = (f == j) & (v != 1)
        thr[cut] = bins.features[j].threshold(k[cut], cut_next[nodes[cut]])
    ch.threshold[nodes] = thr
    known = bins.n_bins[f]
    pos = np.arange(ch.left.shape[1])
    upto = np.where(v == 1, known, k)
    left = (pos[None, :] <= upto[:, None]) & (pos[None, :] < known[:, None])
    left[np.arange(nodes.size), known] = ch.missing_left[nodes]
    ch.left[nodes] = left
    cols = np.minimum(bins.offset[f][:, None] + pos[None, :], cnt.shape[1] - 1)
    ch.present[nodes] = (cnt[nodes[:, None], cols] > 0) & (pos[None, :] <= known[:, None])
