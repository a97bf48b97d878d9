"""Every line of the worked arithmetic is true as printed: recomputed from the numbers it shows,
its result is what it prints, correctly rounded (issue 16: no "0.661 − 0.661 = 0.001").

The LaTeX is read back by a small evaluator of the forms the lines use (fractions, products,
sums, log₂, squares), independent of how ``ui.views.arithmetic`` chose the decimals.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from dtcore import explain
from tests.dtcore.test_explain import SAMPLES, fit
from ui.views.arithmetic import arithmetic_latex
from ui.views.formula_layout import ROW_EM, width_em

CASES = [
    (name, algo, params)
    for name, (_, _) in SAMPLES.items()
    for algo, params in (("id3", {}), ("c45", {"prune": False}), ("cart", {}))
    if not (name in ("regression_toy5", "diabetes") and algo != "cart")
] + [
    ("watermelon_3.0", "cart", {"criterion": "entropy"}),
    ("diabetes", "cart", {"criterion": "absolute_error", "max_depth": 2}),
    ("diabetes", "cart", {"criterion": "poisson", "max_depth": 2}),
]


def tr(key: str, **values) -> str:
    return key


def _python(expr: str) -> str:
    """The filled-in numbers of one line as a Python expression."""
    expr = expr.replace(r"\\ &\qquad", " ").replace(r"\big(", "(").replace(r"\big)", ")")
    expr = re.sub(r"\\t?frac\{([^{}]*)\}\{([^{}]*)\}", r"((\1)/(\2))", expr)
    expr = expr.replace(r"\log_2", "*log2").replace(r"\cdot", "*").replace(r"\times", "*")
    expr = expr.replace("^2", "**2").replace("−", "-")
    return expr


def _lines(text: str) -> list[tuple[str, str, bool]]:
    """(numbers filled in, printed result, shown with ≈) of each aligned block that has both."""
    out = []
    for block in re.findall(r"\\begin\{aligned\}(.*?)\\end\{aligned\}", text, re.S):
        approx = r"&\approx " in block
        parts = [p.strip().removesuffix("\\\\").strip() for p in re.split(r"&= |&\\approx ", block)]
        if len(parts) >= 2 and re.fullmatch(r"-?\d+\.\d+", parts[-1]):
            out.append((parts[-2], parts[-1], approx))
    return out


@pytest.mark.parametrize(("name", "algo", "params"), CASES, ids=lambda v: str(v))
def test_every_printed_line_holds_at_the_root(name, algo, params):
    est, X, y = fit(name, algo, **params)
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    checked = 0
    for rec in rep.features:
        if not rec.usable or rec.test is None:
            continue
        text = "\n".join(f for _, f in arithmetic_latex(explain.arithmetic(nd, rec.test, rep), tr))
        for filled, result, approx in _lines(text):
            python = _python(filled)
            if not re.fullmatch(r"[\d\s.+\-*/()log2]*", python):
                continue  # a definition with symbols, not numbers
            value = eval(python, {"__builtins__": {}}, {"log2": math.log2})  # noqa: S307
            unit = 10.0 ** -len(result.split(".")[1])
            # "=": the printed result is the value of the printed numbers, correctly rounded;
            # "≈" (no number of decimals makes it exact, e.g. 2/3 − 1/3): within one unit more
            slack = 1.5 * unit if approx else 0.5 * unit
            assert abs(value - float(result)) <= slack + 1e-12, (rec.name, filled, result)
            checked += 1
    assert checked > 0


def test_a_difference_of_nearly_equal_numbers_gets_the_digits_it_needs():
    """The issue's case: Ent(D) and the weighted entropy of a useless test agree to three decimals."""
    from ui.views.arithmetic import decimals_for

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(400, 1)).astype(float)
    y = rng.integers(0, 2, size=400)
    from dtcore.id3.estimator import ID3Classifier

    est = ID3Classifier().fit(X, y)
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    ar = explain.arithmetic(nd, rep.features[0].test, rep)
    assert ar.gain < 0.005
    ds = decimals_for(ar)
    assert ds["gain"] > 3 and ds["base"] == 3
    gain_line = [f for _, f in arithmetic_latex(ar, tr) if "Gain}(D" in f][0]
    printed = float(gain_line.rsplit("&= ", 1)[1].removesuffix(r"\end{aligned}"))
    assert printed != 0 and round(printed, 3) == round(ar.gain, 3)


def test_long_branch_labels_become_numbered_sets_so_formulas_stay_narrow():
    est, X, y = fit("credit-g", "cart")
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    purpose = rep.features[est.schema_.index("purpose")]
    lines = arithmetic_latex(explain.arithmetic(nd, purpose.test, rep), lambda k, **v: f"{k} {v}")
    text = "\n".join(f for _, f in lines)
    assert r"\mathrm{Gini}(D^{1})" in text and r"\mathrm{Gini}(D^{2})" in text
    assert "radio/tv" not in text  # the subsets are named in the captions instead
    captions = [c for c, _ in lines if "splits.ar.branch" in c]
    assert len(captions) == 2 and "(D¹)" in captions[0] and "radio/tv" in "".join(captions)


