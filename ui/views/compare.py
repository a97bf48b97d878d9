"""The Compare page's tables, words and trees (no Streamlit): built from a
``dtcore.analysis.compare.Comparison``; user text (feature, category and class names) is escaped for
Markdown here, for DOT by ``dtcore.export``."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dtcore import export
from dtcore.analysis.compare import SPLITS, Comparison
from dtcore.analysis.compare_records import (
    BelowAverageNote,
    BinaryNote,
    ChoseNote,
    EntropyScore,
    LeafNote,
    Note,
    PenalisedNote,
)
from dtcore.analysis.disagreement import describe_test
from dtcore.numbers import fmt_score, fmt_score_fine

from .text import Translate, md_escape
from .tree import auto_depth, dot_words


def metrics(task: str) -> list[str]:
    return ["accuracy"] if task == "classification" else ["rmse", "mae"]


def scores_table(c: Comparison, t: Translate) -> pd.DataFrame:
    """One row per algorithm: each split's score, size, fit time, cross-validated mean and sd."""
    rows = []
    for e in c.entries:
        row: dict[str, object] = {t("compare.col.algorithm"): label(e.key, t, e.algorithm)}
        for s in SPLITS:
            if c.rows[s].size:
                for m in metrics(c.task):
                    row[t(f"compare.col.{s}") + " · " + t(f"compare.metric.{m}")] = fmt_score(
                        e.scores[s].get(m)
                    )
        row[t("compare.col.nodes")] = e.nodes
        row[t("compare.col.leaves")] = e.leaves
        row[t("compare.col.depth")] = e.depth
        row[t("compare.col.fit_ms")] = f"{1000 * e.seconds:.1f}"
        if c.cv_folds >= 2:  # not asked for (a large table): no columns of nothing
            cv = e.cv_summary()
            row[t("compare.col.cv_mean", k=c.cv_folds)] = fmt_score(cv.mean)
            row[t("compare.col.cv_sd")] = fmt_score(cv.std)
        rows.append(row)
    return pd.DataFrame(rows)


MODEL = "model"  # the contender with the Train & tree model's settings


def label(key: str, t: Translate, algorithm: str | None = None) -> str:
    """An algorithm's name in the UI language (``model``: the Train & tree settings of
    ``algorithm``)."""
    if key == MODEL:
        return t("compare.algo.model", algorithm=t(f"algo.{algorithm}"))
    return t(f"compare.algo.{key}")


def agreement_table(c: Comparison, t: Translate) -> pd.DataFrame:
    labels = [label(e.key, t, e.algorithm) for e in c.entries]
    return pd.DataFrame([[fmt_score(v) for v in row] for row in c.agreement], index=labels, columns=labels)


def disagree_table(
    c: Comparison, df: pd.DataFrame, features: list[str], t: Translate, limit: int = 200
) -> pd.DataFrame:
    """The rows (of ``c.agree_on``) where the algorithms do not all agree: row number, the truth,
    each prediction, then the features."""
    on = c.rows[c.agree_on]
    pos = {int(r): i for i, r in enumerate(on)}
    out = []
    for r in c.disagree_rows[:limit].tolist():
        i = pos[int(r)]
        row: dict[str, object] = {t("compare.col.row"): int(r) + 1, t("compare.col.truth"): _text(c.truth[i])}
        for e in c.entries:
            row[label(e.key, t, e.algorithm)] = _text(e.predictions[c.agree_on][i])
        for f in features:
            row[f] = _text(df[f].iloc[int(r)])
        out.append(row)
    return pd.DataFrame(out)


def _text(v: object) -> str:
    if v is None or (isinstance(v, float) and v != v):  # a missing cell
        return ""
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def shared_levels(c: Comparison) -> int | None:
    """The same levels for every tree: the smallest comfortable depth among them (None: all fit)."""
    autos = [auto_depth(e.estimator.tree_) for e in c.entries]
    return None if all(a is None for a in autos) else min(a for a in autos if a is not None)


