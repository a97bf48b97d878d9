"""CART candidates at a node: every binary cut or category subset its builder scans
(``continuous_candidates`` / ``categorical_candidates``: one feature at one node, the split
explorer's view with the same kernels as training, ``dtcore.cart.splitter`` and
``dtcore.cart.categorical``), scored as the builder scores them, and the test a candidate
stands for."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dtcore.cart.absolute_error import prefix_suffix_abs_errors
from dtcore.cart.categorical import (
    CategoricalScan,
    categorical_branches,
    category_stats,
    scan_categorical,
    split_proxies,
)
from dtcore.cart.splitter import MISSING_LEFT, missing_goes_left, prepare_scan, scan_sorted, thresholds
from dtcore.cart.splitter import Candidates as ScanCandidates
from dtcore.criteria import (
    CLASSIFICATION_CRITERIA,
    EPSILON,
    channel_impurity,
    friedman_score,
    impurity_improvement,
)
from dtcore.explain.node_data import NodeData, cart_params
from dtcore.explain.records import Candidates, FeatureSplits
from dtcore.routing import SplitTest

LISTED_LIMIT = 512  # the explorer's subsets (and one-vs-rest tests) per categorical feature


def cart_features(nd: NodeData) -> list[FeatureSplits]:
    """Every feature's candidates; the best is the builder's first maximum of ``proxy``."""
    gp = cart_params(nd)
    out = []
    kw = dict(
        criterion=gp.criterion,
        n_classes=nd.C or None,
        min_samples_leaf=gp.min_samples_leaf,
        min_weight_leaf=gp.min_weight_leaf,
        w_total=nd.W_root,
    )
    for j, f in enumerate(nd.schema.features):
        x = nd.X[:, j]
        mode = "subset" if f.is_categorical else "threshold"
        try:
            if f.is_categorical:
                c = categorical_candidates(x, nd.y, nd.w, n_categories=len(f.categories), **kw)
            else:
                c = continuous_candidates(x, nd.y, nd.w, **kw)
        except ValueError as exc:  # absolute_error with missing values or categories
            out.append(
                FeatureSplits(
                    feature=j,
                    name=f.name,
                    kind=f.kind,
                    mode=mode,
                    usable=False,
                    reason="unsupported",
                    detail=str(exc),
                )
            )
            continue
        proxy = c["proxy"]
        with np.errstate(divide="ignore", invalid="ignore"):
            local = c["improvement"] * nd.W_root / nd.N if nd.N > 0 else c["improvement"]
        score_name = "impurity_decrease"
        if not np.all(np.isfinite(local)):
            local, score_name = proxy, "proxy"
        cand = Candidates(
            score=local,
            proxy=proxy,
            improvement=c["improvement"],
            impurity_left=c["impurity_left"],
            impurity_right=c["impurity_right"],
            weight_left=c["weight_left"],
            weight_right=c["weight_right"],
            n_left=c["n_left"],
            n_right=c["n_right"],
            eligible=np.asarray(c.get("eligible", np.ones(proxy.size, bool)), dtype=bool),
            friedman=c.get("friedman"),
        )
        if f.is_categorical:
            cand.left_mask = c["left_mask"]
            cand.one_vs_rest, cand.split_impurity = c["one_vs_rest"], c["split_impurity"]
        else:
            cand.threshold, cand.missing_left = c["threshold"], c["missing_left"]
            cand.variant = c["variant"]
        rec = FeatureSplits(
            feature=j,
            name=f.name,
            kind=f.kind,
            mode=mode,
            candidates=cand,
            score_name=score_name,
            impurity=float(c["impurity"]),
        )
        assert cand.eligible is not None
        scanned = np.where(cand.eligible, proxy, -np.inf)  # the builder's candidates only
        if proxy.size == 0 or not np.isfinite(scanned).any():
            rec.usable, rec.reason = False, "no_cut"
            out.append(rec)
            continue
        k = int(np.argmax(scanned))  # the builder's first maximum in scan order
        rec.best, rec.usable, rec.reason = k, True, None
        rec.proxy, rec.gain, rec.improvement = float(proxy[k]), float(local[k]), float(c["improvement"][k])
        if cand.friedman is not None:
            rec.friedman = float(cand.friedman[k])
        rec.test = cart_test(nd, j, cand, k)
        out.append(rec)
    return out


def cart_test(nd: NodeData, j: int, cand: Candidates, k: int) -> SplitTest:
    """The test of CART candidate k of feature j (a category subset or a cut)."""
    if cand.left_mask is not None:
        assert cand.n_left is not None and cand.n_right is not None
        mask = np.asarray(cand.left_mask[k], dtype=bool)
        n_cat = mask.size - 1
        x = nd.X[:, j]
        codes = np.where(np.isnan(x), n_cat, np.nan_to_num(x, nan=0.0)).astype(np.int64)
        counts = np.bincount(codes, minlength=n_cat + 1)
        branch, missing = categorical_branches(mask, counts, cand.n_left[k], cand.n_right[k])
        return SplitTest(j, cat_branch=tuple(branch.tolist()), missing_branch=int(missing))
    assert cand.threshold is not None and cand.missing_left is not None
    return SplitTest(
        j, cuts=(float(cand.threshold[k]),), missing_branch=0 if bool(cand.missing_left[k]) else 1
    )


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
        prepare_scan(xs, Gs, start, length, criterion),
        min_samples_leaf=min_samples_leaf,
        min_weight_leaf=min_weight_leaf,
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


def _own_impurities(
    c: ScanCandidates, Gs: np.ndarray, criterion: str
) -> tuple[np.ndarray, np.ndarray, float]:
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
        xp = split_proxies(criterion, xl, xr, xn, n_tot[0] - xn, min_samples_leaf, min_weight_leaf)
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
