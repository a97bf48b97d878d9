"""The rows of the worked arithmetic's formulas: each ``A = B = C`` an aligned block whose long
sums break where a row would pass its column.

KaTeX never breaks a display formula: a sum of five-digit fractions (a node of 70 000 rows), or a
long feature name beside fractions of 700, ran past its half-page column and scrolled sideways.
``width_em`` estimates how wide KaTeX draws a piece of LaTeX from the few constructs these
formulas use (fractions, scripts, ``\\text``, operators with TeX's spacing) and the widths of its
Computer Modern glyphs; tests/browser/test_formula_boxes.py holds it to the drawn page.
"""

from __future__ import annotations

from collections.abc import Iterable

#: widths (em) of the commands the formulas use, with TeX's spacing around operators and relations
#: (a binary operator takes 2/9 em on each side, a relation 5/18 em)
_COMMANDS = {
    "cdot": 0.72,
    "times": 1.22,
    "approx": 1.33,
    "in": 1.22,
    "sum": 1.44,
    "log": 1.45,
    "ln": 0.97,
    "Delta": 0.83,
    "rho": 0.52,
    "quad": 1.0,
    "qquad": 2.0,
    ",": 0.17,
    "_": 0.5,
    "{": 0.5,
    "}": 0.5,
    "%": 0.83,
    "#": 0.83,
    "$": 0.5,
    "&": 0.78,
}
#: commands that only change how their argument or the next glyph is drawn
_TRANSPARENT = {"tilde", "bar", "hat", "left", "right"}
#: a parenthesis at \big size (em)
_BIG_PAREN = 0.45
#: glyph widths (em) of the characters met outside ``\text``
_CHARS = {".": 0.28, ",": 0.45, "(": 0.39, ")": 0.39, "|": 0.28, "'": 0.3, " ": 0.0, "&": 0.0}
_BINARY = {"+": 1.22, "-": 1.22, "=": 1.33, "<": 1.33, ">": 1.33}
#: a script's size against its base (TeX's script style)
SCRIPT = 0.7


def _group(s: str, i: int) -> tuple[str, int]:
    """The braced group opening at ``s[i]`` and the index after its closing brace."""
    depth = 0
    j = i
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return s[i + 1 : j], j + 1
        j += 1
    return s[i + 1 :], len(s)


def _command(s: str, i: int) -> tuple[str, int]:
    """The command name starting at the backslash ``s[i]`` and the index after it."""
    j = i + 1
    while j < len(s) and s[j].isalpha():
        j += 1
    if j == i + 1:  # a one-character command: \, \{ \_
        j += 1
    return s[i + 1 : j], j


