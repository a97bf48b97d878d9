"""The worked arithmetic of one test as LaTeX lines, every line true as printed.

Each formula shows its definition, the numbers filled in and the result. The numbers of one
test are printed with one number of decimals ``d``: at least ``DECIMALS`` of its kind (the
textbook's three for ID3/C4.5, whose worked examples print Gain(D, age) = 0.247; the ranking
table's four for CART, so its Δ reads as the table's), and more only where fewer would make a
line false or meaningless as printed (``0.661 − 0.661 = 0.001`` becomes ``0.6614 − 0.6607 =
0.0007``): ``decimals_for`` recomputes every line from its printed operands and accepts ``d`` when
the printed result is that value correctly rounded (shown with =), or, when it still has two
significant digits, within the rounding of the operands (shown with ≈: ``0.998 − (4/17·0.000 +
13/17·0.961) ≈ 0.262``, not ``0.997503 − … = 0.262439``, which no student copies and which
overflowed its column). Long sums break onto further rows (``formula_layout``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dtcore.explain import Arithmetic

from .formula_layout import BREAK, aligned, join_terms
from .splits import count, latex_text, num
from .text import Translate

#: the fewest decimals a result is shown with: the textbook's for the entropy family, the
#: ranking table's for CART's impurities and the regression errors
DECIMALS = {"entropy": 3, "gini": 4, "entropy_cart": 4, "mse": 4}
#: the most; a line that holds at none (2/3 − 1/3 = 1/3 never rounds exactly: 0.6667 − 0.3333 =
#: 0.3334) is shown at the base decimals with ≈ before its result
MAX_DECIMALS = 6


#: the page's style for formulas: one wider than its column scrolls instead of being cut off; the
#: scroll box clips vertically too, so it leaves room above and below for superscripts such as
#: Ent(D^{≤ 0.3815}) (CJK fallback glyphs stand taller than KaTeX's own). Below 1 400 px the two
#: columns of the arithmetic (the container ``ARITHMETIC_KEY``) are narrower than the rows
#: ``formula_layout`` breaks to (a 1 280 px laptop: 378 px for 22.3 em), so they stand one above
#: the other there, each the page's width. KaTeX ends a stacked box (``\begin{aligned}``, a
#: fraction) with a 2 px strut pulled back by a -2 px margin (``.vlist-s``): at the formula's right
#: end it overhung the scroll box by 2 px, so every formula scrolled 2 px and a desktop browser
#: with classic scrollbars drew a scrollbar under each on hover; 2 px of padding takes it in.
ARITHMETIC_KEY = "split_arithmetic"
FORMULA_CSS = (
    "<style>.katex-display{overflow-x:auto;overflow-y:hidden;padding:0.4em 0 0.25em;margin:0.6em 0}"
    ".katex-display>.katex{padding-right:2px}"
    f"@media (max-width:1399px){{.st-key-{ARITHMETIC_KEY} [data-testid=stHorizontalBlock]{{flex-wrap:wrap}}"
    f".st-key-{ARITHMETIC_KEY} [data-testid=stColumn]{{min-width:100%}}}}</style>"
)


def _weighted_terms(ar: Arithmetic, digits: int, per: int) -> str:
    """The sum Σ |D^v|/|D|·I(D^v) term by term, ``per`` terms to a line."""
    assert ar.branch_weights is not None and ar.branch_impurity is not None  # every test has branches
    terms = [
        rf"{_frac(w, ar.N)}\cdot {num(g, digits)}" for w, g in zip(ar.branch_weights, ar.branch_impurity)
    ]
    return join_terms(terms, per)


def _frac(a: float, b: float) -> str:
    return rf"\tfrac{{{count(a)}}}{{{count(b)}}}"


def _ent_terms(counts: ArrayLike) -> str:
    c = np.asarray(counts, dtype=float)
    tot = c.sum()
    terms = [rf"{_frac(v, tot)}\log_2{_frac(v, tot)}" for v in c if v > 0]
    return r"-\big(" + join_terms(terms) + r"\big)" if terms else "0"


def _gini_terms(counts: ArrayLike) -> str:
    c = np.asarray(counts, dtype=float)
    tot = c.sum()
    terms = [rf"\big({_frac(v, tot)}\big)^2" for v in c if v > 0]
    return r"1 - \big(" + join_terms(terms) + r"\big)" if terms else "0"


#: a branch label longer than this is written D^{v} (its number), the caption naming the branch
LABEL_IN_FORMULA = 16


def _set(label: object, v: int) -> str:
    """D^{v} with the branch's value (a multiway branch "= 青绿" shows as D^{青绿}); a long label
    (a CART subset of many categories) as the branch's number, so the formula stays narrow."""
    text = str(label)
    if text.startswith("= "):
        text = text[2:]
    if len(text) > LABEL_IN_FORMULA:
        return rf"D^{{{v + 1}}}"
    return rf"D^{{\text{{{latex_text(text)}}}}}"


