"""Level-wise CART growth over histograms.

Per level: one call to the source for the histograms of the nodes being split (the smaller
child of each split whose sibling is also split; the larger one is its parent's histogram minus
it, the sibling-subtraction trick), the best split of every node from them (``scoring``), the
children's statistics from the chosen bins, the exact builder's stop rules
(``cart.rules.pretest_rules`` through ``leaf_by_pretest``, ``cart.rules.decrease_ok``), and one
``route`` call that moves the rows down.  The nodes are recorded a level at a time and numbered in
pre-order as the exact builder does (``cart.assembly``, from each level's blocks).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dtcore.cart.assembly import LevelNodes, Splits, assemble
from dtcore.cart.hist.binning import Bins
from dtcore.cart.hist.histograms import HistogramSource, RouteStep
from dtcore.cart.hist.scoring import LevelChoice, best_splits
from dtcore.cart.rules import GrowParams, decrease_ok, leaf_by_pretest
from dtcore.criteria import class_impurity, impurity_improvement
from dtcore.tree import Tree

#: criteria whose impurity follows from channel sums (a histogram); the others need the rows
HIST_CRITERIA = ("gini", "entropy", "log_loss", "squared_error", "friedman_mse")

#: histogram cells (nodes × bins × (channels + row counts)) a level may hold at once; a level
#: with more nodes is built and scored in chunks of nodes, and the next one builds every child
#: (no subtraction from parents that were not kept)
KEEP_LIMIT = 1 << 25


def check_criterion(criterion: str) -> None:
    if criterion not in HIST_CRITERIA:
        raise ValueError(
            f"splitter='hist' supports the criteria {list(HIST_CRITERIA)}, not {criterion!r}: "
            "its impurity needs the rows, not per-bin sums; use splitter='best'"
        )


def node_stats(sums: np.ndarray, n_rows: np.ndarray, criterion: str, n_classes: int) -> dict[str, np.ndarray]:
    """Weight, value and impurity of nodes from their channel sums (N, d), as ``cart.grower`` has them."""
    wn = sums[:, 0]
    if n_classes:
        value = sums[:, 1:]
        imp = class_impurity(criterion, sums)
    else:
        safe = np.where(wn > 0, wn, 1.0)
        mean = sums[:, 1] / safe
        value = mean[:, None]
        imp = sums[:, 2] / safe - mean * mean
    return dict(weighted_n=wn, n_rows=n_rows, n_samples=n_rows, impurity=imp, value=value)


def _pairs(L: dict[str, np.ndarray], R: dict[str, np.ndarray], segs: np.ndarray) -> dict[str, np.ndarray]:
    """The children of the nodes ``segs`` in creation order: each node's left, then its right."""
    out = {}
    for key, left in L.items():
        both = np.empty((2 * segs.size,) + left.shape[1:], left.dtype)
        both[0::2], both[1::2] = left[segs], R[key][segs]
        out[key] = both
    return out


