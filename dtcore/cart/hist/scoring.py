"""Best split of every node of a level from its histograms, with the exact splitter's rules.

Continuous feature, per node: the candidate cuts lie after every non-empty known bin that has a
non-empty known bin after it; left sums are cumulative sums over the bins.  As in
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


def _continuous(
    G: np.ndarray, cnt: np.ndarray, criterion: str, msl: int, mwl: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best cut of one continuous feature per node: (proxy, bin, next non-empty bin, variant
    (0 right, 1 alone, 2 left), n_left).  G: (N, s, d) channels, cnt: (N, s) rows; bin s−1 missing."""
    N, s, d = G.shape
    nb = s - 1
    Ck = np.cumsum(G[:, :nb], axis=1)
    nk = np.cumsum(cnt[:, :nb], axis=1)
    miss, n_miss = G[:, nb], cnt[:, nb]
    n_known = nk[:, -1] if nb else np.zeros(N, np.int64)
    tot = (Ck[:, -1] if nb else 0.0) + miss
    n_tot = n_known + n_miss
    pos = np.arange(nb)
    first = np.where(cnt[:, :nb] > 0, pos, nb)
    after = np.full((N, nb), nb)  # next non-empty known bin after b
    if nb > 1:
        after[:, :-1] = np.minimum.accumulate(first[:, :0:-1], axis=1)[:, ::-1]
    valid = (cnt[:, :nb] > 0) & (after < nb)
    best = np.full(N, -np.inf)
    where = np.zeros(N, np.int64)
    variant = np.zeros(N, np.int8)
    n_left = np.zeros(N, np.int64)
    rows = np.arange(N)

    has_miss = n_miss > 0

    def scan(mask: np.ndarray, v: int) -> None:
        """Score the valid cuts only (deep nodes leave most bins empty), missing values right
        (v = 0) or left (v = 2); keep each node's first maximum when it beats earlier variants."""
        vi = np.flatnonzero(mask.ravel())
        if vi.size == 0:
            return
        node, k = np.divmod(vi, nb)
        L = Ck.reshape(-1, d)[vi]
        nl = nk.ravel()[vi]
        if v == 2:
            L += miss[node]
            nl = nl + n_miss[node]
        p = _proxies(criterion, L, tot[node] - L, nl, n_tot[node] - nl, msl, mwl)
        b, w = best_per_segment(node, p, N)  # candidates by node, then bin: the lowest bin first
        better = np.flatnonzero(b > best)
        best[better], where[better], variant[better] = b[better], k[w[better]], v
        n_left[better] = nl[w[better]]

    if nb > 1:
        scan(valid, 0)
    if has_miss.any() and nb:
        p = split_proxies(criterion, Ck[:, -1], miss, n_known, n_miss, msl, mwl)
        p = np.where(has_miss & (n_known > 0), p, -np.inf)
        better = np.flatnonzero(p > best)
        best[better], where[better], variant[better] = p[better], nb - 1, 1
        n_left[better] = n_known[better]
        if nb > 1:
            scan(valid & has_miss[:, None], 2)
    nxt = after[rows, np.minimum(where, max(nb - 1, 0))] if nb else where
    return best, where, nxt, variant, n_left


def best_splits(
    H: np.ndarray,
    cnt: np.ndarray,
    bins: Bins,
    criterion: str,
    mean: np.ndarray | None,
    min_samples_leaf: int,
    min_weight_leaf: float,
) -> LevelChoice:
    """The best split of every node whose histograms are H (N, total bins, d) and cnt."""
    N = H.shape[0]
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
    for j, (fb, o) in enumerate(zip(bins.features, bins.offset, strict=True)):  # a loop over features
        s = fb.n_bins + 1
        G = _channels(H[:, o : o + s], criterion, mean)
        cj = cnt[:, o : o + s]
        no_miss = cj[:, -1] == 0
        left = np.zeros((N, s), bool)
        if fb.kind == "categorical":
            seg, cat = np.nonzero(cj > 0)  # present pairs, by node then category
            cs = CategoryStats(seg, cat, G[seg, cat], cj[seg, cat], N, fb.n_bins)
            b, nl, pair_left = best_categorical(
                scan_categorical(cs, criterion, min_samples_leaf, min_weight_leaf)
            )
            left[seg, cat] = pair_left
            miss_left = np.where(no_miss, nl > n_rows - nl, left[:, -1])
            thr = np.full(N, np.nan)
        else:
            b, k, nxt, v, nl = _continuous(G, cj, criterion, min_samples_leaf, min_weight_leaf)
            left[:, :-1] = np.arange(s - 1)[None, :] <= np.where(v == 1, s, k)[:, None]
            miss_left = np.where(no_miss, nl > n_rows - nl, v == 2)
            found = b > -np.inf
            thr = np.full(N, np.inf)
            cut = found & (v != 1)
            if cut.any():
                thr[cut] = fb.threshold(k[cut], nxt[cut])
        better = b > ch.proxy  # strict: the lower feature keeps a tie
        if not better.any():
            continue
        left[:, -1] = miss_left
        ch.proxy[better] = b[better]
        ch.feature[better] = j
        ch.threshold[better] = thr[better]
        ch.missing_left[better] = miss_left[better]
        ch.left[better] = False
        ch.left[better, :s] = left[better]
        ch.present[better] = False
        ch.present[better, :s] = cj[better] > 0
    return ch
