"""Text views of split reports: test descriptions, the ranking table and the worked arithmetic
as LaTeX with the numbers filled in (the way seed 003 computes Gain(age) = 0.247 by hand).

Pure functions over ``dtcore.explain`` records. Labels are user text: escaped for LaTeX's
``\\text{}`` here (Markdown escaping is the page's job, via ``ui.views.text.md_escape``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import SupportsFloat

import numpy as np
from numpy.typing import ArrayLike

from dtcore.explain import FeatureSplits, SplitReport, branch_labels
from dtcore.explain.arithmetic import ChildSummary
from dtcore.export.thresholds import fmt_midpoint, fmt_threshold
from dtcore.numbers import fmt_fixed as num  # the pages' and figures' name for it
from dtcore.numbers import fmt_fixed_fine
from dtcore.routing import SplitTest
from dtcore.schema import Schema

from .text import TextTable, Translate, md_escape

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}


def latex_text(s: object) -> str:
    r"""User text inside ``\text{…}``: every character KaTeX would act on escaped."""
    # "=" is braced so that a label never reads as one of the formula's top-level " = "
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(s).replace("\n", " ")).replace("=", "{=}")


def count(x: SupportsFloat) -> str:
    """A (weighted) count: integer when whole, else 3 decimals."""
    x = float(x)
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.3f}"


def describe_test(schema: Schema, test: SplitTest, precision: int = 4, t: Translate | None = None) -> str:
    """``纹理 = ?`` (multiway), ``密度 ≤ 0.3815``, ``色泽 ∈ {青绿, 乌黑}`` — plain text. With the
    translation function ``t``, C4.5's stored threshold is followed by the midpoint cut where
    they differ: ``密度 ≤ 0.36 (midpoint 0.3815)``."""
    name = schema.features[test.feature].name
    labels = branch_labels(schema, test, precision)
    if test.cat_branch is not None:
        # ID3/C4.5 multiway tests spread missing values (missing_branch −1); CART's subsets do not
        return f"{name} = ?" if test.missing_branch < 0 else f"{name} {labels[0]}"
    if len(test.cuts or ()) > 1:
        return f"{name} ∈ {len(test.cuts or ()) + 1} intervals"
    return f"{name} {labels[0]}{midpoint_suffix(test, precision, t)}"


def midpoint_suffix(test: SplitTest, precision: int = 4, t: Translate | None = None) -> str:
    """`` (midpoint 0.3815)`` (中文 ``（中点 0.3815）``) when the test carries C4.5's
    ``midpoint`` (``explain``'s ``with_neighbours``) and ``t`` translates; else ""."""
    mid = test.midpoint
    if mid is None or t is None:
        return ""
    below, above = test.below or (None,), test.above or (None,)
    text = fmt_midpoint(mid, precision, below[0], above[0])
    return t("thresholds.midpoint_after", value=text)


def feature_score(rec: FeatureSplits, score_name: str) -> float | None:
    """The number the algorithm ranks this feature's best test by, as the report names it
    (``SplitReport.score_name``): the gain ratio for C4.5 (and ID3 on gain ratio), the gain, or
    CART's impurity decrease. None if the feature has no usable test."""
    value = rec.gain_ratio if score_name == "gain_ratio" else rec.gain
    return None if not rec.usable or value is None else float(value)


def ranking_rows(report: SplitReport, schema: Schema, t: Translate) -> list[dict[str, object]]:
    """One row per feature, in the algorithm's order (usable first), for a table.
    ``t``: the translation function (column names and statuses)."""
    algo = report.algorithm
    feats = report.features
    order = list(report.ranking) + [j for j in range(len(feats)) if j not in report.ranking]
    rows = []
    for rank, j in enumerate(order, start=1):
        r = feats[j]
        usable = bool(r.usable)
        row: dict[str, object] = {
            t("splits.col.rank"): str(rank) if usable else "",
            t("splits.col.feature"): r.name,
            t("splits.col.test"): describe_test(schema, r.test, t=t) if usable and r.test else "–",
        }
        if algo == "cart":
            row[t("splits.col.decrease")] = r.gain if usable else None
            row[t("splits.col.weighted_decrease")] = r.improvement if usable else None
            if report.criterion == "friedman_mse":  # Friedman's own score, next to what splits
                row[t("splits.col.friedman")] = r.friedman if usable else None
        else:
            row[t("splits.col.gain")] = r.gain if usable else None
            if algo == "c45" and r.mode == "threshold":
                row[t("splits.col.raw_gain")] = r.raw_gain
            else:
                row[t("splits.col.raw_gain")] = r.raw_gain if usable else None
            row[t("splits.col.gain_ratio")] = r.gain_ratio if usable else None
        if j == report.chosen:
            status = t("splits.status.chosen")
        elif j == report.runner_up:
            status = t("splits.status.runner_up")
        elif not usable:
            status = t("splits.reason." + (r.reason or "no_test"))
        elif algo == "c45" and r.above_average is False:
            status = t("splits.status.below_average")
        else:
            status = ""
        row[t("splits.col.status")] = status
        # numbers as text to 4 decimals (a tiny positive one, such as a deep node's weighted
        # decrease, to 2 significant digits, not "0.0000"), "–" where a feature has no usable
        # test (no "None" cells)
        rows.append(
            {
                k: "–" if v is None else fmt_fixed_fine(v, 4) if isinstance(v, (float, np.floating)) else v
                for k, v in row.items()
            }
        )
    return rows


def candidate_label(rec: FeatureSplits, k: int, schema: Schema, algorithm: str) -> str:
    """Short text of candidate ``k`` of a feature record: its test and score."""
    cand = rec.candidates
    if cand is None:
        raise ValueError(f"feature {rec.name!r} has no candidate tests")
    s = float(cand.score[k])
    if cand.threshold is not None:
        lo, hi = (
            None if a is None else float(a[k]) for a in (getattr(cand, "lo", None), getattr(cand, "hi", None))
        )
        return f"≤ {fmt_threshold(cand.threshold[k], 6, lo, hi)} · {fmt_fixed_fine(s, 4)}"
    if cand.left_mask is not None:
        f = schema.features[rec.feature]
        mask = np.asarray(cand.left_mask[k], dtype=bool)
        left = [f.categories[i] for i in np.nonzero(mask[:-1])[0]]
        return "{" + ", ".join(left) + "}" + f" · {fmt_fixed_fine(s, 4)}"
    test = "–" if rec.test is None else describe_test(schema, rec.test)  # no test: as ranking_rows
    return f"{test} · {fmt_fixed_fine(s, 4)}"


def one_vs_rest_rows(rec: FeatureSplits, schema: Schema, t: Translate) -> list[dict[str, str]]:
    """CART subsets: the optimal subset (the builder's choice), then every one-vs-rest test
    ``a = v`` with its Σ|D^v|/|D|·I(D^v) (the textbook's Gini(D, a)) and decrease, for a table.
    ``t``: translation. Empty when the feature has no such candidates."""
    cand = rec.candidates
    if cand is None or cand.one_vs_rest is None or cand.split_impurity is None or rec.best is None:
        return []
    f = schema.features[rec.feature]
    col_test, col_imp, col_dec = (
        t("splits.col.test"),
        t("splits.col.split_impurity"),
        t("splits.col.decrease"),
    )
    ks = [rec.best] + [int(k) for k in np.flatnonzero(cand.one_vs_rest >= 0) if k != rec.best]
    rows = []
    for k in ks:
        v = int(cand.one_vs_rest[k])
        test = (
            f"{f.name} = {f.categories[v]}"
            if v >= 0
            else candidate_label(rec, k, schema, "cart").rsplit(" · ", 1)[0]
        )
        rows.append(
            {
                col_test: test + (f" ({t('splits.status.chosen')})" if k == rec.best else ""),
                col_imp: num(float(cand.split_impurity[k]), 4),
                col_dec: fmt_fixed_fine(float(cand.score[k]), 4),
            }
        )
    return rows


def candidate_order(scores: ArrayLike, limit: int) -> list[int]:
    """Candidate indices best first (ties in order, non-finite scores last), at most ``limit``."""
    sc = np.asarray(scores, dtype=float)
    return [int(k) for k in np.argsort(-np.where(np.isfinite(sc), sc, -np.inf), kind="stable")[:limit]]


def children_values(
    kids: Sequence[ChildSummary], classes: Sequence[str] | None
) -> tuple[list[str], np.ndarray]:
    """(branch labels, per branch its class counts, or its weight for regression) of
    ``dtcore.explain.children_summary`` records, as the children chart takes them."""
    labels = [k.label for k in kids]
    if classes is not None:
        return labels, np.array([k.class_counts for k in kids])
    return labels, np.array([[k.weight] for k in kids])


def children_table(kids: Sequence[ChildSummary], classes: Sequence[str] | None, t: Translate) -> TextTable:
    """Branch, weight, rows (and the mean for regression, to 4 decimals) per child, as shown.
    ``t``: translation."""
    columns = [t("splits.col.branch"), t("splits.weight"), t("splits.col.rows")]
    if classes is None:
        columns.append(t("splits.col.mean"))
    rows = []
    for k in kids:
        row = [k.label, count(k.weight), str(k.n_rows)]
        if classes is None:
            row.append("–" if k.mean is None else num(k.mean, 4))
        rows.append(tuple(row))
    return TextTable(tuple(columns), tuple(rows))


def tied_features(report: SplitReport) -> list[int]:
    """The usable features whose score equals the chosen test's, the chosen one first: where
    they tie the builder's column order decided (every builder keeps the first of equal tests),
    which a reader cannot see from the printed scores alone. [] when nothing ties. C4.5 on gain
    ratio counts only the tests its average-gain rule admits."""
    if report.chosen is None:
        return []
    best = feature_score(report.features[report.chosen], report.score_name)
    if best is None:
        return []
    tied = [report.chosen]
    for j in report.ranking:
        rec = report.features[j]
        score = feature_score(rec, report.score_name)
        if j == report.chosen or score is None or rec.above_average is False:
            continue
        if abs(score - best) <= 1e-12 * max(1.0, abs(best)):  # the builders' own tie tolerances
            tied.append(j)
    return tied if len(tied) > 1 else []


def tie_note(report: SplitReport, t: Translate) -> str | None:
    """Markdown: "色泽 and 脐部 tie at information gain 0.2755; the first column wins (色泽).",
    or None without a tie (names escaped)."""
    tied = tied_features(report)
    if not tied:
        return None
    names = [md_escape(report.features[j].name) for j in sorted(tied)]
    return t(
        "splits.tie",
        names=t("splits.tie_join").join(names[:-1]) + t("splits.tie_and") + names[-1],
        quantity=t("splits.score." + report.score_name),
        score=fmt_fixed_fine(feature_score(report.features[tied[0]], report.score_name), 4),
        chosen=md_escape(report.features[tied[0]].name),
    )