def grow_hist(
    source: HistogramSource,
    bins: Bins,
    params: GrowParams,
    on_level: Callable[[int], object] | None = None,
) -> Tree:
    """Grow a CART tree level by level from ``source``'s histograms (``on_level(depth)`` is
    called after each level, for progress)."""
    crit = "entropy" if params.criterion == "log_loss" else params.criterion
    check_criterion(crit)
    K = params.n_classes
    n_bins = bins.n_bins
    H: np.ndarray | None
    cnt: np.ndarray | None
    H, cnt = source.histograms(np.array([0]), 1)
    o0, s0 = 0, int(n_bins[0]) + 1
    root = node_stats(H[:, o0:s0].sum(axis=1), cnt[:, o0:s0].sum(axis=1), crit, K)
    w_total = float(root["weighted_n"][0])
    nodes = LevelNodes()
    ids = nodes.add(-1, 0, root)
    is_cat = np.array([fb.kind == "categorical" for fb in bins.features], bool)
    st, depth = root, 0
    if leaf_by_pretest(params, 0, st["n_rows"], st["weighted_n"], st["impurity"])[0]:
        return assemble(nodes, K)[0]
    while ids.size:
        mean = None if K else st["value"][:, 0]
        if H is None or cnt is None:  # too many nodes to hold their histograms at once: chunks of nodes
            ch, l_sum, l_n, tot_sum, tot_n = _chunked_level(source, bins, params, crit, mean, ids.size)
        else:
            ch, l_sum, l_n, tot_sum, tot_n = _level(H, cnt, bins, params, crit, mean, source.unit_weights)
        N = ids.size
        found = ch.proxy > -np.inf
        L = node_stats(l_sum, l_n, crit, K)
        R = node_stats(tot_sum - l_sum, tot_n - l_n, crit, K)
        with np.errstate(divide="ignore", invalid="ignore"):
            impr = impurity_improvement(
                crit, w_total, st["weighted_n"], st["impurity"], L["weighted_n"], L["impurity"],
                R["weighted_n"], R["impurity"],
            )  # fmt: skip
        split = found & decrease_ok(params, impr)
        segs = np.flatnonzero(split)
        if segs.size == 0:
            break
        kid_leaf_l = leaf_by_pretest(params, depth + 1, L["n_rows"], L["weighted_n"], L["impurity"])
        kid_leaf_r = leaf_by_pretest(params, depth + 1, R["n_rows"], R["weighted_n"], R["impurity"])
        kids = _pairs(L, R, segs)
        kid_ids = nodes.add(np.repeat(ids[segs], 2), depth + 1, kids)
        f = ch.feature[segs]
        nodes.splits.append(
            Splits(ids[segs], f, ch.threshold[segs], ch.missing_left[segs], kid_ids[0::2], kid_ids[1::2])
        )
        cat_tests = is_cat[f]  # a loop over the categorical tests only, not over every node split
        for s, j in zip(segs[cat_tests].tolist(), f[cat_tests].tolist(), strict=True):
            nb = bins.features[j].n_bins
            codes = np.flatnonzero(ch.present[s, :nb])
            nodes.add_subset(int(ids[s]), nb, codes, np.where(ch.left[s, codes], 0, 1))
        leaf = np.empty(2 * segs.size, bool)
        leaf[0::2], leaf[1::2] = kid_leaf_l[segs], kid_leaf_r[segs]
        go = ~leaf  # the children split further: the next level's slots, in creation order
        n_next = int(go.sum())
        slot = np.where(go, np.cumsum(go) - 1, -1)
        left_slot = np.full(N, -1, np.int64)
        right_slot = np.full(N, -1, np.int64)
        left_slot[segs], right_slot[segs] = slot[0::2], slot[1::2]
        next_ids, n_rows, pick = kid_ids[go], kids["n_rows"][go], np.repeat(segs, 2)[go]
        depth += 1
        if n_next == 0:  # every child is a leaf: no rows to move
            if on_level is not None:
                on_level(depth)
            break
        # number the children whose histograms get built first: the rest are parent − sibling
        built = _built(H is not None and n_next <= _chunk_nodes(bins, K), pick, left_slot, right_slot, n_rows)
        order = np.r_[np.flatnonzero(built), np.flatnonzero(~built)]
        new = np.empty(n_next + 1, np.int64)
        new[order], new[-1] = np.arange(n_next), -1  # slot −1 (a leaf) stays −1
        left_slot, right_slot = new[left_slot], new[right_slot]
        pick, n_rows = pick[order], n_rows[order]
        source.route(RouteStep(np.where(split, ch.feature, -1), ch.left, left_slot, right_slot))
        if on_level is not None:
            on_level(depth)
        is_left = left_slot[pick] == np.arange(n_next)
        r_sum, r_n = tot_sum - l_sum, tot_n - l_n
        kid_sums = np.where(is_left[:, None], l_sum[pick], r_sum[pick])
        kid_n = np.where(is_left, l_n[pick], r_n[pick])
        H, cnt = _next_histograms(source, H, cnt, pick, left_slot, right_slot, int(built.sum()), bins, K)
        st = node_stats(kid_sums, kid_n, crit, K)
        ids = next_ids[order]
    return assemble(nodes, K)[0]


