"""What-if views: the sample editor's fields, a sample's path drawn in the tree, and the tables of
its reached leaves and counterfactuals (pure builders: no Streamlit).

The explanation itself is ``dtcore.explain.prediction`` (the tree's own routing and mixing); the
picture is ``dtcore.export.to_dot`` with its ``path`` option, folding every subtree off the path
so that the way stays readable in a big tree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dtcore import export
from dtcore.base import BaseTreeEstimator
from dtcore.explain.prediction import PredictionExplanation, explain_prediction
from dtcore.numbers import fmt_fixed, fmt_weight

from .text import TextTable, Translate
from .tree import dot_words

#: one sample editor value: a category label or a number, None for missing
FieldValue = str | float | None


@dataclass(frozen=True)
class Field:
    """One input of the sample editor."""

    index: int
    name: str
    categorical: bool
    categories: tuple[str, ...] = ()


def fields(est: BaseTreeEstimator) -> list[Field]:
    return [
        Field(j, f.name, f.is_categorical, tuple(f.categories or ()))
        for j, f in enumerate(est.schema_.features)
    ]


def field_values(est: BaseTreeEstimator, raw_row: Sequence[object]) -> list[FieldValue]:
    """The editor's values for a data row (raw cells in feature order): a category label or
    None for categorical fields, a float or None (missing) for continuous ones — read as the model
    reads the row (``est.encode``)."""
    x = est.encode(np.asarray([list(raw_row)], dtype=object))[0]
    out: list[FieldValue] = []
    for f, v in zip(fields(est), x.tolist()):
        if math.isnan(v):
            out.append(None)
        elif f.categorical:
            out.append(f.categories[int(v)] if int(v) < len(f.categories) else None)
        else:
            out.append(float(v))
    return out


def sample_row(est: BaseTreeEstimator, values: Sequence[FieldValue]) -> dict[str, FieldValue]:
    """The editor's values → the row dict ``explain_prediction`` takes (None = missing)."""
    return {f.name: v for f, v in zip(fields(est), values)}


def explain(
    est: BaseTreeEstimator, values: Sequence[FieldValue], words: dict[str, str] | None = None
) -> PredictionExplanation:
    """The explanation of the editor's sample; ``words``: the counterfactual texts' words."""
    return explain_prediction(est, sample_row(est, values), words=words)


def whatif_dot(
    est: BaseTreeEstimator,
    ex: PredictionExplanation,
    lang: str,
    rankdir: str = "TB",
    missing: str = "missing",
) -> str:
    """The tree with the sample's path bold (values and C4.5 shares on its edges), the reached
    leaves outlined, every other node faded and every subtree off the path folded."""
    tree = est.tree_
    on_path = set(ex.path_nodes)
    folded = [int(i) for i in np.flatnonzero(tree.feature >= 0) if int(i) not in on_path]
    return export.to_dot(
        est,
        collapsed=folded,
        highlight=[r.leaf for r in ex.leaves],
        rankdir=rankdir,
        words=dot_words(lang),
        tooltips=True,
        path=ex.edge_notes(missing),
        graph_name="whatif",
    )


def leaves_table(ex: PredictionExplanation, t: Translate) -> TextTable:
    """One row per reached leaf: its id, the share of the sample reaching it, its training
    distribution (or value)."""
    if ex.classes is not None:
        columns = (t("whatif.col.leaf"), t("whatif.col.weight"), *(str(c) for c in ex.classes))
    else:
        columns = (t("whatif.col.leaf"), t("whatif.col.weight"), t("whatif.col.value"))
    rows = []
    for r in ex.leaves:
        if ex.classes is not None:
            cells = [f"{fmt_weight(n)} ({fmt_fixed(p)})" for n, p in zip(r.counts, r.distribution)]
        else:
            cells = [f"{r.distribution[0]:.6g}"]
        rows.append((f"#{r.leaf}", r.weight_text, *cells))
    return TextTable(columns, tuple(rows))


def counterfactual_table(ex: PredictionExplanation, t: Translate) -> TextTable:
    """Per feature on the path: its value, the range that keeps the prediction, the nearest
    change that flips it."""
    columns = (t("whatif.col.feature"), t("whatif.col.value"), t("whatif.col.keeps"), t("whatif.col.flips"))
    rows = tuple(
        (
            c.name,
            t("whatif.missing") if math.isnan(float(ex.x[c.feature])) else c.current,
            c.keep,
            c.flip if c.flip is not None else t("whatif.never"),
        )
        for c in ex.counterfactuals
    )
    return TextTable(columns, rows)


def probabilities_table(ex: PredictionExplanation, t: Translate) -> TextTable | None:
    """The class probabilities, to the fixed decimals of every share the app prints."""
    if ex.classes is None or ex.proba is None:
        return None
    rows = tuple((str(c), fmt_fixed(p)) for c, p in zip(ex.classes, ex.proba))
    return TextTable((t("whatif.col.class"), t("whatif.col.probability")), rows)