def _branch_caption(label: object, v: int) -> str:
    """A branch's label for a caption, with its symbol D¹, D², … when the formula uses that."""
    shown = str(label)
    if len(shown.removeprefix("= ")) <= LABEL_IN_FORMULA:
        return shown
    return f"{shown} (D{str(v + 1).translate(_SUPERSCRIPT)})"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def arithmetic_latex(ar: Arithmetic, t: Translate) -> list[tuple[str, str]]:
    """[(caption, LaTeX)] lines of the worked arithmetic of one test (``explain.arithmetic``),
    each formula an aligned block: definition, numbers filled in, result."""
    return [(caption, aligned(formula)) for caption, formula in _arithmetic_lines(ar, t, decimals_for(ar))]


# ---------------------------------------------------------------------------------------------
# true as printed


Rounding = Callable[[float | None], float]


@dataclass(frozen=True)
class Check:
    """A computed line: its value from the printed operands, and the result it prints.
    ``shown``: operands that must not print as 0 when they are not (C4.5's MDL penalty on
    70 000 rows, 0.00018, read "0.163 − 0.000": true as printed, yet it said nothing is taken)."""

    value: Callable[[Rounding], float]
    result: float | None
    shown: tuple[float, ...] = ()

    def _visible(self, r: Rounding) -> bool:
        return all(r(v) != 0 for v in self.shown if v)

    def exact(self, d: int) -> bool:
        r = _rounding(d)
        return self._visible(r) and _holds(self.value(r), r(self.result), d)

    def approximate(self, d: int) -> bool:
        """Within the operands' rounding, and still two significant digits (shown with ≈)."""
        r = _rounding(d)
        return (
            self._visible(r)
            and _significant(r(self.result), d)
            and _holds(self.value(r), r(self.result), d, APPROX_UNITS)
        )


#: how far (in units of the last printed decimal) a result shown with ≈ may be from the value of
#: its printed operands: the operands' own rounding (tests/ui/test_arithmetic_truth.py holds it)
APPROX_UNITS = 1.5


def _holds(value: float, printed_result: float, d: int, units: float = 0.5) -> bool:
    """``printed_result`` is ``value`` (computed from printed operands) rounded to ``d`` decimals
    (``units``: 0.5, exactly; ``APPROX_UNITS``: within the operands' rounding, for ≈)."""
    return abs(value - printed_result) <= units * 10.0**-d * (1 + 1e-9) + 1e-15


def _significant(printed_result: float, d: int) -> bool:
    """The result printed with ``d`` decimals keeps two significant digits (0.262, not 0.004)."""
    return abs(printed_result) >= 10.0 ** (1 - d)


def _weighted_sum(fracs: Sequence[float], values: Sequence[float], r: Rounding) -> float:
    return float(sum(f * r(v) for f, v in zip(fracs, values)))


def _checks(ar: Arithmetic) -> dict[str, Check]:
    """The lines whose result is computed from other printed numbers, by name."""
    checks: dict[str, Check] = {}
    if ar.kind == "entropy":
        assert ar.branch_weights is not None and ar.branch_entropy is not None
        K = float(ar.K if ar.K is not None else ar.N)
        live = [(float(w) / K, float(e)) for w, e in zip(ar.branch_weights, ar.branch_entropy) if w > 0]
        fr, ents = [f for f, _ in live], [e for _, e in live]
        if ar.missing:
            checks["gain"] = Check(
                lambda r: r(ar.rho) * (r(ar.ent_known) - _weighted_sum(fr, ents, r)), ar.gain
            )
        else:
            checks["gain"] = Check(lambda r: r(ar.ent_D) - _weighted_sum(fr, ents, r), ar.gain)
        if ar.algorithm == "c45" and (ar.mdl_penalty or 0.0) > 0:
            checks["mdl"] = Check(
                lambda r: r(ar.gain) - r(ar.mdl_penalty),
                ar.gain_after_penalty,
                (float(ar.mdl_penalty or 0.0),),
            )
        shown = _shown_gain(ar)
        denom = _denominator(ar)[1]
        if denom and ar.gain_ratio is not None and np.isfinite(ar.gain_ratio):
            checks["ratio"] = Check(
                lambda r: r(shown) / r(denom) if r(denom) != 0 else math.nan, ar.gain_ratio
            )
        return checks
    assert ar.branch_weights is not None and ar.branch_impurity is not None
    fr = [float(w) / float(ar.N) for w in ar.branch_weights]
    imps = [float(g) for g in ar.branch_impurity]
    checks["weighted"] = Check(lambda r: _weighted_sum(fr, imps, r), ar.weighted)
    checks["decrease"] = Check(lambda r: r(ar.impurity) - r(ar.weighted), ar.decrease)
    if ar.kind in ("gini", "entropy_cart"):
        assert ar.W_root is not None  # a CART classification test always has its root weight
        share = float(ar.N) / float(ar.W_root)
        checks["weighted_decrease"] = Check(lambda r: share * r(ar.decrease), ar.weighted_decrease)
    return checks