def _level(
    H: np.ndarray,
    cnt: np.ndarray,
    bins: Bins,
    params: GrowParams,
    crit: str,
    mean: np.ndarray | None,
    unit_weights: bool,
) -> tuple[LevelChoice, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best split per node from its histograms, with the left child's and the node's sums
    (channels and rows); ``unit_weights``: the source's."""
    whole = params.n_classes > 0 and unit_weights
    ch = best_splits(H, cnt, bins, crit, mean, params.min_samples_leaf, params.min_weight_leaf, whole)
    N = H.shape[0]
    offset, n_bins = bins.offset, bins.n_bins
    width = int(n_bins.max()) + 1
    found = ch.proxy > -np.inf
    f = np.maximum(ch.feature, 0)
    # the left child's sums: the chosen feature's bins on the left, summed
    cols = np.minimum(offset[f][:, None] + np.arange(width)[None, :], H.shape[1] - 1)
    inside = np.arange(width)[None, :] <= n_bins[f][:, None]
    sel = ch.left & inside & found[:, None]
    rows = np.arange(N)[:, None]
    l_sum = np.einsum("nb,nbd->nd", sel.astype(np.float64), H[rows, cols])
    l_n = (sel * cnt[rows, cols]).sum(axis=1)
    s0 = int(n_bins[0]) + 1  # every feature's bins hold all the node's rows: take the first
    return ch, l_sum, l_n, H[:, :s0].sum(axis=1), cnt[:, :s0].sum(axis=1)


def _chunk_nodes(bins: Bins, n_classes: int) -> int:
    """Nodes whose histograms fit in ``KEEP_LIMIT`` cells."""
    d = n_classes + 1 if n_classes else 3
    return max(1, KEEP_LIMIT // (bins.total * (d + 1)))


def _chunked_level(
    source: HistogramSource, bins: Bins, params: GrowParams, crit: str, mean: np.ndarray | None, n_nodes: int
) -> tuple[LevelChoice, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``_level`` for a level too large to hold: histograms built chunk by chunk of nodes
    (one pass over the rows per chunk), each chunk scored and dropped."""
    step = _chunk_nodes(bins, params.n_classes)
    parts = []
    for a in range(0, n_nodes, step):  # a loop over chunks of nodes
        b = min(n_nodes, a + step)
        build = np.full(n_nodes, -1, np.int64)
        build[a:b] = np.arange(b - a)
        Hc, cc = source.histograms(build, b - a)
        parts.append(
            _level(Hc, cc, bins, params, crit, None if mean is None else mean[a:b], source.unit_weights)
        )
    chs = [p[0] for p in parts]
    ch = LevelChoice(
        *(np.concatenate([getattr(c, k) for c in chs]) for k in LevelChoice.__dataclass_fields__)
    )
    l_sum, l_n, tot_sum, tot_n = (np.concatenate([p[i] for p in parts]) for i in range(1, 5))
    return ch, l_sum, l_n, tot_sum, tot_n


def _built(
    keep: bool, parent: np.ndarray, left_slot: np.ndarray, right_slot: np.ndarray, n_rows: np.ndarray
) -> np.ndarray:
    """Which children of the next level get their histograms built: of two children that both
    go on, the one with fewer rows (ties: the left one) when the parents' histograms are kept;
    every other child."""
    n_next = parent.size
    mine = np.arange(n_next)
    is_left = left_slot[parent] == mine
    sibling = np.where(is_left, right_slot[parent], left_slot[parent])
    if not keep:
        return np.ones(n_next, bool)
    both = (left_slot[parent] >= 0) & (right_slot[parent] >= 0)
    sib_rows = n_rows[np.maximum(sibling, 0)]
    return ~both | (n_rows < sib_rows) | ((n_rows == sib_rows) & is_left)


def _next_histograms(
    source: HistogramSource,
    H: np.ndarray | None,
    cnt: np.ndarray | None,
    parent: np.ndarray,
    left_slot: np.ndarray,
    right_slot: np.ndarray,
    n_built: int,
    bins: Bins,
    n_classes: int,
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The next level's histograms, its slots numbered built children first (``_built``): those
    come from the source, the others are their parent's histogram minus their sibling's.
    (None, None) when the level has more nodes than ``KEEP_LIMIT`` cells hold: it is then built
    and scored in chunks of nodes, and the level after it builds every child."""
    n_next = parent.size
    if n_next > _chunk_nodes(bins, n_classes):
        return None, None
    build = np.full(n_next, -1, np.int64)
    build[:n_built] = np.arange(n_built)
    # the built children's histograms, with room after them for their siblings' (no copy of
    # the built ones into a bigger array: 84 MB a level at 10⁵ rows × 20 features, depth 9)
    Hn, cn = source.histograms(build, n_built, n_next)
    if n_built == n_next:
        return Hn, cn
    assert H is not None and cnt is not None  # subtraction needs the parents' histograms
    d = np.arange(n_built, n_next)
    sib = np.where(left_slot[parent[d]] == d, right_slot[parent[d]], left_slot[parent[d]])
    # parent − sibling, node by node into its place: no gathered copies of the (nodes × bins ×
    # channels) blocks, the same float subtraction
    for k, (p, b) in enumerate(zip(parent[d].tolist(), sib.tolist(), strict=True), n_built):  # nodes
        np.subtract(H[p], Hn[b], out=Hn[k])
        np.subtract(cnt[p], cn[b], out=cn[k])
    return Hn, cn