def _argument(s: str, i: int) -> tuple[str, int]:
    """The argument of a command or script at ``s[i]``: a group, a command or one character."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i >= len(s):
        return "", i
    if s[i] == "{":
        return _group(s, i)
    if s[i] == "\\":
        name, j = _command(s, i)
        return s[i:j], j
    return s[i], i + 1


def _char(c: str, text: bool) -> float:
    if ord(c) >= 0x2E80:  # CJK and fullwidth: one em
        return 1.0
    if c.isdigit():
        return 0.5
    if c in _CHARS:
        return 0.33 if text and c == " " else _CHARS[c]
    if not text and c in _BINARY:
        return _BINARY[c]
    if c.isalpha():
        return (0.72 if c.isupper() else 0.5) if text else (0.76 if c.isupper() else 0.55)
    return 0.78  # other signs: ≤, ∈, {, …


def width_em(latex: str, text: bool = False) -> float:
    """The estimated drawn width of ``latex`` in em of its own size (``text``: inside ``\\text``,
    where letters are upright and spaces count)."""
    total = 0.0
    i = 0
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            name, i = _command(latex, i)
            if name in ("frac", "tfrac"):
                num, i = _argument(latex, i)
                den, i = _argument(latex, i)
                scale = 1.0 if name == "frac" else SCRIPT
                total += scale * max(width_em(num), width_em(den)) + 0.24
            elif name == "text" or name in ("mathrm", "operatorname"):
                arg, i = _argument(latex, i)
                total += width_em(arg, text=True)
            elif name == "big":
                arg, i = _argument(latex, i)
                total += _BIG_PAREN if arg in ("(", ")") else width_em(arg, text)
            elif name not in _TRANSPARENT:
                total += _COMMANDS.get(name, 0.8)
        elif c in "^_":
            arg, i = _argument(latex, i + 1)
            total += SCRIPT * width_em(arg, text)
        elif c == "{":
            arg, i = _group(latex, i)
            total += width_em(arg, text)
        else:
            total += _char(c, text)
            i += 1
    return total


# ---------------------------------------------------------------------------------------------
# rows

BREAK = "\u23ce"  # where a long sum continues on the next line
SOFT = "\u21b5"  # where it may continue, if the row would be wider than its column
#: the width (em of the formula's font) a row may take: a half-page column at 1400 px, where the
#: arithmetic stands in two columns (pages/splits.py), less a margin for the estimate's error
ROW_EM = 22.3


def join_terms(terms: Iterable[str], per: int = 3) -> str:
    """Terms joined by +, a line break after every ``per`` terms and a possible one after each
    other term (taken when the row would not fit its column: five-digit fractions)."""
    out = ""
    for i, term in enumerate(terms):
        if i:
            out += f" {BREAK} + " if i % per == 0 else f"{SOFT} + "
        out += term
    return out


#: the line break of an aligned block, the next row indented under the first one's right side
_NEXT_ROW = r"\\ &\qquad"
#: an = sign with its spacing, and the indent of a sum's further rows (em)
_RELATION_EM = 1.33
_INDENT_EM = 2.0


def _first_start(part: str) -> float:
    """What stands before a part's first row: its = sign (none before ≈)."""
    return 0.0 if part.startswith(r"\approx ") else _RELATION_EM


def _wrap(part: str, lhs_em: float) -> list[tuple[str, float]]:
    """The rows of one ``= …`` part with the width (em) each takes, the left-hand side ``lhs_em``
    and what stands before the row included: a break at every ``BREAK``, and at a ``SOFT`` mark
    where the row would otherwise pass ``ROW_EM``."""
    rows: list[tuple[str, float]] = []

    def start() -> float:  # the first row starts after its = sign, a further one after an indent
        return lhs_em + (_INDENT_EM if rows else _first_start(part))

    for piece in part.split(BREAK):
        chunks = piece.split(SOFT)
        row = chunks[0]
        for chunk in chunks[1:]:
            if start() + width_em(row + chunk) > ROW_EM:
                rows.append((row + " ", start() + width_em(row)))
                row = chunk
            else:
                row += chunk
        rows.append((row, start() + width_em(row)))
    return rows


def aligned(formula: str) -> str:
    """``A = B = C = 0.247`` as an aligned block, one ``= …`` per line, long sums wrapped. A left
    side too wide to share its rows with what follows (a long feature name) stands on a row of
    its own, the = signs below its start."""
    parts = formula.replace(r" \approx ", r" = \approx ").split(" = ")
    lhs, rest = parts[0], parts[1:]
    if not rest:
        return r"\begin{aligned}" + lhs + r"\end{aligned}"
    body = lhs + " &"
    wrapped = [_wrap(p, width_em(lhs)) for p in rest]
    if any(em > ROW_EM for rows in wrapped for _, em in rows):
        body = "&" + lhs + r" \\ &"
        wrapped = [_wrap(p, 0.0) for p in rest]
    for i, (p, rows) in enumerate(zip(rest, wrapped)):
        if i:
            body += r" \\ &"
        body += ("" if p.startswith(r"\approx ") else "= ") + _NEXT_ROW.join(row for row, _ in rows)
    return r"\begin{aligned}" + body + r"\end{aligned}"
