"""One test at a node: how it routes the node's rows (its children), its branch labels, the
worked arithmetic of its score (the :class:`Arithmetic` and :class:`ChildSummary` records), and
the test a report's candidate stands for."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from dtcore.criteria import SMALL, absolute_error, entropy, gini, half_poisson_deviance, split_information
from dtcore.entropy.multiway import branch_class_counts, score_multiway
from dtcore.explain.cart import cart_test
from dtcore.explain.entropy import snap
from dtcore.explain.node_data import NodeData, criterion, with_neighbours
from dtcore.explain.records import Record, SplitReport
from dtcore.routing import DISTRIBUTE, SplitTest, branch_index, distribute_rows

# =============================================================================================
# records

_HEAD = ("feature", "name", "labels", "algorithm", "N", "test", "kind")
_ENTROPY_ARITHMETIC = _HEAD + (
    "classes",
    "node_counts",
    "ent_D",
    "known_counts",
    "unknown_counts",
    "K",
    "rho",
    "ent_known",
    "branch_counts",
    "branch_weights",
    "r",
    "branch_entropy",
    "conditional",
    "gain",
    "gain_textbook",
    "iv",
    "split_info",
    "missing",
    "ratio_of",
    "n_candidates",
    "mdl_penalty",
    "gain_after_penalty",
    "gain_ratio",
)
_CART_ARITHMETIC = _HEAD + (
    "classes",
    "node_counts",
    "impurity",
    "branch_counts",
    "branch_weights",
    "branch_impurity",
    "weighted",
    "decrease",
    "weighted_decrease",
    "W_root",
    "missing",
)
_MSE_ARITHMETIC = _HEAD + (
    "mean",
    "impurity",
    "branch_weights",
    "branch_n",
    "branch_mean",
    "branch_impurity",
    "weighted",
    "decrease",
    "weighted_decrease",
    "W_root",
    "missing",
    "criterion",
)


@dataclass(kw_only=True)
class Arithmetic(Record):
    """The worked arithmetic of one test at a node, as numbers for formulas (``arithmetic``).

    ``kind``: "entropy" (ID3/C4.5: ρ, Ent of the known rows, per-branch entropies, gain, IV,
    split information, the ratio the algorithm uses, C4.5's MDL penalty for cuts),
    "gini" / "entropy_cart" (CART classification: impurities and decreases) or "mse"
    (regression: means and mean squared errors).
    """

    feature: int
    name: str
    labels: list[str]
    algorithm: str
    N: float
    test: SplitTest
    kind: str
    classes: list | None = None
    node_counts: np.ndarray | None = None
    missing: bool | None = None
    # entropy family (ID3, C4.5)
    ent_D: float | None = None
    known_counts: np.ndarray | None = None
    unknown_counts: np.ndarray | None = None
    K: float | None = None
    rho: float | None = None
    ent_known: float | None = None
    r: np.ndarray | None = None
    branch_entropy: np.ndarray | None = None
    conditional: float | None = None
    gain: float | None = None
    gain_textbook: float | None = None
    iv: float | None = None
    split_info: float | None = None
    ratio_of: str | None = None
    n_candidates: int | None = None
    mdl_penalty: float | None = None
    gain_after_penalty: float | None = None
    gain_ratio: float | None = None
    # per branch
    branch_counts: np.ndarray | None = None
    branch_weights: np.ndarray | None = None
    # CART
    impurity: float | None = None
    branch_impurity: np.ndarray | None = None
    weighted: float | None = None
    decrease: float | None = None
    weighted_decrease: float | None = None
    W_root: float | None = None
    # regression
    mean: float | None = None
    branch_n: np.ndarray | None = None
    branch_mean: np.ndarray | None = None
    criterion: str | None = None

    def _order(self) -> tuple[str, ...]:
        if self.kind == "entropy":
            return _ENTROPY_ARITHMETIC
        if self.kind == "mse":
            return _MSE_ARITHMETIC
        return _CART_ARITHMETIC


@dataclass(kw_only=True)
class ChildSummary(Record):
    """One branch of a previewed test: label, weight, rows, class counts (or the mean)."""

    branch: int
    label: str
    weight: float
    n_rows: int
    class_counts: np.ndarray | None = None
    mean: float | None = None


# =============================================================================================
# routing and arithmetic


def route_test(nd: NodeData, test: SplitTest) -> tuple[np.ndarray, int]:
    """Branch of each node row under ``test`` (-1: missing / no branch; ``routing.branch_index``)
    and the branch count."""
    x = nd.X[:, test.feature]
    if test.cat_branch is not None:
        table = np.asarray(test.cat_branch, np.int64)
        b = branch_index(x, cat_branch=table)
        V = int(table.max()) + 1 if table.size else 0
        if test.missing_branch >= 0:
            V = max(V, test.missing_branch + 1)
    else:
        cuts = np.asarray(test.cuts, np.float64)
        b = branch_index(x, cuts=cuts)
        V = cuts.size + 1
    return b, V


def children_rows(nd: NodeData, test: SplitTest) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per branch (row positions within the node, weights): unknown rows go to the fixed missing
    branch, or to every branch with share K_v/K (C4.5's distribution, uniform if K = 0:
    ``routing.distribute_rows``)."""
    b, V = route_test(nd, test)
    mb = test.missing_branch
    if mb >= 0:
        b = np.where(b < 0, mb, b)
    return distribute_rows(b, nd.w, V)[0]


def branch_labels(schema: Any, test: SplitTest, precision: int = 4) -> list[str]:
    """Plain (unescaped) text of each branch's condition; thresholds never rounded across the
    node's training values next to them (the test's ``below``/``above``, when known)."""
    from dtcore.export.thresholds import fmt_threshold

    f = schema.features[test.feature]
    if test.cat_branch is not None:
        table = list(test.cat_branch)
        V = max(table + [test.missing_branch]) + 1
        out = []
        for v in range(V):
            cats = [f.categories[c] for c, bb in enumerate(table) if bb == v]
            if not cats and v == test.missing_branch:  # CART's "missing values alone"
                out.append("is missing")
                continue
            out.append(f"= {cats[0]}" if len(cats) == 1 else "∈ {" + ", ".join(cats) + "}")
        return out
    cuts = list(test.cuts or ())
    if len(cuts) == 1 and math.isinf(cuts[0]):
        return ["is known", "is missing"]
    below, above = (side or [None] * len(cuts) for side in (test.below, test.above))
    s = [fmt_threshold(c, precision, b, a) for c, b, a in zip(cuts, below, above)]
    out = [f"≤ {s[0]}"]
    out += [f"∈ ({a}, {b}]" for a, b in zip(s[:-1], s[1:])]
    out.append(f"> {s[-1]}")
    return out


def arithmetic(nd: NodeData, test: SplitTest, report: SplitReport | None = None) -> Arithmetic:
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
    j = test.feature
    labels = branch_labels(nd.schema, test)
    b, V = route_test(nd, test)
    crit = criterion(nd)
    head: dict[str, Any] = dict(
        feature=j, name=nd.schema.features[j].name, labels=labels, algorithm=algo, N=nd.N, test=test
    )
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
        iv = float(split_information(bw))
        out = Arithmetic(
            **head,
            kind="entropy",
            classes=list(nd.schema.classes),
            node_counts=nd.counts,
            ent_D=float(entropy(nd.counts)),
            known_counts=known_tot,
            unknown_counts=unknown,
            K=K,
            rho=rho,
            ent_known=ent_known,
            branch_counts=counts,
            branch_weights=bw,
            r=r,
            branch_entropy=ents,
            conditional=cond,
            gain=s.gain,
            gain_textbook=rho * (ent_known - cond),
            iv=iv,
            split_info=s.split_info,
            missing=bool(nd.N - K > SMALL),
        )
        continuous = test.cuts is not None and len(test.cuts) == 1
        if algo == "c45":
            out.ratio_of = "split_info"
            penalty = 0.0
            if continuous and report is not None:
                rec = report.features[j]
                penalty = float(rec.mdl_penalty if rec.mdl_penalty is not None else 0.0)
                out.n_candidates = int(rec.n_candidates if rec.n_candidates is not None else 0)
            out.mdl_penalty = penalty
            out.gain_after_penalty = s.gain - penalty
            denom = s.split_info
            out.gain_ratio = (s.gain - penalty) / denom if denom * nd.N > SMALL else 0.0
        else:
            out.ratio_of = "split_info" if continuous else "iv"
            denom = s.split_info if continuous else iv
            out.gain_ratio = s.gain / denom if denom > 0 else 0.0
        return out
    # CART: missing rows go down the learned branch
    mb = test.missing_branch
    b = np.where(b < 0, mb if mb >= 0 else 1, b)
    if nd.C:
        counts = np.zeros((V, nd.C))
        np.add.at(counts, (b, nd.y), nd.w)
        bw = counts.sum(axis=1)
        f = gini if crit == "gini" else entropy
        imps = f(counts)
        imp = float(f(nd.counts))
        weighted = float(np.sum(bw / nd.N * imps))
        return Arithmetic(
            **head,
            kind="gini" if crit == "gini" else "entropy_cart",
            classes=list(nd.schema.classes),
            node_counts=nd.counts,
            impurity=imp,
            branch_counts=counts,
            branch_weights=bw,
            branch_impurity=imps,
            weighted=weighted,
            decrease=imp - weighted,
            weighted_decrease=nd.N / nd.W_root * (imp - weighted),
            W_root=nd.W_root,
            missing=bool(np.isnan(nd.X[:, j]).any()),
        )
    bw = np.bincount(b, weights=nd.w, minlength=V)
    sy = np.bincount(b, weights=nd.w * nd.y, minlength=V)
    n = np.bincount(b, minlength=V)
    mean = np.where(bw > 0, sy / np.where(bw > 0, bw, 1), 0.0)
    mse = np.bincount(b, weights=nd.w * (nd.y - mean[b]) ** 2, minlength=V) / np.where(bw > 0, bw, 1)
    node_mean = float(np.sum(nd.w * nd.y) / nd.N)
    node_mse = float(np.sum(nd.w * (nd.y - node_mean) ** 2) / nd.N)
    own = {"absolute_error": absolute_error, "poisson": half_poisson_deviance}.get(str(crit))
    if own is not None:  # the criterion's own impurity (median / Poisson deviance), not the MSE
        node_mse = own(nd.y, nd.w)
        mse = np.array([own(nd.y[b == v], nd.w[b == v]) if bw[v] > 0 else 0.0 for v in range(V)])
    weighted = float(np.sum(bw / nd.N * mse))
    return Arithmetic(
        **head,
        kind="mse",
        mean=node_mean,
        impurity=node_mse,
        branch_weights=bw,
        branch_n=n,
        branch_mean=mean,
        branch_impurity=mse,
        weighted=weighted,
        decrease=node_mse - weighted,
        weighted_decrease=nd.N / nd.W_root * (node_mse - weighted),
        W_root=nd.W_root,
        missing=bool(np.isnan(nd.X[:, j]).any()),
        criterion=crit,
    )


def children_summary(nd: NodeData, test: SplitTest) -> list[ChildSummary]:
    """Per branch: label, weight, rows and class counts (or mean) — the preview of a test."""
    labels = branch_labels(nd.schema, test)
    out = []
    for v, (pos, cw) in enumerate(children_rows(nd, test)):
        rec = ChildSummary(
            branch=v,
            label=labels[v] if v < len(labels) else str(v),
            weight=float(cw.sum()),
            n_rows=int(pos.size),
        )
        if nd.C:
            rec.class_counts = np.bincount(nd.y[pos], weights=cw, minlength=nd.C)
        else:
            rec.mean = float(np.sum(cw * nd.y[pos]) / cw.sum()) if cw.sum() > 0 else float("nan")
        out.append(rec)
    return out


def candidate_test(nd: NodeData, report: SplitReport, feature: int, index: int) -> SplitTest | None:
    """The test of candidate ``index`` of ``feature`` (for previews and forcing)."""
    rec = report.features[feature]
    if rec.mode in ("multiway", "intervals"):
        return rec.test
    cand = rec.candidates
    if cand is None:
        return None
    if nd.algorithm == "cart":
        return with_neighbours(nd, cart_test(nd, feature, cand, index))
    assert cand.threshold is not None
    cut = float(cand.threshold[index])  # the midpoint
    if nd.algorithm == "c45":  # release 8's threshold is taken from the two values
        assert cand.lo is not None and cand.hi is not None
        cut = snap(nd, feature, float(cand.lo[index]), float(cand.hi[index]))
    return with_neighbours(nd, SplitTest(feature, cuts=(cut,), missing_branch=DISTRIBUTE))