def tree_dots(c: Comparison, lang: str, focus: dict[str, int | None] | None = None) -> list[str]:
    """Each fitted tree's DOT: the same comfortable levels, the first disagreement's path in bold
    (or with ``focus``, key → node or None, the node the same rows reach in each tree), and the
    way down to it unfolded below those levels, every other subtree there folded. (Opening
    every level down to a deep disagreement drew 2 741 boxes per tree, 35 s of ``dot``.)"""
    levels = shared_levels(c)
    out = []
    for e in c.entries:
        tree = e.estimator.tree_
        if focus is not None:
            node = focus.get(e.key)
            path = [] if node is None else [int(node)]
        else:
            path = c.first.final.get(e.key, []) if c.first is not None else []
        folded: list[int] = []
        if levels is not None:
            route = {n for p in path for n in tree.path_to(int(p))}
            deep = np.flatnonzero((tree.feature >= 0) & (tree.depth >= levels))
            folded = [int(i) for i in deep if int(i) not in route]
        out.append(
            export.to_dot(
                e.estimator,
                collapsed=folded,
                highlight=path,
                words=dot_words(lang),
                tooltips=True,
                rankdir="TB",
                legend=False,
                graph_name="compare",
            )
        )
    return out


def where_text(c: Comparison, t: Translate) -> str:
    d = c.first
    assert d is not None
    path = " → ".join(f"{md_escape(n)} {md_escape(b)}" for n, b in d.path) or t("compare.first.root")
    return t("compare.first.where", path=path, rows=d.n_rows, depth=d.depth)


def scores_at_first(c: Comparison, t: Translate) -> pd.DataFrame:
    """Competing tests (rows) × algorithms (columns): each test's score under each criterion;
    ✓ marks the algorithm's own choice, — a test it does not make."""
    d = c.first
    assert d is not None
    rows = []
    for i, test in enumerate(d.tests):
        row: dict[str, object] = {t("compare.col.test_name"): describe_test(test)}
        for e in c.entries:
            s = d.scores[i][e.key]
            text = f"{t('growth.score.' + d.criteria[e.key])} {fmt_score_fine(s.score)}"
            if isinstance(s, EntropyScore) and d.criteria[e.key] == "gain_ratio":
                text += f" ({t('compare.gain')} {fmt_score(s.gain)}, {t('compare.split_info')} {fmt_score(s.split_info)})"
            elif isinstance(s, EntropyScore):
                text += f" (IV {fmt_score(s.iv)})"
            if d.chosen[e.key] == i:
                text = "✓ " + text
            elif not s.possible:
                text = "— " + text
            row[label(e.key, t, e.algorithm)] = text
        rows.append(row)
    return pd.DataFrame(rows)


def first_sentences(c: Comparison, notes: list[Note], t: Translate) -> list[str]:
    """The notes of ``dtcore.analysis.disagreement.notes`` in the UI language, as Markdown (user
    text escaped)."""
    d = c.first
    assert d is not None
    labels = {e.key: label(e.key, t, e.algorithm) for e in c.entries}

    def test(i: int) -> str:
        return md_escape(describe_test(d.tests[i]))

    out = []
    for n in notes:
        if isinstance(n, ChoseNote):
            s = t(
                "compare.note.chose",
                algo=labels[n.by],
                test=test(n.test),
                score_name=t("growth.score." + n.score_name),
                score=fmt_score_fine(n.score),
            )
            if n.other is not None:
                key = "compare.note.tied" if n.tied else "compare.note.over"
                s += " " + t(key, test=test(n.other), score=fmt_score_fine(n.other_score))
            if n.runner_up is not None:
                s += " " + t(
                    "compare.note.runner_up",
                    feature=md_escape(n.runner_up.name),
                    score=fmt_score_fine(n.runner_up.score),
                )
            out.append(s)
        elif isinstance(n, LeafNote):
            out.append(t("compare.note.leaf", algo=labels[n.by], reason=md_escape(str(n.reason))))
        elif isinstance(n, BinaryNote):
            out.append(t("compare.note.binary", feature=md_escape(d.tests[n.test].name)))
        elif isinstance(n, BelowAverageNote):
            out.append(
                t(
                    "compare.note.below_average",
                    test=test(n.test),
                    gain=fmt_score(n.gain),
                    average=fmt_score(n.average),
                )
            )
        elif isinstance(n, PenalisedNote):
            out.append(
                t(
                    "compare.note.penalised",
                    test=test(n.test),
                    iv=fmt_score(n.split_info),
                    chosen_iv=fmt_score(n.chosen_split_info),
                    ratio=fmt_score(n.gain_ratio),
                    chosen_ratio=fmt_score(n.chosen_gain_ratio),
                )
            )
    return out
