"""How a threshold is printed: the one home of that rule, for every picture and text (DOT, the
text rules, the split explorer, the what-if path, the command line).

Digits are :func:`dtcore.numbers.fmt_num`'s.

A threshold t of a node sends a training value x left when ``x ≤ t``. Printed as p, it must
still send every training value of that node the same way: ``below ≤ p < above``, with
``below``/``above`` the node's training values next to the cut (``Tree.cut_below`` /
``cut_above``, ``dtcore.node_rows``). :func:`fmt_threshold` writes t at the caller's
precision (significant digits) and adds digits until that holds, up to the exact value
(training values 0.1234 and 0.1236, midpoint 0.1235: "0.1235", never "0.123" or "0.124").

C4.5 (release 8) stores the largest training value ≤ the midpoint cut, so its threshold can
differ from the midpoint between the node's neighbours that the textbook prints:
:func:`midpoint_note` gives that midpoint where it differs.
"""

from __future__ import annotations

import math

import numpy as np

from dtcore.entropy.cutpoints import cut_midpoint
from dtcore.numbers import fmt_num
from dtcore.schema import Schema
from dtcore.tree import Tree

_MAX_DIGITS = 17  # enough for any float64 to round-trip


def separates(p: float, below: float, above: float) -> bool:
    """Does ``p`` as a threshold send ``below`` left (≤) and ``above`` right (>)? (−inf, +inf:
    no value on that side, nothing to keep.)"""
    return below <= p < above


def fmt_threshold(
    t: float, precision: int | None = None, below: float | None = None, above: float | None = None
) -> str:
    """``t`` written with the fewest significant digits (at least ``precision``) that keep
    ``below ≤ printed < above`` (``fmt_num``'s form); exact when precision is None or when no
    shorter form separates. ``below``/``above`` None or ∓inf: no value on that side."""
    lo = -math.inf if below is None else float(below)
    hi = math.inf if above is None else float(above)
    t = float(t) + 0.0  # −0.0 + 0.0 is 0.0: a cut at a training value "-0" reads "≤ 0"
    if precision is None or not math.isfinite(t):
        return fmt_num(t, None)
    for p in range(int(precision), _MAX_DIGITS + 1):
        s = fmt_num(t, p)
        if separates(float(s), lo, hi):
            return s
    return fmt_num(t, None)


def fmt_midpoint(
    mid: float, precision: int | None = None, below: float | None = None, above: float | None = None
) -> str:
    """A midpoint cut shown beside C4.5's threshold: exact when one digit more than the
    precision holds it (the midpoint of 0.36 and 0.403 is 0.3815, not "0.382": half-way
    between two values written to ``precision`` digits takes one more), else :func:`fmt_threshold`."""
    if precision is not None and math.isfinite(mid) and float(fmt_num(mid, precision + 1)) == mid:
        return fmt_num(mid, precision + 1)
    return fmt_threshold(mid, precision, below, above)


def neighbours(tree: Tree, node: int) -> tuple[np.ndarray, np.ndarray]:
    """(below, above) of the cuts of ``node``: −inf, +inf where not known."""
    lo, hi = int(tree.cut_ptr[node]), int(tree.cut_ptr[node + 1])
    if tree.cut_below is None or tree.cut_above is None:
        return np.full(hi - lo, -np.inf), np.full(hi - lo, np.inf)
    return tree.cut_below[lo:hi], tree.cut_above[lo:hi]


def node_thresholds(tree: Tree, node: int, precision: int | None = None) -> list[str]:
    """The cuts of a continuous test at ``node``, each by :func:`fmt_threshold`."""
    below, above = neighbours(tree, node)
    return [
        fmt_threshold(c, precision, float(b), float(a)) for c, b, a in zip(tree.cuts_of(node), below, above)
    ]


def midpoint(below: float, above: float) -> float:
    """The midpoint cut between two adjacent values, as the builders compute it."""
    return float(cut_midpoint(below, above))


def midpoint_note(t: float, below: float, above: float) -> float | None:
    """The midpoint between the node's neighbours when the stored threshold ``t`` is not it
    (C4.5 release 8: a training value); None when it is, or when the neighbours are unknown."""
    if not (math.isfinite(below) and math.isfinite(above) and math.isfinite(t)):
        return None
    mid = midpoint(float(below), float(above))
    return None if mid == float(t) else mid


def node_midpoint(tree: Tree, node: int) -> float | None:
    """The midpoint cut of a one-cut test whose stored threshold is not it (C4.5, release 8),
    from the node's neighbouring training values; None otherwise or when they are unknown."""
    if (
        tree.feature[node] < 0
        or tree.is_categorical_test(node)
        or tree.cut_ptr[node + 1] - tree.cut_ptr[node] != 1
    ):
        return None
    below, above = neighbours(tree, node)
    return midpoint_note(float(tree.cuts_of(node)[0]), float(below[0]), float(above[0]))


def midpoint_text(tree: Tree, schema: Schema, node: int, precision: int | None, word: str) -> str | None:
    """``密度 ≤ 0.36 (midpoint 0.3815)`` (plain text, ``word`` for "midpoint") for a C4.5 test
    whose stored threshold is not the midpoint; None otherwise."""
    mid = node_midpoint(tree, node)
    if mid is None:
        return None
    below, above = neighbours(tree, node)
    shown = fmt_midpoint(mid, precision, float(below[0]), float(above[0]))
    name = schema.features[int(tree.feature[node])].name
    return f"{name} ≤ {node_thresholds(tree, node, precision)[0]} ({word} {shown})"