@pytest.mark.parametrize(
    ("criterion", "caption", "symbol"), [("absolute_error", "ae", "AE"), ("poisson", "dev", "Dev")]
)
def test_a_regression_impurity_line_is_captioned_by_its_own_criterion(criterion, caption, symbol):
    """The node's impurity under absolute error or Poisson deviance was captioned "mean squared
    error", with an English note inside the formula whatever the language."""
    est, X, y = fit("diabetes", "cart", criterion=criterion, max_depth=2)
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    lines = arithmetic_latex(explain.arithmetic(nd, rep.features[0].test, rep), tr)
    line = next((c, f) for c, f in lines if rf"\mathrm{{{symbol}}}(D) &=" in f)
    assert line[0] == f"splits.ar.{caption}"
    assert all(r"\text{(" not in f for _, f in lines)
    from ui.i18n import translate

    assert "median" in translate("splits.ar.ae", "en") and "中位数" in translate("splits.ar.ae", "zh")


def test_a_continuous_cut_keeps_the_textbook_decimals():
    """Issue 27: C4.5's gain of 密度 ≤ 0.36 on watermelon 3.0 was printed with six decimals
    (0.997503 − … = 0.262439), wider than its column; at three it holds within the operands'
    rounding, which ≈ says."""
    est, X, y = fit("watermelon_3.0", "c45", prune=False)
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    density = rep.features[est.schema_.index("密度")]
    lines = arithmetic_latex(explain.arithmetic(nd, density.test, rep), tr)
    gain = next(f for c, f in lines if c == "splits.ar.gain")
    assert r"&= 0.998 - \big(\tfrac{4}{17}\cdot 0.000 + \tfrac{13}{17}\cdot 0.961\big)" in gain
    assert gain.endswith(r"&\approx 0.262\end{aligned}")


@pytest.mark.parametrize(("name", "algo", "params"), CASES, ids=lambda v: str(v))
def test_no_line_needs_more_than_one_extra_decimal_at_the_root(name, algo, params):
    """Extra decimals are for a small difference of nearly equal numbers; elsewhere a line is
    exact with one more decimal at most, or shown with ≈ at the base."""
    from ui.views.arithmetic import decimals_for

    est, X, y = fit(name, algo, **params)
    nd = explain.explainer_data(est, X, y, None, 0)
    rep = explain.report_for(nd)
    for rec in rep.features:
        if rec.usable and rec.test is not None:
            ds = decimals_for(explain.arithmetic(nd, rec.test, rep))
            assert max(v for k, v in ds.items() if not k.endswith("~")) <= ds["base"] + 1, (rec.name, ds)


def aligned_rows_em(tex: str) -> list[float]:
    """The estimated width (em) of each row of an aligned block, its left cell's column included."""
    body = re.search(r"\\begin\{aligned\}(.*)\\end\{aligned\}", tex, re.S)
    assert body, tex
    cells = [row.partition("&") for row in body.group(1).split(r"\\")]
    left = max(width_em(c[0]) for c in cells)
    return [left + width_em(c[2]) for c in cells]


def _five_digit_node(algo: str):
    """The root of a 70 000-row table: a four-valued text feature and a number, a class target
    (C4.5) or a numeric one (CART regression), so every fraction is a five-digit count of 70 000."""
    rng = np.random.default_rng(3)
    n = 70_000
    city = rng.integers(0, 4, n)
    x = rng.normal(size=n)
    names = ["checking_account_status", "x"]
    if algo == "c45":
        from dtcore.c45.estimator import C45Classifier

        y = ((x + city + rng.normal(size=n)) > 1.5).astype(int)
        est = C45Classifier(min_cases=10_000)  # a small tree: only its root is read
    else:
        from dtcore.cart.estimator import CARTRegressor

        y = 1000 * x + 300 * city + rng.normal(size=n)
        est = CARTRegressor(max_depth=1)
    X = np.column_stack([city, x]).astype(float)
    est.fit(X, y, feature_names=names, feature_kinds=["categorical", "continuous"])
    nd = explain.explainer_data(est, est.encode(X), y, None, 0)
    return nd, explain.report_for(nd)


@pytest.mark.parametrize("algo", ["c45", "cart"])
def test_five_digit_fractions_break_into_rows_that_fit_the_column_and_still_hold(algo):
    """At a node of 70 000 rows a sum of fractions such as 17512/70000·0.8813 ran past its
    half-page column (the page scrolled it sideways): its rows now break where the estimate says
    they would pass ``ROW_EM``, and every line still holds as printed."""
    nd, rep = _five_digit_node(algo)
    broken = 0
    for rec in rep.features:
        assert rec.usable and rec.test is not None
        text = "\n".join(f for _, f in arithmetic_latex(explain.arithmetic(nd, rec.test, rep), tr))
        assert re.search(r"\\tfrac\{\d{5}\}\{70000\}", text), text[:300]
        for tex in re.findall(r"\\begin\{aligned\}.*?\\end\{aligned\}", text, re.S):
            assert max(aligned_rows_em(tex)) <= ROW_EM, tex
        broken += text.count(r"\\ &\qquad")
        for filled, result, approx in _lines(text):
            python = _python(filled)
            if re.fullmatch(r"[\d\s.+\-*/()log2]*", python):
                value = eval(python, {"__builtins__": {}}, {"log2": math.log2})  # noqa: S307
                unit = 10.0 ** -len(result.split(".")[1])
                assert abs(value - float(result)) <= (1.5 if approx else 0.5) * unit + 1e-12, (filled, result)
    assert broken > 0
