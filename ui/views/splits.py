"""Text views of split reports: test descriptions, the ranking table and the worked arithmetic
as LaTeX with the numbers filled in (the way seed 003 computes Gain(age) = 0.247 by hand).

Pure functions over ``dtcore.explain`` records. Labels are user text: escaped for LaTeX's
``\\text{}`` here (Markdown escaping is the page's job, via ``ui.views.text.md_escape``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dtcore.explain import Arithmetic, FeatureSplits, SplitReport, branch_labels

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


def latex_text(s) -> str:
    r"""User text inside ``\text{…}``: every character KaTeX would act on escaped."""
    # "=" is braced so that a label never reads as one of the formula's top-level " = "
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(s).replace("\n", " ")).replace("=", "{=}")


def num(x, digits: int = 3) -> str:
    """A result to ``digits`` decimals; "–" when not finite. A value that rounds to zero is "0…"
    whatever its sign (a pure node's entropy comes out as −1e-17 in floating point)."""
    x = float(x)
    if not math.isfinite(x):
        return "–"
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def count(x) -> str:
    """A (weighted) count: integer when whole, else 3 decimals."""
    x = float(x)
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.3f}"


def describe_test(schema, test: dict, precision: int = 4) -> str:
    """``纹理 = ?`` (multiway), ``密度 ≤ 0.3815``, ``色泽 ∈ {青绿, 乌黑}`` — plain text."""
    name = schema.features[test["feature"]].name
    labels = branch_labels(schema, test, precision)
    if test.get("cat_branch") is not None:
        # ID3/C4.5 multiway tests spread missing values (missing_branch −1); CART's subsets do not
        return f"{name} = ?" if test["missing_branch"] < 0 else f"{name} {labels[0]}"
    if len(test["cuts"]) > 1:
        return f"{name} ∈ {len(test['cuts']) + 1} intervals"
    return f"{name} {labels[0]}"


def feature_score(rec: FeatureSplits, algorithm: str) -> float | None:
    """The number the algorithm ranks this feature by (None if it has no usable test)."""
    if not rec.usable or rec.gain is None:
        return None
    return float(rec.gain)


