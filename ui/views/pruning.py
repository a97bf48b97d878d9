"""The Pruning page's pictures and table as plain data: before/after DOT, the metrics table."""

from __future__ import annotations

import math
from decimal import Decimal

import pandas as pd

from dtcore import export
from dtcore.base import BaseTreeEstimator
from dtcore.numbers import fmt_num
from dtcore.pruning import PruneReport
from ui.i18n import translate
from ui.services.pruning import REPORT_SET, SETS, PruneOutcome

from .text import Translate

# ---------------------------------------------------------------------------------------------
# the pictures


def new_leaves(report: PruneReport) -> list[int]:
    """Ids in the pruned tree of the leaves pruning made (tests of the original that are leaves)."""
    collapsed = set(report.collapsed)
    return [new for new, old in enumerate(report.kept) if old in collapsed]


def before_after_dot(
    est: BaseTreeEstimator,
    outcome: PruneOutcome,
    max_depth: int | None = None,
    rankdir: str = "TB",
    words: dict[str, str] | None = None,
) -> tuple[str, str]:
    """The grown tree with what pruning removes ghosted (dashed grey) and the nodes that become
    leaves in bold; the pruned tree with its new leaves in bold."""
    schema = est.schema_
    crit = est.get_params().get("criterion")
    rep = outcome.report
    before = export.to_dot(
        outcome.before,
        schema,
        max_depth=max_depth,
        ghost=rep.removed,
        highlight=rep.collapsed,
        criterion=crit,
        rankdir=rankdir,
        graph_name="before",
        words=words,
    )
    after = export.to_dot(
        outcome.after,
        schema,
        max_depth=max_depth,
        highlight=new_leaves(rep),
        criterion=crit,
        rankdir=rankdir,
        graph_name="after",
        words=words,
    )
    return before, after


# ---------------------------------------------------------------------------------------------
# the table and numbers


def fmt_alpha(a: float) -> str:
    return f"{a:.4g}"


def fmt_error(value: float | None, metric: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.1%}" if metric == "error_rate" else fmt_num(value, 4)


def fmt_change(before: float | None, after: float | None, metric: str | None = None) -> str:
    """After − before, computed from the two numbers as printed (``fmt_error``), so that the
    change is true as printed (81.2 % → 87.5 % is +6.3 pt, not the +6.2 of the unrounded
    0.8125 → 0.875): every line of the table adds up, as the worked arithmetic does."""
    if (
        before is None
        or after is None
        or any(isinstance(v, float) and math.isnan(v) for v in (before, after))
    ):
        return "–"
    if metric is None:
        d = int(after) - int(before)
        return f"{d:+d}" if d else "0"
    shown = [Decimal(fmt_error(v, metric).rstrip("%")) for v in (before, after)]
    change = shown[1] - shown[0]
    if not change:
        return "0"
    text = f"{change:+f}"
    return text + " pt" if metric == "error_rate" else text


def metrics_table(report: PruneReport, lang: str) -> pd.DataFrame:
    """Size, leaves, depth and the error on every split, before / after / change."""

    def tr(key: str, **v: object) -> str:
        return translate(key, lang, **v)

    rows = []
    for key, field in (("nodes", "nodes"), ("leaves", "leaves"), ("depth", "depth")):
        b, a = report.before[field], report.after[field]
        rows.append((tr(f"metrics.{key}"), str(b), str(a), fmt_change(b, a)))
    name = tr("prune.error_rate" if report.metric == "error_rate" else "prune.mse")
    for split in SETS:
        e = report.errors.get(REPORT_SET[split])
        if e is None:
            continue
        rows.append(
            (
                f"{name} · {tr('metrics.' + split)}",
                fmt_error(e["before"], report.metric),
                fmt_error(e["after"], report.metric),
                fmt_change(e["before"], e["after"], report.metric),
            )
        )
    cols = [tr("prune.measure"), tr("prune.before"), tr("prune.after"), tr("prune.change")]
    return pd.DataFrame(rows, columns=cols)


def alpha_chart_labels(t: Translate, cv: int, metric: str) -> dict[str, str]:
    """The words of the α charts (``ui.figures.pruning``) in the user's language (``t``)."""
    labels = {s: t("metrics." + s) for s in SETS}
    labels.update({k: t("prune.label." + k) for k in ("band", "rule", "alpha", "chosen", "leaves")})
    labels["cv"] = t("prune.label.cv", k=cv)
    labels["error"] = t("prune.error_rate" if metric == "error_rate" else "prune.mse")
    return labels


def cf_chart_labels(t: Translate) -> dict[str, str]:
    """The words of the CF chart in the user's language (``t``)."""
    return {k: t("prune.label." + k) for k in ("nodes", "leaves", "size", "estimate", "cf", "chosen")}
