"""How numbers are written for people: the one home of every number format the exports, the
command line, the split explorer and the app print (thresholds keep theirs in
``dtcore.export.thresholds``, which writes its digits with :func:`fmt_num`).

* :func:`fmt_num`: ``precision`` significant digits, no exponent for large values, the exact
  shortest form when precision is None (DOT, JSON, text rules, what-if, thresholds);
* :func:`fmt_weight`: a (weighted) sample count, whole or with 2 decimals;
* :func:`fmt_fixed` / :func:`fmt_score`: a fixed number of decimals (3 for scores: the
  textbooks' precision); a value that rounds to zero prints unsigned, never "-0.000";
  :func:`fmt_fixed_fine` / :func:`fmt_score_fine` give a tiny positive value two significant
  digits instead;
* :func:`fmt_metric` / :func:`fmt_pct`: a metric at 4 significant digits, a share as a
  percentage; "–" when there is none.
"""

from __future__ import annotations

import math
from typing import Any

#: what stands for a number that is not there (None, NaN)
NONE = "–"


def fmt_num(x: float, precision: int | None = None) -> str:
    """A number for people: ``%.{precision}g`` without exponents for large values; exact when
    precision is None (shortest repr that round-trips, ``3`` for 3.0)."""
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if precision is None:
        s = repr(x)
        return s[:-2] if s.endswith(".0") else s
    if x != 0 and abs(x) >= 10**precision and abs(x) < 1e16:
        return f"{x:.0f}"
    s = f"{x:.{precision}g}"
    return "0" if s == "-0" else s


def fmt_weight(w: float) -> str:
    """Sample weights: whole numbers as integers, fractional ones (C4.5) with 2 decimals."""
    w = float(w)
    r = round(w)
    return str(int(r)) if abs(w - r) < 1e-9 else f"{w:.2f}"


def fmt_fixed(x: Any, digits: int = 3) -> str:
    """``x`` to ``digits`` decimals; "–" for None or a value that is not finite. A value that
    rounds to zero is "0.000…" whatever its sign (a pure node's entropy comes out as −1e-17)."""
    if x is None:
        return NONE
    x = float(x)
    if not math.isfinite(x):
        return NONE
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def fmt_score(x: Any) -> str:
    """A score (gain, ratio, impurity, accuracy) with three decimals, the textbooks' precision."""
    return fmt_fixed(x, 3)


#: a positive score below this is float noise (sums of many terms leave ~1e-16 of an exact 0)
SCORE_NOISE = 1e-12


def fmt_fixed_fine(x: Any, digits: int = 3) -> str:
    """:func:`fmt_fixed`, but a positive value too small for ``digits`` decimals (and above
    :data:`SCORE_NOISE`) shows two significant digits ("0.00021", "2.1e-05"): a small gain or
    impurity decrease at a deep node (and a regression's on a target of small values) printed
    as "0.000" read as no decrease at all, for the test chosen and its runner-up alike."""
    if x is not None:
        v = float(x)
        if math.isfinite(v) and SCORE_NOISE < v < 0.5 * 10.0**-digits:
            return f"{v:.2g}"
    return fmt_fixed(x, digits)


def fmt_score_fine(x: Any) -> str:
    """:func:`fmt_score` with :func:`fmt_fixed_fine`'s two significant digits for a tiny
    positive score."""
    return fmt_fixed_fine(x, 3)


def fmt_metric(x: Any) -> str:
    """A metric at 4 significant digits (``%.4g``); "–" for None or NaN."""
    return NONE if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4g}"


def fmt_pct(x: Any) -> str:
    """A share as a percentage with one decimal; "–" for None or NaN."""
    return NONE if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"