def ranking_rows(report: SplitReport, schema, t) -> list[dict]:
    """One row per feature, in the algorithm's order (usable first), for a table.
    ``t``: the translation function (column names and statuses)."""
    algo = report.algorithm
    feats = report.features
    order = list(report.ranking) + [j for j in range(len(feats)) if j not in report.ranking]
    rows = []
    for rank, j in enumerate(order, start=1):
        r = feats[j]
        usable = bool(r.usable)
        row = {
            t("splits.col.rank"): str(rank) if usable else "",
            t("splits.col.feature"): r.name,
            t("splits.col.test"): describe_test(schema, r.test) if usable and r.test else "–",
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
        # numbers as text to 4 decimals, "–" where a feature has no usable test (no "None" cells)
        rows.append(
            {
                k: "–" if v is None else num(v, 4) if isinstance(v, (float, np.floating)) else v
                for k, v in row.items()
            }
        )
    return rows


# ---------------------------------------------------------------------------------------------
# worked arithmetic

BREAK = "\u23ce"  # where a long sum may continue on the next line (see _aligned)


def _join(terms, per: int = 3) -> str:
    """Terms joined by +, with a line-break mark after every ``per`` terms."""
    out = ""
    for i, term in enumerate(terms):
        if i:
            out += f" {BREAK} + " if i % per == 0 else " + "
        out += term
    return out


def _aligned(formula: str) -> str:
    """``A = B = C = 0.247`` as an aligned block, one ``= …`` per line, long sums wrapped."""
    parts = formula.split(" = ")
    body = parts[0] + (" &= " + parts[1] if len(parts) > 1 else "")
    for p in parts[2:]:
        body += r" \\ &= " + p
    body = body.replace(BREAK, r"\\ &\qquad")
    return r"\begin{aligned}" + body + r"\end{aligned}"


def _frac(a, b) -> str:
    return rf"\tfrac{{{count(a)}}}{{{count(b)}}}"


def _ent_terms(counts) -> str:
    c = np.asarray(counts, dtype=float)
    tot = c.sum()
    terms = [rf"{_frac(v, tot)}\log_2{_frac(v, tot)}" for v in c if v > 0]
    return r"-\big(" + _join(terms) + r"\big)" if terms else "0"


def _gini_terms(counts) -> str:
    c = np.asarray(counts, dtype=float)
    tot = c.sum()
    terms = [rf"\big({_frac(v, tot)}\big)^2" for v in c if v > 0]
    return r"1 - \big(" + _join(terms) + r"\big)" if terms else "0"


def _set(label) -> str:
    """D^{v} with the branch's value (a multiway branch "= 青绿" shows as D^{青绿})."""
    label = str(label)
    if label.startswith("= "):
        label = label[2:]
    return rf"D^{{\text{{{latex_text(label)}}}}}"


def arithmetic_latex(ar: Arithmetic, t) -> list[tuple[str, str]]:
    """[(caption, LaTeX)] lines of the worked arithmetic of one test (``explain.arithmetic``),
    each formula an aligned block: definition, numbers filled in, result."""
    return [(caption, _aligned(formula)) for caption, formula in _arithmetic_lines(ar, t)]


def _arithmetic_lines(ar: Arithmetic, t) -> list[tuple[str, str]]:
    """[(caption, LaTeX)] lines of the worked arithmetic of one test (``explain.arithmetic``).
    Captions are translated plain text; formulas use the algorithm's own terms."""
    kind = ar.kind
    name = latex_text(ar.name)
    labels = ar.labels
    lines: list[tuple[str, str]] = []
    if kind == "entropy":
        lines.append(
            (
                t("splits.ar.ent_D"),
                rf"\mathrm{{Ent}}(D) = -\sum_k p_k\log_2 p_k = "
                rf"{_ent_terms(ar.node_counts)} = {num(ar.ent_D)}",
            )
        )
        tilde = ar.missing
        D = r"\tilde D" if tilde else "D"
        if tilde:
            lines.append(
                (
                    t("splits.ar.rho"),
                    rf"\rho = \frac{{\sum_{{x\in\tilde D}} w_x}}{{\sum_{{x\in D}} w_x}} = "
                    rf"{_frac(ar.K, ar.N)} = {num(ar.rho)}",
                )
            )
            lines.append(
                (
                    t("splits.ar.ent_known"),
                    rf"\mathrm{{Ent}}(\tilde D) = {_ent_terms(ar.known_counts)}"
                    rf" = {num(ar.ent_known)}",
                )
            )
        for v, lab in enumerate(labels):
            if v >= len(ar.branch_weights):
                break
            cnt = ar.branch_counts[v]
            head = rf"\mathrm{{Ent}}({_set(lab)})"
            caption = t("splits.ar.branch", branch=lab, counts=", ".join(count(c) for c in cnt))
            if tilde:
                head = head.replace("D^", r"\tilde D^")
                caption += " · r̃ = " + f"{count(ar.branch_weights[v])}/{count(ar.K)}"
            lines.append((caption, rf"{head} = {_ent_terms(cnt)} = {num(ar.branch_entropy[v])}"))
        weights = ar.branch_weights
        parts = _join(
            [rf"{_frac(w, ar.K)}\cdot {num(e)}" for w, e in zip(weights, ar.branch_entropy) if w > 0], 2
        )
        if tilde:
            lines.append(
                (
                    t("splits.ar.gain"),
                    rf"\mathrm{{Gain}}(D,\text{{{name}}}) = \rho\big(\mathrm{{Ent}}(\tilde D) - \sum_v \tilde r_v"
                    rf"\,\mathrm{{Ent}}(\tilde D^v)\big) = {num(ar.rho)}\times\big({num(ar.ent_known)} - "
                    rf"\big({parts}\big)\big) = {num(ar.gain)}",
                )
            )
        else:
            lines.append(
                (
                    t("splits.ar.gain"),
                    rf"\mathrm{{Gain}}(D,\text{{{name}}}) = \mathrm{{Ent}}(D) - \sum_v \frac{{|D^v|}}{{|D|}}"
                    rf"\mathrm{{Ent}}(D^v) = {num(ar.ent_D)} - \big({parts}\big) = {num(ar.gain)}",
                )
            )
        nz = [w for w in weights if w > 0]
        iv_terms = _join([rf"{_frac(w, ar.K)}\log_2{_frac(w, ar.K)}" for w in nz])
        lines.append(
            (
                t("splits.ar.iv"),
                rf"\mathrm{{IV}}(\text{{{name}}}) = -\sum_v \frac{{|{D}^v|}}{{|{D}|}}\log_2"
                rf"\frac{{|{D}^v|}}{{|{D}|}} = -\big({iv_terms}\big) = {num(ar.iv)}",
            )
        )
        gain_sym = r"\mathrm{Gain}"
        if ar.algorithm == "c45" and (ar.mdl_penalty or 0.0) > 0:
            lines.append(
                (
                    t("splits.ar.mdl"),
                    rf"\mathrm{{Gain}}' = \mathrm{{Gain}} - \frac{{\log_2 {ar.n_candidates or 0}}}"
                    rf"{{{count(ar.N)}}} = {num(ar.gain)} - {num(ar.mdl_penalty)} = "
                    rf"{num(ar.gain_after_penalty)}",
                )
            )
            gain_sym = r"\mathrm{Gain}'"
        shown_gain = (
            (ar.gain_after_penalty if ar.gain_after_penalty is not None else ar.gain)
            if ar.algorithm == "c45"
            else ar.gain
        )
        if ar.ratio_of == "split_info" and abs(ar.split_info - ar.iv) > 1e-12:
            parts_si = list(weights[weights > 0]) + ([ar.N - ar.K] if ar.N - ar.K > 1e-12 else [])
            si_terms = _join([rf"{_frac(w, ar.N)}\log_2{_frac(w, ar.N)}" for w in parts_si])
            lines.append(
                (
                    t("splits.ar.split_info"),
                    rf"\mathrm{{SplitInfo}} = -\big({si_terms}\big) = {num(ar.split_info)}",
                )
            )
            denom_sym, denom = r"\mathrm{SplitInfo}", ar.split_info
        else:
            denom_sym, denom = r"\mathrm{IV}", ar.iv if ar.ratio_of == "iv" else ar.split_info
        lines.append(
            (
                t("splits.ar.ratio"),
                rf"\mathrm{{Gain\_ratio}}(D,\text{{{name}}}) = \frac{{{gain_sym}}}{{{denom_sym}}} = "
                rf"\frac{{{num(shown_gain)}}}{{{num(denom)}}} = {num(ar.gain_ratio)}",
            )
        )
        return lines
    if kind in ("gini", "entropy_cart"):
        sym = r"\mathrm{Gini}" if kind == "gini" else r"\mathrm{Ent}"
        terms = _gini_terms if kind == "gini" else _ent_terms
        lines.append((t("splits.ar.impurity"), rf"{sym}(D) = {terms(ar.node_counts)} = {num(ar.impurity)}"))
        for v, lab in enumerate(labels):
            if v >= len(ar.branch_weights):
                break
            cnt = ar.branch_counts[v]
            lines.append(
                (
                    t("splits.ar.branch", branch=lab, counts=", ".join(count(c) for c in cnt)),
                    rf"{sym}({_set(lab)}) = {terms(cnt)} = {num(ar.branch_impurity[v])}",
                )
            )
        parts = _join(
            [rf"{_frac(w, ar.N)}\cdot {num(g)}" for w, g in zip(ar.branch_weights, ar.branch_impurity)], 2
        )
        lines.append(
            (
                t("splits.ar.weighted"),
                rf"{sym}(D,\text{{{name}}}) = \sum_v \frac{{|D^v|}}{{|D|}}{sym}(D^v) = "
                rf"{parts} = {num(ar.weighted)}",
            )
        )
        lines.append(
            (
                t("splits.ar.decrease"),
                rf"\Delta = {sym}(D) - {sym}(D,\text{{{name}}}) = {num(ar.impurity)} - "
                rf"{num(ar.weighted)} = {num(ar.decrease)}",
            )
        )
        lines.append(
            (
                t("splits.ar.weighted_decrease"),
                rf"\frac{{N_t}}{{N}}\,\Delta = {_frac(ar.N, ar.W_root)}"
                rf"\times {num(ar.decrease)} = {num(ar.weighted_decrease, 4)}",
            )
        )
        return lines
    # regression: the criterion's own impurity (absolute error around the median, Poisson deviance)
    name = {"absolute_error": "AE", "poisson": "Dev"}.get(str(ar.criterion), "MSE")
    formula = {
        "AE": r"\frac{{1}}{{|D|}}\sum_{{x\in D}}|y_x-\tilde y|".replace("{{", "{").replace("}}", "}"),
        "Dev": r"\frac{1}{|D|}\sum_{x\in D}y_x\ln\frac{y_x}{\bar y}",
    }.get(name)
    lines.append(
        (
            t("splits.ar.mse"),
            rf"\bar y = {num(ar.mean, 4)},\quad \mathrm{{MSE}}(D) = \frac{{1}}{{|D|}}"
            rf"\sum_{{x\in D}}(y_x-\bar y)^2 = {num(ar.impurity, 4)}"
            if formula is None
            else rf"\mathrm{{{name}}}(D) = {formula} = {num(ar.impurity, 4)}"
            + (
                r"\quad\text{(absolute error around the median)}"
                if name == "AE"
                else r"\quad\text{(Poisson deviance)}"
            ),
        )
    )
    for v, lab in enumerate(labels):
        if v >= len(ar.branch_weights):
            break
        lines.append(
            (
                t("splits.ar.branch_reg", branch=lab, n=count(ar.branch_weights[v])),
                rf"\bar y_{{{v + 1}}} = {num(ar.branch_mean[v], 4)},\quad \mathrm{{{name}}}({_set(lab)}) = "
                rf"{num(ar.branch_impurity[v], 4)}",
            )
        )
    parts = _join(
        [rf"{_frac(w, ar.N)}\cdot {num(g, 4)}" for w, g in zip(ar.branch_weights, ar.branch_impurity)], 3
    )
    lines.append(
        (
            t("splits.ar.weighted"),
            rf"\sum_v \frac{{|D^v|}}{{|D|}}\mathrm{{{name}}}(D^v) = {parts} = {num(ar.weighted, 4)}",
        )
    )
    lines.append(
        (
            t("splits.ar.decrease"),
            rf"\Delta = {num(ar.impurity, 4)} - {num(ar.weighted, 4)} = "
            rf"{num(ar.decrease, 4)}",
        )
    )
    return lines


def candidate_label(rec: FeatureSplits, k: int, schema, algorithm: str) -> str:
    """Short text of candidate ``k`` of a feature record: its test and score."""
    cand = rec.candidates
    s = float(cand.score[k])
    if cand.threshold is not None:
        x = float(cand.threshold[k])
        return f"≤ {x:.6g} · {num(s, 4)}"
    if cand.left_mask is not None:
        f = schema.features[rec.feature]
        mask = np.asarray(cand.left_mask[k], dtype=bool)
        left = [f.categories[i] for i in np.nonzero(mask[:-1])[0]]
        return "{" + ", ".join(left) + "}" + f" · {num(s, 4)}"
    return f"{describe_test(schema, rec.test)} · {num(s, 4)}"


def one_vs_rest_rows(rec: FeatureSplits, schema, t) -> list[dict]:
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
                col_dec: num(float(cand.score[k]), 4),
            }
        )
    return rows


def candidate_order(scores, limit: int) -> list[int]:
    """Candidate indices best first (ties in order, non-finite scores last), at most ``limit``."""
    sc = np.asarray(scores, dtype=float)
    return [int(k) for k in np.argsort(-np.where(np.isfinite(sc), sc, -np.inf), kind="stable")[:limit]]


def children_values(kids, classes) -> tuple[list, np.ndarray]:
    """(branch labels, per branch its class counts, or its weight for regression) of
    ``dtcore.explain.children_summary`` records, as the children chart takes them."""
    labels = [k.label for k in kids]
    if classes is not None:
        return labels, np.array([k.class_counts for k in kids])
    return labels, np.array([[k.weight] for k in kids])


def children_table(kids, classes, t) -> pd.DataFrame:
    """Branch, weight, rows (and the mean for regression) per child. ``t``: translation."""
    table = pd.DataFrame(
        {
            t("splits.col.branch"): [k.label for k in kids],
            t("splits.weight"): [k.weight for k in kids],
            t("splits.col.rows"): [k.n_rows for k in kids],
        }
    )
    if classes is None:
        table[t("splits.col.mean")] = [k.mean for k in kids]
    return table
