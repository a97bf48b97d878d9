"""CART candidates at a node: every binary cut or category subset its builder scans
(``splitting.continuous_candidates`` / ``categorical_candidates``), scored as the builder scores
them, and the test a candidate stands for."""

from __future__ import annotations

import numpy as np

from dtcore.cart import splitter as splitting
from dtcore.explain.node_data import NodeData, cart_params
from dtcore.explain.records import Candidates, FeatureSplits
from dtcore.tree import SplitTest


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
                c = splitting.categorical_candidates(x, nd.y, nd.w, n_categories=len(f.categories), **kw)
            else:
                c = splitting.continuous_candidates(x, nd.y, nd.w, **kw)
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
        branch, missing = splitting.categorical_branches(mask, counts, cand.n_left[k], cand.n_right[k])
        return SplitTest(j, cat_branch=tuple(branch.tolist()), missing_branch=int(missing))
    assert cand.threshold is not None and cand.missing_left is not None
    return SplitTest(
        j, cuts=(float(cand.threshold[k]),), missing_branch=0 if bool(cand.missing_left[k]) else 1
    )