def _rounding(d: int) -> Rounding:
    def r(x: float | None) -> float:
        return round(float(x), d) if x is not None and np.isfinite(x) else float("nan")

    return r


def decimals_for(ar: Arithmetic) -> dict[str, int]:
    """Decimals per line: ``"base"`` (``DECIMALS`` of the kind) for the lines that hold whatever
    the rounding; for each computed line, in this order: exact at the base or one decimal more,
    else approximately at the base (``"<name>~": 1``, shown with ≈) when the result keeps two
    significant digits there, else the fewest decimals up to ``MAX_DECIMALS`` at which it holds
    (a small difference of nearly equal numbers); a line that holds at none gets the base and ≈."""
    base = DECIMALS.get(ar.kind, 4)
    out = {"base": base}
    for name, check in _checks(ar).items():
        tries = [(base, "="), (base + 1, "="), (base, "≈")]
        tries += [(d, sign) for d in range(base + 1, MAX_DECIMALS + 1) for sign in "=≈"][1:]
        d, sign = next(
            ((d, sign) for d, sign in tries if (check.exact(d) if sign == "=" else check.approximate(d))),
            (base, "≈"),
        )
        out[name] = d
        if sign == "≈":
            out[name + "~"] = 1
    return out


def _eq(ds: dict[str, int], name: str) -> str:
    """The sign before a computed line's result: = when it holds as printed, else ≈."""
    return r" \approx " if ds.get(name + "~") else " = "


def _shown_gain(ar: Arithmetic) -> float | None:
    """The gain the ratio divides: C4.5's after its MDL penalty, else the plain gain."""
    if ar.algorithm == "c45" and ar.gain_after_penalty is not None:
        return ar.gain_after_penalty
    return ar.gain


def _denominator(ar: Arithmetic) -> tuple[str, float | None]:
    """(symbol, value) of the gain ratio's denominator: IV, or C4.5's split information."""
    if (
        ar.ratio_of == "split_info"
        and ar.split_info is not None
        and abs(ar.split_info - (ar.iv or 0.0)) > 1e-12
    ):
        return r"\mathrm{SplitInfo}", ar.split_info
    return r"\mathrm{IV}", ar.iv if ar.ratio_of == "iv" else ar.split_info


