"""Split reports: at one node, every candidate test of every feature with the scores the builder
gave it, which one won and why, and the worked arithmetic of a test (SPEC §2, §4-§6, §9).

The scores come from the builders' own kernels, not from a re-derivation:

* CART: ``splitting.continuous_candidates`` / ``categorical_candidates`` (the builder's scan);
  the builder takes the first maximum of ``proxy``; features tie to the lowest index.
* ID3 / C4.5 multiway tests: ``multiway.score_multiway``; C4.5's stop rule, selection rule
  (average gain, ratio) and stored threshold are ``c45.rules``' (the functions the builder
  calls); ID3's stop, positive-gain and tie rules are ``id3``'s (``leaf_reason``,
  ``is_positive``, ``better``, ``branches_ok``), its feature plan the estimator's ``plan_``.
* ID3 / C4.5 continuous cuts: :func:`cut_gains` shows the gain of *every* cut from
  ``cutpoints.cut_gain_arrays``, the very pass ``score_cuts`` picks its best cut from (same
  candidate rules: C4.5's 1e-5 distinct-value tolerance and MinSplit, or the textbook's every
  midpoint); the tests check that its best cut and gain equal ``score_cuts``'.

A report is computed on the rows that reach the node in the *final* tree (``Tree.reach``, with
the fractional weights of C4.5's missing-value spreading). For an unpruned tree these are the
training rows of the node; below a C4.5 subtree raising they are the rows the raised tree routes
there, which is what a user inspecting that tree sees.

Everything here is plain data (dicts of numpy arrays and numbers); :func:`jsonable` makes a
report JSON-safe. Tests are dicts ``{"feature", "cuts", "cat_branch", "missing_branch"}`` that
``TreeAssembler.set_split`` accepts (``dtcore.forcing`` grafts them).
"""
from __future__ import annotations

import math

import numpy as np

from . import splitting
from .criteria import entropy, gini, split_information
from .cutpoints import cut_gain_arrays, pick_j48
from .growing import decrease_ok, pretest_reason
from . import id3 as id3_rules
from .c45 import rules as c45_rules
from .multiway import SMALL, branch_class_counts, distribute_rows, reasonable_branches, score_multiway
from .tree import DISTRIBUTE, branch_index



# =============================================================================================
# the node's data

