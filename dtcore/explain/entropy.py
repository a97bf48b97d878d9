"""ID3 and C4.5 candidates at a node: every cut of a continuous feature (from the builders' own
cut pass) and the multiway tests of categorical features or ID3's bins, with the decisions made
by ``c45.rules`` and ``id3`` (the functions the builders call)."""

from __future__ import annotations

from typing import Any

import numpy as np

from dtcore.c45 import rules as c45_rules
from dtcore.criteria import SMALL, split_information
from dtcore.entropy.cutpoints import cut_gain_arrays, cut_midpoint, mdl_penalty, pick_j48
from dtcore.entropy.multiway import branch_class_counts, reasonable_branches, score_multiway
from dtcore.explain.node_data import NodeData, id3_plan
from dtcore.explain.records import Candidates, CutGains, FeatureSplits
from dtcore.id3 import rules as id3_rules
from dtcore.routing import DISTRIBUTE, SplitTest, branch_index

# =============================================================================================
# every cut of a continuous feature


def cut_gains(
    x: Any,
    y: Any,
    w: Any,
    N: float,
    n_classes: int,
    *,
    rules: str = "c45",
    min_cases: float = 2.0,
    min_leaf: float = 0.0,
) -> CutGains:
    """Gain of every cut between adjacent sorted values of one feature at one node.

    The numbers are ``cutpoints.cut_gain_arrays``' (the pass ID3's ``score_textbook_cuts`` picks
    its best cut from; C4.5's ``score_cuts_batch`` computes the same sums): arrays over the sorted positions i (cut between i and i+1) that separate
    distinct known values — ``pos``, ``lo``, ``hi`` (the two values), ``midpoint``, ``gain``
    (ρ-weighted, raw: no MDL penalty), ``eligible`` (C4.5: both sides hold MinSplit weight;
    textbook: both sides hold ≥ ``min_leaf`` known rows), ``weight_left``/``weight_right`` (known weight), plus
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
        return CutGains(
            pos=np.zeros(0, np.int64),
            lo=np.zeros(0),
            hi=np.zeros(0),
            midpoint=np.zeros(0),
            gain=np.zeros(0),
            eligible=np.zeros(0, bool),
            weight_left=np.zeros(0),
            weight_right=np.zeros(0),
            known_weight=K,
            min_split=float("nan"),
            n_candidates=0,
        )
    cg = cut_gain_arrays(V, Y, W, N, n_classes, rules=rules, min_cases=min_cases, min_leaf=min_leaf)
    assert cg.gain is not None  # asked for with the default gains=True
    pos = np.flatnonzero(cg.distinct[0])
    lo, hi = V[0, pos], V[0, pos + 1]
    mid = cut_midpoint(lo, hi)
    eligible = cg.eligible[0, pos]
    return CutGains(
        pos=pos,
        lo=lo,
        hi=hi,
        midpoint=mid,
        gain=cg.gain[0, pos],
        eligible=eligible,
        weight_left=cg.left_weight[0, pos],
        weight_right=cg.right_weight[0, pos],
        known_weight=float(cg.known_weight[0]),
        min_split=float(cg.min_split[0]),
        n_candidates=int(eligible.sum()),
    )


def snap(nd: NodeData, j: int, lo: float, hi: float) -> float:
    """C4.5's stored threshold of a cut between the node's values ``lo`` < ``hi``
    (``c45.rules.snap_threshold``, as the builder)."""
    if nd.est.threshold == "midpoint":
        return float(cut_midpoint(lo, hi))
    return c45_rules.snap_threshold(c45_rules.snap_values(nd.X_all[:, j]), lo, hi, nd.est.threshold)


def _named(nd: NodeData, j: int) -> dict[str, Any]:
    f = nd.schema.features[j]
    return dict(feature=j, name=f.name, kind=f.kind)


def entropy_continuous(nd: NodeData, j: int, rules: str) -> FeatureSplits:
    """Every cut of continuous feature j and the best one (C4.5's or ID3's rules)."""
    est = nd.est
    c45 = nd.algorithm == "c45"
    cg = cut_gains(
        nd.X[:, j],
        nd.y,
        nd.w,
        nd.N,
        nd.C,
        rules=rules,
        min_cases=float(est.min_cases) if c45 else 2.0,
        min_leaf=0.0 if c45 else float(est.min_samples_leaf),
    )
    K = cg.known_weight
    D = np.where(cg.eligible, cg.gain, -np.inf)
    split_info = (
        split_information(np.stack([cg.weight_left, cg.weight_right, np.full(D.size, nd.N - K)], axis=1))
        if D.size
        else np.zeros(0)
    )
    penalty = (
        float(mdl_penalty(cg.n_candidates, nd.N)) if (c45 and est.mdl_penalty and cg.n_candidates) else 0.0
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(
            split_info * nd.N > SMALL, (cg.gain - penalty) / np.where(split_info > 0, split_info, 1), 0.0
        )
    rec = FeatureSplits(
        **_named(nd, j),
        mode="threshold",
        known_share=K / nd.N if nd.N > 0 else 0.0,
        min_split=cg.min_split,
        n_candidates=cg.n_candidates,
        mdl_penalty=penalty,
        candidates=Candidates(
            threshold=cg.midpoint,
            lo=cg.lo,
            hi=cg.hi,
            gain=cg.gain,
            score=cg.gain,
            gain_ratio=ratio,
            split_info=split_info,
            eligible=cg.eligible,
            weight_left=cg.weight_left,
            weight_right=cg.weight_right,
        ),
    )
    best = None
    if D.size and np.isfinite(D).any():
        if c45:
            k = pick_j48(D)
            best = None if k < 0 else k
        else:
            k = int(np.argmax(D))
            best = k if id3_rules.is_positive(D[k]) else None
    if best is None:
        rec.usable, rec.reason = False, "no_cut" if not cg.n_candidates else "no_gain"
        return rec
    raw = float(cg.gain[best])
    gain = raw - penalty
    rec.best, rec.raw_gain, rec.gain = best, raw, gain
    if c45 and gain <= SMALL:
        rec.usable, rec.reason = False, "mdl"
        return rec
    si = float(split_info[best])
    mid = float(cg.midpoint[best])
    cut = snap(nd, j, float(cg.lo[best]), float(cg.hi[best])) if c45 else mid
    rec.usable, rec.split_info, rec.midpoint = True, si, mid
    if c45:
        rec.gain_ratio = gain / si if si * nd.N > SMALL and si > 0 else 0.0
    else:  # ID3: plain ratio gain / split info (unknown rows a branch), as ID3's grower (dtcore.id3.growth)
        rec.gain_ratio = gain / si if si > 0 else 0.0
    rec.test = SplitTest(j, cuts=(cut,), missing_branch=DISTRIBUTE)
    return rec


def entropy_multiway(
    nd: NodeData, j: int, n_branches: int, branch: Any = None, cuts: Any = None
) -> FeatureSplits:
    """A multiway test: one branch per category (or per interval of ID3's bins)."""
    x = nd.X[:, j]
    if branch is None:
        branch = x  # category codes, NaN = unknown
    counts, unknown = branch_class_counts(branch, nd.y, nd.w, n_branches, nd.C)
    s = score_multiway(counts, unknown)
    bw = counts.sum(axis=1)
    if cuts is None:
        test = SplitTest(j, cat_branch=tuple(range(n_branches)), missing_branch=DISTRIBUTE)
    else:
        test = SplitTest(j, cuts=tuple(float(c) for c in cuts), missing_branch=DISTRIBUTE)
    rec = FeatureSplits(
        **_named(nd, j),
        mode="multiway" if cuts is None else "intervals",
        known_share=s.known_weight / nd.N,
        branch_counts=counts,
        unknown_counts=unknown,
        gain=s.gain,
        raw_gain=s.gain,
        split_info=s.split_info,
        iv=s.iv,
        gain_ratio=s.gain_ratio,
        best=0,
        test=test,
        candidates=Candidates(
            score=np.array([s.gain]),
            gain=np.array([s.gain]),
            gain_ratio=np.array([s.gain_ratio]),
            eligible=np.array([True]),
        ),
    )
    assert rec.candidates is not None
    if nd.algorithm == "c45":
        ok = reasonable_branches(bw, float(nd.est.min_cases)) >= 2
        rec.usable, rec.reason = ok, None if ok else "min_cases"
    else:
        rows = id3_rules.branch_rows(np.asarray(branch), nd.w, n_branches)
        ok = id3_rules.branches_ok(rows, nd.est.min_samples_leaf)
        rec.gain_ratio = s.gain / s.iv if s.iv > 0 else 0.0  # id3: plain IV
        rec.candidates.gain_ratio = np.array([rec.gain_ratio])
        if ok and not id3_rules.is_positive(s.gain):
            rec.usable, rec.reason = False, "no_gain"
        else:
            rec.usable, rec.reason = ok, None if ok else "min_leaf"
    return rec


# =============================================================================================
# per algorithm: every feature's candidates


def c45_features(nd: NodeData) -> list[FeatureSplits]:
    """C4.5: a multiway test per categorical feature not used above, cuts of continuous ones."""
    out = []
    for j, f in enumerate(nd.schema.features):
        if f.is_categorical:
            if j in nd.used:
                out.append(FeatureSplits(**_named(nd, j), mode="multiway", usable=False, reason="used"))
                continue
            out.append(entropy_multiway(nd, j, len(f.categories)))
        else:
            out.append(entropy_continuous(nd, j, "c45"))
    return out


def id3_features(nd: NodeData) -> list[FeatureSplits]:
    """ID3, following its feature plan: categories, bins (intervals) or textbook cuts."""
    plan = id3_plan(nd)
    out = []
    for j in range(len(nd.schema.features)):
        kind, arg = plan[j]
        if kind != "thr" and j in nd.used:
            out.append(
                FeatureSplits(
                    **_named(nd, j),
                    mode="multiway" if kind == "cat" else "intervals",
                    usable=False,
                    reason="used",
                )
            )
        elif kind == "thr":
            out.append(entropy_continuous(nd, j, "textbook"))
        elif kind == "cat":
            out.append(entropy_multiway(nd, j, arg))
        else:
            b = branch_index(nd.X[:, j], cuts=arg)  # -1: missing, shared out by score_multiway
            out.append(entropy_multiway(nd, j, arg.size + 1, branch=b, cuts=arg))
    return out