def _arithmetic_lines(ar: Arithmetic, t: Translate, ds: dict[str, int]) -> list[tuple[str, str]]:
    """[(caption, LaTeX)] lines of the worked arithmetic of one test (``explain.arithmetic``).
    Captions are translated plain text; formulas use the algorithm's own terms; ``ds``: the
    decimals of each line (``decimals_for``)."""
    d = ds["base"]
    kind = ar.kind
    name = latex_text(ar.name)
    labels = ar.labels
    lines: list[tuple[str, str]] = []
    if kind == "entropy":
        # what explain.arithmetic fills in for an entropy-family test
        assert ar.node_counts is not None and ar.branch_counts is not None and ar.K is not None
        assert ar.branch_weights is not None and ar.branch_entropy is not None
        lines.append(
            (
                t("splits.ar.ent_D"),
                rf"\mathrm{{Ent}}(D) = -\sum_k p_k\log_2 p_k = "
                rf"{_ent_terms(ar.node_counts)} = {num(ar.ent_D, d)}",
            )
        )
        tilde = ar.missing
        D = r"\tilde D" if tilde else "D"
        if tilde:
            assert ar.known_counts is not None  # missing values: the known rows' counts
            lines.append(
                (
                    t("splits.ar.rho"),
                    rf"\rho = \frac{{\sum_{{x\in\tilde D}} w_x}}{{\sum_{{x\in D}} w_x}} = "
                    rf"{_frac(ar.K, ar.N)} = {num(ar.rho, d)}",
                )
            )
            lines.append(
                (
                    t("splits.ar.ent_known"),
                    rf"\mathrm{{Ent}}(\tilde D) = {_ent_terms(ar.known_counts)}"
                    rf" = {num(ar.ent_known, d)}",
                )
            )
        for v, lab in enumerate(labels):
            if v >= len(ar.branch_weights):
                break
            cnt = ar.branch_counts[v]
            head = rf"\mathrm{{Ent}}({_set(lab, v)})"
            caption = t(
                "splits.ar.branch", branch=_branch_caption(lab, v), counts=", ".join(count(c) for c in cnt)
            )
            if tilde:
                head = head.replace("D^", r"\tilde D^")
                caption += " · r̃ = " + f"{count(ar.branch_weights[v])}/{count(ar.K)}"
            lines.append((caption, rf"{head} = {_ent_terms(cnt)} = {num(ar.branch_entropy[v], d)}"))
        weights = ar.branch_weights
        parts = join_terms(
            [
                rf"{_frac(w, ar.K)}\cdot {num(e, ds['gain'])}"
                for w, e in zip(weights, ar.branch_entropy)
                if w > 0
            ],
            2,
        )
        if tilde:
            lines.append(
                (
                    t("splits.ar.gain"),
                    rf"\mathrm{{Gain}}(D,\text{{{name}}}) = \rho\big(\mathrm{{Ent}}(\tilde D) - \sum_v \tilde r_v"
                    rf"\,\mathrm{{Ent}}(\tilde D^v)\big) = {num(ar.rho, ds['gain'])}\times\big({num(ar.ent_known, ds['gain'])} - {BREAK}"
                    rf"\big({parts}\big)\big){_eq(ds, 'gain')}{num(ar.gain, ds['gain'])}",
                )
            )
        else:
            lines.append(
                (
                    t("splits.ar.gain"),
                    rf"\mathrm{{Gain}}(D,\text{{{name}}}) = \mathrm{{Ent}}(D) - \sum_v \frac{{|D^v|}}{{|D|}}"
                    rf"\mathrm{{Ent}}(D^v) = {num(ar.ent_D, ds['gain'])} - \big({parts}\big){_eq(ds, 'gain')}{num(ar.gain, ds['gain'])}",
                )
            )
        nz = [w for w in weights if w > 0]
        iv_terms = join_terms([rf"{_frac(w, ar.K)}\log_2{_frac(w, ar.K)}" for w in nz])
        lines.append(
            (
                t("splits.ar.iv"),
                rf"\mathrm{{IV}}(\text{{{name}}}) = -\sum_v \frac{{|{D}^v|}}{{|{D}|}}\log_2"
                rf"\frac{{|{D}^v|}}{{|{D}|}} = -\big({iv_terms}\big) = {num(ar.iv, d)}",
            )
        )
        gain_sym = r"\mathrm{Gain}"
        if ar.algorithm == "c45" and (ar.mdl_penalty or 0.0) > 0:
            lines.append(
                (
                    t("splits.ar.mdl"),
                    rf"\mathrm{{Gain}}' = \mathrm{{Gain}} - \frac{{\log_2 {ar.n_candidates or 0}}}"
                    rf"{{{count(ar.N)}}} = {num(ar.gain, ds['mdl'])} - {num(ar.mdl_penalty, ds['mdl'])}{_eq(ds, 'mdl')}"
                    rf"{num(ar.gain_after_penalty, ds['mdl'])}",
                )
            )
            gain_sym = r"\mathrm{Gain}'"
        shown_gain = _shown_gain(ar)
        denom_sym, denom = _denominator(ar)
        if denom_sym == r"\mathrm{SplitInfo}":
            parts_si = list(weights[weights > 0]) + ([ar.N - ar.K] if ar.N - ar.K > 1e-12 else [])
            si_terms = join_terms([rf"{_frac(w, ar.N)}\log_2{_frac(w, ar.N)}" for w in parts_si])
            lines.append(
                (
                    t("splits.ar.split_info"),
                    rf"\mathrm{{SplitInfo}} = -\big({si_terms}\big) = {num(ar.split_info, d)}",
                )
            )
        lines.append(
            (
                t("splits.ar.ratio"),
                rf"\mathrm{{Gain\_ratio}}(D,\text{{{name}}}) = \frac{{{gain_sym}}}{{{denom_sym}}} = "
                rf"\frac{{{num(shown_gain, ds['ratio'])}}}{{{num(denom, ds['ratio'])}}}{_eq(ds, 'ratio')}{num(ar.gain_ratio, ds['ratio'])}",
            )
        )
        return lines
    if kind in ("gini", "entropy_cart"):
        # what explain.arithmetic fills in for a CART classification test
        assert ar.node_counts is not None and ar.branch_counts is not None and ar.W_root is not None
        assert ar.branch_weights is not None and ar.branch_impurity is not None
        sym = r"\mathrm{Gini}" if kind == "gini" else r"\mathrm{Ent}"
        terms = _gini_terms if kind == "gini" else _ent_terms
        lines.append(
            (t("splits.ar.impurity"), rf"{sym}(D) = {terms(ar.node_counts)} = {num(ar.impurity, d)}")
        )
        for v, lab in enumerate(labels):
            if v >= len(ar.branch_weights):
                break
            cnt = ar.branch_counts[v]
            lines.append(
                (
                    t(
                        "splits.ar.branch",
                        branch=_branch_caption(lab, v),
                        counts=", ".join(count(c) for c in cnt),
                    ),
                    rf"{sym}({_set(lab, v)}) = {terms(cnt)} = {num(ar.branch_impurity[v], d)}",
                )
            )
        parts = _weighted_terms(ar, ds["weighted"], 2)
        lines.append(
            (
                t("splits.ar.weighted"),
                rf"{sym}(D,\text{{{name}}}) = \sum_v \frac{{|D^v|}}{{|D|}}{sym}(D^v) = "
                rf"{parts}{_eq(ds, 'weighted')}{num(ar.weighted, ds['weighted'])}",
            )
        )
        lines.append(
            (
                t("splits.ar.decrease"),
                rf"\Delta = {sym}(D) - {sym}(D,\text{{{name}}}) = {num(ar.impurity, ds['decrease'])} - "
                rf"{num(ar.weighted, ds['decrease'])}{_eq(ds, 'decrease')}{num(ar.decrease, ds['decrease'])}",
            )
        )
        lines.append(
            (
                t("splits.ar.weighted_decrease"),
                rf"\frac{{N_t}}{{N}}\,\Delta = {_frac(ar.N, ar.W_root)}"
                rf"\times {num(ar.decrease, ds['weighted_decrease'])}{_eq(ds, 'weighted_decrease')}{num(ar.weighted_decrease, ds['weighted_decrease'])}",
            )
        )
        return lines
    # regression: the criterion's own impurity (absolute error around the median, Poisson deviance)
    assert ar.branch_weights is not None and ar.branch_mean is not None and ar.branch_impurity is not None
    name = {"absolute_error": "AE", "poisson": "Dev"}.get(str(ar.criterion), "MSE")
    formula = {
        "AE": r"\frac{1}{|D|}\sum_{x\in D}|y_x-\tilde y|",
        "Dev": r"\frac{1}{|D|}\sum_{x\in D}y_x\ln\frac{y_x}{\bar y}",
    }.get(name)
    lines.append(
        (
            t("splits.ar." + name.lower()),  # the caption names the impurity the line computes
            rf"\bar y = {num(ar.mean, d)},\quad \mathrm{{MSE}}(D) = \frac{{1}}{{|D|}}"
            rf"\sum_{{x\in D}}(y_x-\bar y)^2 = {num(ar.impurity, d)}"
            if formula is None
            else rf"\mathrm{{{name}}}(D) = {formula} = {num(ar.impurity, d)}",
        )
    )
    for v, lab in enumerate(labels):
        if v >= len(ar.branch_weights):
            break
        lines.append(
            (
                t("splits.ar.branch_reg", branch=_branch_caption(lab, v), n=count(ar.branch_weights[v])),
                rf"\bar y_{{{v + 1}}} = {num(ar.branch_mean[v], d)},\quad \mathrm{{{name}}}({_set(lab, v)}) = "
                rf"{num(ar.branch_impurity[v], d)}",
            )
        )
    parts = _weighted_terms(ar, ds["weighted"], 3)
    lines.append(
        (
            t("splits.ar.weighted"),
            rf"\sum_v \frac{{|D^v|}}{{|D|}}\mathrm{{{name}}}(D^v) = {parts}{_eq(ds, 'weighted')}{num(ar.weighted, ds['weighted'])}",
        )
    )
    lines.append(
        (
            t("splits.ar.decrease"),
            rf"\Delta = {num(ar.impurity, ds['decrease'])} - {num(ar.weighted, ds['decrease'])}{_eq(ds, 'decrease')}"
            rf"{num(ar.decrease, ds['decrease'])}",
        )
    )
    return lines