class NodeData:
    """The rows reaching one node and what the algorithm needs to score them."""

    def __init__(self, est, X, y, w, node: int = 0, tree=None):
        self.est = est
        self.schema = est.schema_
        self.algorithm = est.algorithm
        self.task = "classification" if self.schema.is_classifier else "regression"
        self.X_all = np.asarray(X, dtype=np.float64)
        self.y_all = np.asarray(y)
        self.w_all = np.ones(self.X_all.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
        self.tree = tree
        self.node = int(node)
        if tree is not None:
            if not 0 <= self.node < tree.node_count:
                raise ValueError(f"node {node}: the tree has nodes 0..{tree.node_count - 1}")
            rows, share = tree.reach(self.X_all, self.node)
            wn = self.w_all[rows] * share
            self.depth = int(tree.depth[self.node])
        else:
            if self.node != 0:
                raise ValueError("a node other than the root needs a trained tree")
            rows, wn = np.arange(self.X_all.shape[0]), self.w_all.copy()
            self.depth = 0
        keep = wn > 0
        self.rows, self.w = rows[keep], wn[keep]
        self.X = self.X_all[self.rows]
        self.y = self.y_all[self.rows]
        self.N = float(self.w.sum())
        self.W_root = float(self.w_all[self.w_all > 0].sum())
        self.C = len(self.schema.classes) if self.schema.is_classifier else 0
        if self.C:
            self.y = self.y.astype(np.int64)
            self.counts = np.bincount(self.y, weights=self.w, minlength=self.C)
        else:
            self.y = self.y.astype(np.float64)
            self.counts = None
        self.used = self._used_on_path()

    def _used_on_path(self) -> set:
        """Features used up above this node: multiway tests (ID3, C4.5) and ID3's binned ones."""
        if self.tree is None or self.algorithm == "cart":
            return set()
        used = set()
        for a in self.tree.path_to(self.node)[:-1]:
            j = int(self.tree.feature[a])
            if self.tree.is_categorical_test(a) or self.tree.cuts_of(a).size != 1 or (
                    self.algorithm == "id3" and _id3_plan(self)[j][0] == "bins"):
                used.add(j)
        return used


def _id3_plan(nd: NodeData) -> dict:
    """ID3's per-feature plan ("cat", n) | ("bins", cuts) | ("thr", None): the fitted ``plan_``,
    or for an unfitted estimator (root report) the plan ``fit`` would make from these data."""
    est = nd.est
    plan = getattr(est, "plan_", None)
    if plan is None:
        plan = getattr(nd, "_id3_plan", None)
    if plan is None:
        plan = id3_rules.feature_plan(nd.schema, nd.X_all, est.continuous, est.n_bins,
                                      est.random_state)[0]
        nd._id3_plan = plan
    return plan


# =============================================================================================
# every cut of a continuous feature, entropy family

def cut_gains(x, y, w, N: float, n_classes: int, *, rules: str = "c45", min_cases: float = 2.0,
              min_leaf: float = 0.0) -> dict:
    """Gain of every cut between adjacent sorted values of one feature at one node.

    The numbers are ``cutpoints.cut_gain_arrays``' (the pass ``score_cuts`` picks its best cut
    from): returns arrays over the sorted positions i (cut between i and i+1) that separate
    distinct known values — ``pos``, ``lo``, ``hi`` (the two values), ``midpoint``, ``gain``
    (ρ-weighted, raw: no MDL penalty), ``eligible`` (C4.5: both sides hold MinSplit weight;
    textbook: both sides ≥ ``min_leaf``), ``weight_left``/``weight_right`` (known weight), plus
    ``known_weight`` K, ``min_split`` and ``n_candidates`` (eligible cuts: what the MDL penalty
    counts).
    """
    if rules not in ("c45", "textbook"):
        raise ValueError(f"unknown cut rules {rules!r}")
    x = np.asarray(x, dtype=np.float64)
    order = np.argsort(x, kind="stable")
    V, Y, W = x[order][None, :], np.asarray(y)[order][None, :], np.asarray(w, np.float64)[order][None, :]
    n = V.shape[1]
    if n < 2 or N <= 0:
        K = float(np.cumsum(np.where(np.isnan(V), 0.0, W), axis=1)[0, -1]) if n else 0.0
        return dict(pos=np.zeros(0, np.int64), lo=np.zeros(0), hi=np.zeros(0),
                    midpoint=np.zeros(0), gain=np.zeros(0), eligible=np.zeros(0, bool),
                    weight_left=np.zeros(0), weight_right=np.zeros(0), known_weight=K,
                    min_split=float("nan"), n_candidates=0)
    cg = cut_gain_arrays(V, Y, W, N, n_classes, rules=rules, min_cases=min_cases,
                         min_leaf=min_leaf)
    pos = np.flatnonzero(cg.distinct[0])
    lo, hi = V[0, pos], V[0, pos + 1]
    mid = (lo + hi) / 2.0
    mid = np.where(mid == hi, lo, mid)  # as cutpoints._finish
    eligible = cg.eligible[0, pos]
    return dict(pos=pos, lo=lo, hi=hi, midpoint=mid, gain=cg.gain[0, pos], eligible=eligible,
                weight_left=cg.left_weight[0, pos], weight_right=cg.right_weight[0, pos],
                known_weight=float(cg.known_weight[0]), min_split=float(cg.min_split[0]),
                n_candidates=int(eligible.sum()))


def _snap(nd: NodeData, j: int, mid: float) -> float:
    """C4.5's stored threshold (``c45.rules.snap_threshold``, as the builder)."""
    if nd.est.threshold == "midpoint":
        return mid
    return c45_rules.snap_threshold(c45_rules.sorted_known(nd.X_all[:, j]), mid, nd.est.threshold)


# =============================================================================================
# per algorithm: every feature's candidates

def _entropy_continuous(nd: NodeData, j: int, rules: str) -> dict:
    est = nd.est
    c45 = nd.algorithm == "c45"
    cg = cut_gains(nd.X[:, j], nd.y, nd.w, nd.N, nd.C, rules=rules,
                   min_cases=float(est.min_cases) if c45 else 2.0,
                   min_leaf=0.0 if c45 else float(est.min_samples_leaf))
    K = cg["known_weight"]
    rec = dict(mode="threshold", known_share=K / nd.N if nd.N > 0 else 0.0,
               min_split=cg["min_split"], n_candidates=cg["n_candidates"])
    D = np.where(cg["eligible"], cg["gain"], -np.inf)
    split_info = split_information(np.stack([cg["weight_left"], cg["weight_right"],
                                             np.full(D.size, nd.N - K)], axis=1)) if D.size else np.zeros(0)
    penalty = math.log2(cg["n_candidates"]) / nd.N if (c45 and est.mdl_penalty and cg["n_candidates"]) else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(split_info * nd.N > SMALL, (cg["gain"] - penalty) / np.where(split_info > 0, split_info, 1), 0.0)
    rec["candidates"] = dict(threshold=cg["midpoint"], lo=cg["lo"], hi=cg["hi"], gain=cg["gain"],
                             score=cg["gain"], gain_ratio=ratio, split_info=split_info,
                             eligible=cg["eligible"], weight_left=cg["weight_left"],
                             weight_right=cg["weight_right"])
    rec["mdl_penalty"] = penalty
    best = None
    if D.size and np.isfinite(D).any():
        if c45:
            k = pick_j48(D)
            best = None if k < 0 else k
        else:
            k = int(np.argmax(D))
            best = k if id3_rules.is_positive(D[k]) else None
    if best is None:
        rec.update(best=None, usable=False, reason="no_cut" if not cg["n_candidates"] else "no_gain")
        return rec
    raw = float(cg["gain"][best])
    gain = raw - penalty
    if c45 and gain <= SMALL:
        rec.update(best=best, usable=False, reason="mdl", raw_gain=raw, gain=gain)
        return rec
    si = float(split_info[best])
    mid = float(cg["midpoint"][best])
    cut = _snap(nd, j, mid) if c45 else mid
    rec.update(best=best, usable=True, reason=None, raw_gain=raw, gain=gain, split_info=si,
               gain_ratio=(gain / si if si * nd.N > SMALL and si > 0 else 0.0), midpoint=mid,
               test=dict(feature=j, cuts=[cut], cat_branch=None, missing_branch=DISTRIBUTE))
    if not c45:  # ID3: plain ratio gain / split info (unknown rows a branch), as id3._find
        rec["gain_ratio"] = gain / si if si > 0 else 0.0
    return rec


def _entropy_multiway(nd: NodeData, j: int, n_branches: int, branch=None, cuts=None) -> dict:
    """A multiway test: one branch per category (or per interval of ID3's bins)."""
    x = nd.X[:, j]
    if branch is None:
        branch = x  # category codes, NaN = unknown
    counts, unknown = branch_class_counts(branch, nd.y, nd.w, n_branches, nd.C)
    s = score_multiway(counts, unknown)
    bw = counts.sum(axis=1)
    rec = dict(mode="multiway" if cuts is None else "intervals", known_share=s.known_weight / nd.N,
               branch_counts=counts, unknown_counts=unknown, gain=s.gain, raw_gain=s.gain,
               split_info=s.split_info, iv=s.iv, gain_ratio=s.gain_ratio, best=0,
               candidates=dict(score=np.array([s.gain]), gain=np.array([s.gain]),
                               gain_ratio=np.array([s.gain_ratio]), eligible=np.array([True])))
    if cuts is None:
        test = dict(feature=j, cuts=None, cat_branch=list(range(n_branches)), missing_branch=DISTRIBUTE)
    else:
        test = dict(feature=j, cuts=[float(c) for c in cuts], cat_branch=None, missing_branch=DISTRIBUTE)
    rec["test"] = test
    if nd.algorithm == "c45":
        ok = reasonable_branches(bw, float(nd.est.min_cases)) >= 2
        rec.update(usable=ok, reason=None if ok else "min_cases")
    else:
        ok = id3_rules.branches_ok(bw, nd.est.min_samples_leaf)
        rec["gain_ratio"] = s.gain / s.iv if s.iv > 0 else 0.0  # id3: plain IV
        rec["candidates"]["gain_ratio"] = np.array([rec["gain_ratio"]])
        if ok and not id3_rules.is_positive(s.gain):
            rec.update(usable=False, reason="no_gain")
        else:
            rec.update(usable=ok, reason=None if ok else "min_leaf")
    return rec


def _c45_features(nd: NodeData) -> list[dict]:
    out = []
    for j, f in enumerate(nd.schema.features):
        if f.is_categorical:
            if j in nd.used:
                out.append(dict(mode="multiway", usable=False, reason="used", best=None))
                continue
            out.append(_entropy_multiway(nd, j, len(f.categories)))
        else:
            out.append(_entropy_continuous(nd, j, "c45"))
    return out


def _id3_features(nd: NodeData) -> list[dict]:
    plan = _id3_plan(nd)
    out = []
    for j, f in enumerate(nd.schema.features):
        kind, arg = plan[j]
        if kind != "thr" and j in nd.used:
            out.append(dict(mode="multiway" if kind == "cat" else "intervals", usable=False,
                            reason="used", best=None))
        elif kind == "thr":
            out.append(_entropy_continuous(nd, j, "textbook"))
        elif kind == "cat":
            out.append(_entropy_multiway(nd, j, arg))
        else:
            x = nd.X[:, j]
            b = np.full(x.shape, -1, np.int64)
            known = ~np.isnan(x)
            b[known] = np.searchsorted(arg, x[known], side="left")
            out.append(_entropy_multiway(nd, j, arg.size + 1, branch=b, cuts=arg))
    return out


def _cart_params(nd: NodeData):
    est = nd.est
    return est._params_for(nd.X_all.shape[0], nd.w_all, nd.C)


def _cart_features(nd: NodeData) -> list[dict]:
    gp = _cart_params(nd)
    out = []
    kw = dict(criterion=gp.criterion, n_classes=nd.C or None, min_samples_leaf=gp.min_samples_leaf,
              min_weight_leaf=gp.min_weight_leaf, w_total=nd.W_root)
    for j, f in enumerate(nd.schema.features):
        x = nd.X[:, j]
        try:
            if f.is_categorical:
                c = splitting.categorical_candidates(x, nd.y, nd.w, n_categories=len(f.categories), **kw)
            else:
                c = splitting.continuous_candidates(x, nd.y, nd.w, **kw)
        except ValueError as exc:  # absolute_error with missing values or categories
            out.append(dict(mode="subset" if f.is_categorical else "threshold", usable=False,
                            reason="unsupported", detail=str(exc), best=None))
            continue
        proxy = c["proxy"]
        with np.errstate(divide="ignore", invalid="ignore"):
            local = c["improvement"] * nd.W_root / nd.N if nd.N > 0 else c["improvement"]
        score_name = "impurity_decrease"
        if not np.all(np.isfinite(local)):
            local, score_name = proxy, "proxy"
        cand = dict(score=local, proxy=proxy, improvement=c["improvement"],
                    impurity_left=c["impurity_left"], impurity_right=c["impurity_right"],
                    weight_left=c["weight_left"], weight_right=c["weight_right"],
                    n_left=c["n_left"], n_right=c["n_right"], eligible=np.ones(proxy.size, bool))
        rec = dict(mode="subset" if f.is_categorical else "threshold", candidates=cand,
                   score_name=score_name, impurity=float(c["impurity"]))
        if f.is_categorical:
            cand["left_mask"] = c["left_mask"]
        else:
            cand["threshold"], cand["missing_left"] = c["threshold"], c["missing_left"]
            cand["variant"] = c["variant"]
        if proxy.size == 0 or not np.isfinite(proxy).any():
            rec.update(best=None, usable=False, reason="no_cut")
            out.append(rec)
            continue
        k = int(np.argmax(proxy))  # the builder's first maximum in scan order
        rec.update(best=k, usable=True, reason=None, proxy=float(proxy[k]), gain=float(local[k]),
                   improvement=float(c["improvement"][k]))
        rec["test"] = _cart_test(nd, j, cand, k)
        out.append(rec)
    return out


def _cart_test(nd: NodeData, j: int, cand: dict, k: int) -> dict:
    if "left_mask" in cand:
        mask = np.asarray(cand["left_mask"][k], dtype=bool)
        n_cat = mask.size - 1
        x = nd.X[:, j]
        codes = np.where(np.isnan(x), n_cat, np.nan_to_num(x, nan=0.0)).astype(np.int64)
        counts = np.bincount(codes, minlength=n_cat + 1)
        branch, missing = splitting.categorical_branches(mask, counts, cand["n_left"][k], cand["n_right"][k])
        return dict(feature=j, cuts=None, cat_branch=branch.tolist(), missing_branch=int(missing))
    return dict(feature=j, cuts=[float(cand["threshold"][k])], cat_branch=None,
                missing_branch=0 if bool(cand["missing_left"][k]) else 1)


# =============================================================================================
# selection between features

def _select(nd: NodeData, feats: list[dict]):
    """(chosen feature or None, runner-up or None, ordering info, leaf reason or None)."""
    algo = nd.algorithm
    usable = [j for j, r in enumerate(feats) if r.get("usable")]
    info = {}
    if algo == "cart":
        key = lambda j: (feats[j]["proxy"], -j)  # noqa: E731  first maximum, lowest index on ties
        ranked = sorted(usable, key=key, reverse=True)
        chosen = ranked[0] if ranked else None
    elif algo == "c45":
        est = nd.est
        n_all = nd.X_all.shape[0]
        schema_feats = nd.schema.features
        many = {j: (schema_feats[j].is_categorical
                    and c45_rules.many_values(len(schema_feats[j].categories), n_all))
                for j in usable}
        multi_val = all(f.is_categorical for f in schema_feats) and all(
            c45_rules.many_values(len(f.categories), n_all) for f in schema_feats)
        pool = [j for j in usable if not many[j] or multi_val]
        sel = c45_rules.select_test([feats[j]["gain"] for j in usable],
                                    [feats[j]["gain_ratio"] for j in usable],
                                    [j in pool for j in usable], est.criterion)
        chosen = None if sel.best is None else usable[sel.best]
        if est.criterion == "gain":
            ranked = sorted(usable, key=lambda j: (feats[j]["gain"], -j), reverse=True)
        else:
            info["average_gain"] = sel.average
            for k, j in enumerate(usable):
                feats[j]["above_average"] = bool(sel.above_average[k])
                feats[j]["in_average"] = j in pool
            ranked = sorted(usable, key=lambda j: (feats[j]["above_average"], feats[j]["gain_ratio"], -j),
                            reverse=True)
    else:  # id3
        crit = nd.est.criterion
        sc = (lambda j: feats[j]["gain"]) if crit == "gain" else (lambda j: feats[j]["gain_ratio"])
        chosen, best = None, None
        for j in usable:
            if id3_rules.better(sc(j), best):
                chosen, best = j, sc(j)
        ranked = sorted(usable, key=lambda j: (sc(j), -j), reverse=True)
    runner = next((j for j in ranked if j != chosen), None)
    return chosen, runner, ranked, info


def _leaf_reason(nd: NodeData, feats, chosen) -> str | None:
    """Why the builder would stop here (None: it splits)."""
    est, algo = nd.est, nd.algorithm
    if nd.N <= 0:
        return "empty"
    if algo == "c45":
        reason = c45_rules.leaf_reason(nd.N, nd.counts, float(est.min_cases))
        if reason is not None:
            return reason
    elif algo == "id3":
        reason = id3_rules.leaf_reason(nd.counts, nd.N, nd.depth, est.min_samples_split,
                                       est.max_depth)
        if reason is not None:
            return reason
    else:
        reason = pretest_reason(_cart_params(nd), nd.depth, nd.rows.size, nd.N, feats_impurity(nd))
        if reason is not None:
            return reason
    if chosen is None:
        return "no_test"
    if algo == "id3":
        if id3_rules.weighted_gain(nd.N, nd.W_root, feats[chosen]["gain"]) < est.min_impurity_decrease:
            return "min_impurity_decrease"
    if algo == "cart":
        if not decrease_ok(_cart_params(nd), feats[chosen]["improvement"]):
            return "min_impurity_decrease"
    return None


def feats_impurity(nd: NodeData) -> float:
    """The node's impurity under the algorithm's criterion."""
    if nd.C:
        crit = _criterion(nd)
        return float(gini(nd.counts) if crit == "gini" else entropy(nd.counts))
    if nd.N <= 0:
        return 0.0
    mean = float(np.sum(nd.w * nd.y) / nd.N)
    return float(np.sum(nd.w * (nd.y - mean) ** 2) / nd.N)


def _criterion(nd: NodeData) -> str:
    if nd.algorithm == "cart":
        return _cart_params(nd).criterion
    return "entropy"


# =============================================================================================
# the report

def tree_test(tree, node: int) -> dict | None:
    """The test stored at ``node`` in the same form as the report's tests (None at a leaf)."""
    j = int(tree.feature[node])
    if j < 0:
        return None
    if tree.is_categorical_test(node):
        return dict(feature=j, cuts=None, cat_branch=tree.cat_branch_of(node).tolist(),
                    missing_branch=int(tree.missing_branch[node]))
    return dict(feature=j, cuts=tree.cuts_of(node).tolist(), cat_branch=None,
                missing_branch=int(tree.missing_branch[node]))


def same_test(a: dict | None, b: dict | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a["feature"] == b["feature"] and a["missing_branch"] == b["missing_branch"]
            and (a["cuts"] or None) == (b["cuts"] or None)
            and (a["cat_branch"] or None) == (b["cat_branch"] or None))


def split_report(est, X, y, sample_weight=None, node: int = 0, tree="fitted") -> dict:
    """Every feature's candidate tests at ``node`` with the builder's scores.

    ``est``: a fitted estimator (its tree and schema), or an unfitted one whose ``schema_`` is set
    (then only the root, ``tree=None``). X, y: the encoded training data (``est.encode`` / class
    codes), ``sample_weight`` the training weights. ``tree`` defaults to ``est.tree_``.

    Returns a dict: ``node``, ``algorithm``, ``criterion``, ``score_name``, ``weighted_n``,
    ``n_samples``, ``class_counts`` (or ``mean``), ``impurity``, ``features`` (one record per
    feature: ``name``, ``kind``, ``mode``, ``usable``, ``reason``, ``candidates`` arrays,
    ``best`` index, the best test's scores and ``test``), ``chosen`` / ``runner_up`` feature
    indices, ``ranking``, ``leaf_reason`` (why the builder would stop here, None if it splits),
    ``tree_test`` (what the tree holds at the node) and ``selection`` (C4.5's average gain).
    """
    if isinstance(tree, str):
        tree = getattr(est, "tree_", None)
    nd = NodeData(est, X, y, sample_weight, node, tree)
    return report_for(nd)


def report_for(nd: NodeData) -> dict:
    if nd.algorithm == "cart":
        feats = _cart_features(nd)
    elif nd.algorithm == "c45":
        feats = _c45_features(nd) if nd.N > 0 else []
    else:
        feats = _id3_features(nd) if nd.N > 0 else []
    for j, (r, f) in enumerate(zip(feats, nd.schema.features)):
        r["feature"], r["name"], r["kind"] = j, f.name, f.kind
    chosen, runner, ranked, info = _select(nd, feats) if feats else (None, None, [], {})
    leaf = _leaf_reason(nd, feats, chosen)
    score_name = ("impurity_decrease" if nd.algorithm == "cart" else
                  "gain_ratio" if nd.est.criterion == "gain_ratio" else "gain")
    out = dict(node=nd.node, algorithm=nd.algorithm, criterion=_criterion_name(nd),
               score_name=score_name, weighted_n=nd.N, n_samples=int(nd.rows.size),
               impurity=feats_impurity(nd), features=feats, chosen=chosen, runner_up=runner,
               ranking=ranked, leaf_reason=leaf, selection=info, depth=nd.depth,
               tree_test=tree_test(nd.tree, nd.node) if nd.tree is not None else None)
    if nd.C:
        out["class_counts"] = nd.counts
        out["classes"] = list(nd.schema.classes)
    else:
        out["mean"] = float(np.sum(nd.w * nd.y) / nd.N) if nd.N > 0 else float("nan")
    return out


def _criterion_name(nd: NodeData) -> str:
    if nd.algorithm == "cart":
        return _cart_params(nd).criterion
    return nd.est.criterion


def explainer_data(est, X, y, sample_weight=None, node: int = 0, tree="fitted") -> NodeData:
    if isinstance(tree, str):
        tree = getattr(est, "tree_", None)
    return NodeData(est, X, y, sample_weight, node, tree)


# =============================================================================================
# one test: its children, the arithmetic

def route_test(nd: NodeData, test: dict):
    """Branch of each node row under ``test`` (-1: missing / no branch; ``tree.branch_index``)
    and the branch count."""
    x = nd.X[:, test["feature"]]
    if test.get("cat_branch") is not None:
        table = np.asarray(test["cat_branch"], np.int64)
        b = branch_index(x, cat_branch=table)
        V = int(table.max()) + 1 if table.size else 0
        if test["missing_branch"] >= 0:
            V = max(V, int(test["missing_branch"]) + 1)
    else:
        cuts = np.asarray(test["cuts"], np.float64)
        b = branch_index(x, cuts=cuts)
        V = cuts.size + 1
    return b, V


def children_rows(nd: NodeData, test: dict):
    """Per branch (row positions within the node, weights): unknown rows go to the fixed missing
    branch, or to every branch with share K_v/K (C4.5's distribution, uniform if K = 0:
    ``multiway.distribute_rows``)."""
    b, V = route_test(nd, test)
    mb = int(test.get("missing_branch", DISTRIBUTE))
    if mb >= 0:
        b = np.where(b < 0, mb, b)
    return distribute_rows(b, nd.w, V)[0]


def branch_labels(schema, test: dict, precision: int = 4) -> list[str]:
    """Plain (unescaped) text of each branch's condition."""
    from .export import fmt_num
    f = schema.features[test["feature"]]
    if test.get("cat_branch") is not None:
        table = list(test["cat_branch"])
        V = max(table + [int(test["missing_branch"])]) + 1
        out = []
        for v in range(V):
            cats = [f.categories[c] for c, bb in enumerate(table) if bb == v]
            out.append(f"= {cats[0]}" if len(cats) == 1 else "∈ {" + ", ".join(cats) + "}")
        return out
    cuts = list(test["cuts"])
    if len(cuts) == 1 and math.isinf(cuts[0]):
        return ["is known", "is missing"]
    s = [fmt_num(c, precision) for c in cuts]
    out = [f"≤ {s[0]}"]
    out += [f"∈ ({a}, {b}]" for a, b in zip(s[:-1], s[1:])]
    out.append(f"> {s[-1]}")
    return out


def arithmetic(nd: NodeData, test: dict, report: dict | None = None) -> dict:
    """The worked arithmetic of ``test`` at the node, as numbers for formulas.

    Entropy family (ID3, C4.5, CART with entropy): ``kind="entropy"`` with the node's class
    counts, known share ρ = K/N, Ent(D̃) of the known rows, per branch the counts, r̃_v = K_v/K
    and Ent(D̃^v), the weighted sum, Gain = ρ·(Ent(D̃) − Σ r̃_v Ent(D̃^v)), IV (known branches),
    C4.5's split information (unknown rows one more branch) and the ratio the algorithm uses;
    C4.5 continuous cuts add the MDL penalty. CART gini: ``kind="gini"``; regression:
    ``kind="mse"`` (means and mean squared errors). Missing rows are counted where the
    algorithm counts them: C4.5/ID3 keep them out of D̃ (ρ), CART sends them down its branch.
    """
    algo = nd.algorithm
    j = test["feature"]
    labels = branch_labels(nd.schema, test)
    b, V = route_test(nd, test)
    crit = _criterion(nd)
    out = dict(feature=j, name=nd.schema.features[j].name, labels=labels, algorithm=algo,
               N=nd.N, test=test)
    if nd.C and crit == "entropy" and algo != "cart":
        counts, unknown = branch_class_counts(b, nd.y, nd.w, V, nd.C)
        K = float(counts.sum())
        bw = counts.sum(axis=1)
        known_tot = counts.sum(axis=0)
        ent_known = float(entropy(known_tot))
        ents = entropy(counts)
        r = bw / K if K > 0 else np.zeros(V)
        cond = float(np.sum(r * ents))
        rho = K / nd.N if nd.N > 0 else 0.0
        s = score_multiway(counts, unknown)
        out.update(kind="entropy", classes=list(nd.schema.classes), node_counts=nd.counts,
                   ent_D=float(entropy(nd.counts)), known_counts=known_tot, unknown_counts=unknown,
                   K=K, rho=rho, ent_known=ent_known, branch_counts=counts, branch_weights=bw,
                   r=r, branch_entropy=ents, conditional=cond, gain=s.gain,
                   gain_textbook=rho * (ent_known - cond), iv=float(split_information(bw)),
                   split_info=s.split_info, missing=bool(nd.N - K > SMALL))
        continuous = test.get("cuts") is not None and len(test["cuts"]) == 1
        if algo == "c45":
            out["ratio_of"] = "split_info"
            penalty = 0.0
            if continuous and report is not None:
                penalty = float(report["features"][j].get("mdl_penalty", 0.0))
                out["n_candidates"] = int(report["features"][j].get("n_candidates", 0))
            out["mdl_penalty"] = penalty
            out["gain_after_penalty"] = s.gain - penalty
            denom = s.split_info
            out["gain_ratio"] = (s.gain - penalty) / denom if denom * nd.N > SMALL else 0.0
        else:
            out["ratio_of"] = "split_info" if continuous else "iv"
            denom = out["split_info"] if continuous else out["iv"]
            out["gain_ratio"] = s.gain / denom if denom > 0 else 0.0
        return out
    # CART: missing rows go down the learned branch
    mb = int(test.get("missing_branch", 1))
    b = np.where(b < 0, mb if mb >= 0 else 1, b)
    if nd.C:
        counts = np.zeros((V, nd.C))
        np.add.at(counts, (b, nd.y), nd.w)
        bw = counts.sum(axis=1)
        f = gini if crit == "gini" else entropy
        imps = f(counts)
        imp = float(f(nd.counts))
        weighted = float(np.sum(bw / nd.N * imps))
        out.update(kind="gini" if crit == "gini" else "entropy_cart", classes=list(nd.schema.classes),
                   node_counts=nd.counts, impurity=imp, branch_counts=counts, branch_weights=bw,
                   branch_impurity=imps, weighted=weighted, decrease=imp - weighted,
                   weighted_decrease=nd.N / nd.W_root * (imp - weighted), W_root=nd.W_root,
                   missing=bool(np.isnan(nd.X[:, j]).any()))
        return out
    bw = np.bincount(b, weights=nd.w, minlength=V)
    sy = np.bincount(b, weights=nd.w * nd.y, minlength=V)
    n = np.bincount(b, minlength=V)
    mean = np.where(bw > 0, sy / np.where(bw > 0, bw, 1), 0.0)
    mse = np.bincount(b, weights=nd.w * (nd.y - mean[b]) ** 2, minlength=V) / np.where(bw > 0, bw, 1)
    node_mean = float(np.sum(nd.w * nd.y) / nd.N)
    node_mse = float(np.sum(nd.w * (nd.y - node_mean) ** 2) / nd.N)
    weighted = float(np.sum(bw / nd.N * mse))
    out.update(kind="mse", mean=node_mean, impurity=node_mse, branch_weights=bw, branch_n=n,
               branch_mean=mean, branch_impurity=mse, weighted=weighted, decrease=node_mse - weighted,
               weighted_decrease=nd.N / nd.W_root * (node_mse - weighted), W_root=nd.W_root,
               missing=bool(np.isnan(nd.X[:, j]).any()), criterion=crit)
    return out


def children_summary(nd: NodeData, test: dict) -> list[dict]:
    """Per branch: label, weight, rows and class counts (or mean) — the preview of a test."""
    labels = branch_labels(nd.schema, test)
    out = []
    for v, (pos, cw) in enumerate(children_rows(nd, test)):
        rec = dict(branch=v, label=labels[v] if v < len(labels) else str(v),
                   weight=float(cw.sum()), n_rows=int(pos.size))
        if nd.C:
            rec["class_counts"] = np.bincount(nd.y[pos], weights=cw, minlength=nd.C)
        else:
            rec["mean"] = float(np.sum(cw * nd.y[pos]) / cw.sum()) if cw.sum() > 0 else float("nan")
        out.append(rec)
    return out


def candidate_test(nd: NodeData, report: dict, feature: int, index: int) -> dict:
    """The test of candidate ``index`` of ``feature`` (for previews and forcing)."""
    rec = report["features"][feature]
    if rec["mode"] in ("multiway", "intervals"):
        return rec["test"]
    cand = rec["candidates"]
    if nd.algorithm == "cart":
        return _cart_test(nd, feature, cand, index)
    mid = float(cand["threshold"][index])
    cut = _snap(nd, feature, mid) if nd.algorithm == "c45" else mid
    return dict(feature=feature, cuts=[cut], cat_branch=None, missing_branch=DISTRIBUTE)


# =============================================================================================
# JSON

def jsonable(obj):
    """Numpy arrays and scalars → lists and numbers; non-finite floats → None."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        x = float(obj)
        return x if math.isfinite(x) else None
    return obj
