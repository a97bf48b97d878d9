"""ARFF (Weka's data format) in and out, keeping the declared order of nominal values.

The declared order matters: C4.5 and J48 break ties between classes in favour of the class
declared first, and print the branches of a nominal test in declared order.  So reading keeps
``@attribute colour {red, green, blue}`` as the category tuple ("red", "green", "blue"), and
writing declares categories in the order given.

Supported: ``numeric``/``real``/``integer`` (continuous), ``{...}`` nominal, ``string``
(categorical, labels in order of first appearance), quoted names and values ('…' or "…" with
backslash escapes), ``%`` comments, ``?`` for missing values, and sparse rows ``{i v, …}``.
``date`` and ``relational`` attributes are refused with a message saying what to do.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import ArrayLike

from dtcore.data.limits import NO_LIMITS, SizeLimits
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, categories_of, is_missing, label_of

_NUMERIC = {"numeric", "real", "integer"}


@dataclass
class ArffData:
    """A parsed ARFF file: the header plus raw rows (None = missing, float or str otherwise)."""

    relation: str
    names: list[str]
    kinds: list[str]
    categories: dict[str, tuple[str, ...]]  # nominal/string attributes only, declared order
    rows: np.ndarray  # object array (n_rows, n_attributes)
    encoding: str = "utf-8"
    declared: dict[str, bool] = field(default_factory=dict)  # name → values declared in header

    @property
    def classes(self) -> tuple[str, ...] | None:
        """The last attribute's labels (Weka's default class attribute), None when numeric."""
        return self.categories.get(self.names[-1]) if self.names else None

    def to_xy(self, target: str | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        """Split into features and target for ``BaseTreeEstimator.fit``.

        Returns (X, y, fit_kwargs) with fit_kwargs = feature_names, feature_kinds, categories,
        classes (declared order) and target_name, ready for ``est.fit(X, y, **fit_kwargs)``.
        """
        target = self.names[-1] if target is None else target
        if target not in self.names:
            raise DataError(f"no attribute named {target!r}; the attributes are {self.names}")
        j = self.names.index(target)
        keep = [i for i in range(len(self.names)) if i != j]
        names = [self.names[i] for i in keep]
        # the keyword arguments of ``fit``: names, kinds, categories, classes and the target name
        kwargs: dict[str, Any] = {
            "feature_names": names,
            "feature_kinds": [self.kinds[i] for i in keep],
            "categories": {n: self.categories[n] for n in names if n in self.categories},
            "classes": self.categories.get(target),
            "target_name": target,
        }
        return self.rows[:, keep], self.rows[:, j], kwargs


# ---------------------------------------------------------------------------------------------
# reading


#: one field of a line: unquoted text and '…' / "…" runs (a backslash escapes the next character)
_FIELD = re.compile(r"""(?:[^,'"]+|'(?:[^'\\]+|\\.)*'|"(?:[^"\\]+|\\.)*")*""", re.S)
#: a quoted attribute name at the start of the text: the quote, then what it encloses
_QUOTED_NAME = {q: re.compile(rf"{q}((?:[^{q}\\]+|\\.)*){q}", re.S) for q in "'\""}
_ESCAPED = re.compile(r"\\(.)", re.S)


def _raw_fields(text: str, where: str) -> list[str]:
    """Split on commas outside quotes (quotes and escapes kept in the pieces).

    A regular expression, not a loop over characters: a declaration of many (or very long)
    values is split at C speed, so a hostile one is refused by its limits without a long wait.
    """
    if "'" not in text and '"' not in text:
        return text.split(",")
    out, pos = [], 0
    while True:
        match = _FIELD.match(text, pos)
        assert match is not None  # the pattern matches the empty string
        out.append(match.group())
        pos = match.end()
        if pos == len(text):
            return out
        if text[pos] != ",":  # a quote the pattern could not close
            raise DataError(f"{where}: unterminated quote in {text!r}")
        pos += 1


def _unescape(match: re.Match[str]) -> str:
    return {"n": "\n", "t": "\t"}.get(match.group(1), match.group(1))


def _unquote(token: str, where: str) -> tuple[str, bool]:
    """A field's value and whether it was quoted ('…' or "…" with backslash escapes)."""
    t = token.strip()
    if len(t) >= 2 and t[0] in "'\"" and t[-1] == t[0]:
        return _ESCAPED.sub(_unescape, t[1:-1]), True
    if t[:1] in ("'", '"'):
        raise DataError(f"{where}: unterminated quote in {token!r}")
    return t, False


def _split_fields(text: str, where: str) -> list[tuple[str, bool]]:
    """Comma-separated fields → [(value, was_quoted)]."""
    return [_unquote(f, where) for f in _raw_fields(text, where)]


def _take_name(rest: str, where: str) -> tuple[str, str]:
    """The (possibly quoted) attribute name at the start of ``rest`` and what follows it."""
    rest = rest.strip()
    if rest and rest[0] in "'\"":
        match = _QUOTED_NAME[rest[0]].match(rest)
        if match is None:
            raise DataError(f"{where}: unterminated quote in attribute name")
        return _ESCAPED.sub(r"\1", match.group(1)), rest[match.end() :].strip()
    parts = rest.split(None, 1)
    if len(parts) < 2:
        raise DataError(f"{where}: @attribute needs a name and a type")
    return parts[0], parts[1].strip()


def _strip_comment(line: str) -> str:
    """Drop a trailing % comment that is outside quotes."""
    q = None
    for i, ch in enumerate(line):
        if q:
            if ch == "\\":
                continue
            if ch == q:
                q = None
        elif ch in "'\"":
            q = ch
        elif ch == "%":
            return line[:i]
    return line


def _is_data_line(raw: str) -> bool:
    line = raw.strip()
    return bool(line) and not line.startswith("%")


def _sparse_entries(body: str, n_attributes: int, where: str) -> list[tuple[int, tuple[str, bool]]]:
    """A sparse row's ``index value`` entries → [(attribute, (value, was_quoted))]."""
    entries = []
    for item in _raw_fields(body, where):
        item = item.strip()
        if not item:
            continue
        idx, _, raw = item.partition(" ")
        try:
            j = int(idx)
        except ValueError:
            j = -1
        if not 0 <= j < n_attributes:
            raise DataError(f"{where}: bad sparse entry {item!r}")
        entries.append((j, _unquote(raw, where)))
    return entries


def _row_values(
    fields: Sequence[tuple[str, bool]],
    names: Sequence[str],
    kinds: Sequence[str],
    declared: Mapping[str, bool],
    cats: Mapping[str, tuple[str, ...]],
    limits: SizeLimits,
    source: str,
    where: str,
) -> list[object]:
    """One row's (or a sparse row's given) fields → cells: None for ``?``, floats, labels."""
    chars = limits.cell_chars
    out: list[object] = []
    for (val, is_quoted), aname, kind in zip(fields, names, kinds):
        if not is_quoted and val == "?":
            out.append(None)
        elif kind == CONTINUOUS:
            try:
                out.append(float(val))
            except ValueError:
                raise DataError(
                    f"{where}: attribute {aname!r} is numeric but holds {val!r}; "
                    "fix the value or declare the attribute nominal"
                ) from None
        else:
            if declared[aname] and val not in cats[aname]:
                raise DataError(
                    f"{where}: {val!r} is not among the declared values of "
                    f"{aname!r} {list(cats[aname])}; add it to the declaration"
                )
            if chars is not None and len(val) > chars:
                limits.check("cell_chars", len(val), source)
            out.append(val)
    return out


def read_arff(
    source: str | Path | bytes | bytearray | IO[str],
    encoding: str = "utf-8",
    *,
    limits: SizeLimits = NO_LIMITS,
) -> ArffData:
    """Parse an ARFF file (path, text, bytes or text stream).

    ``limits`` are checked on the declared shape (attributes × data lines, counted first) before
    any row is built, on attribute names and declared nominal values (``name_chars``) and on each
    cell (``cell_chars``: a string attribute's values included); the rows go straight into one (rows × attributes) object array.
    """
    if isinstance(source, (bytes, bytearray)):
        text = bytes(source).decode(encoding)
        name = "ARFF data"
    elif isinstance(source, io.TextIOBase) or hasattr(source, "read"):
        text = source.read()
        name = getattr(source, "name", "ARFF data")
    elif isinstance(source, Path) or (
        isinstance(source, str) and "\n" not in source and Path(source).exists()
    ):
        path = Path(source)
        text = path.read_bytes().decode(encoding)
        name = path.name
    else:
        text, name = str(source), "ARFF data"
    text = text.lstrip("\ufeff")
    limits.check("bytes", len(text), name)
    relation = ""
    names: list[str] = []
    kinds: list[str] = []
    cats: dict[str, tuple[str, ...]] = {}
    declared: dict[str, bool] = {}
    lines = text.splitlines()
    arr: np.ndarray | None = None  # built at the first dense row, or at the end
    n_rows = declared_rows = 0
    sparse_rows: list[int] = []  # the row numbers of sparse rows
    sparse_cells: list[tuple[int, int, object]] = []  # (row, attribute, value) they give
    in_data = False
    for lineno, raw in enumerate(lines, 1):
        where = f"{name} line {lineno}"
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            low = line.lower()
            if low.startswith("@relation"):
                relation = _take_name(line[9:] + " x", where)[0]
            elif low.startswith("@attribute"):
                aname, atype = _take_name(line[10:], where)
                atype = _strip_comment(atype).strip()
                if aname in declared:
                    raise DataError(f"{where}: attribute {aname!r} is declared twice")
                limits.check("columns", len(names) + 1, name)
                limits.check("name_chars", len(aname), name)
                names.append(aname)
                if atype.startswith("{"):
                    if not atype.endswith("}"):
                        raise DataError(f"{where}: nominal values must end with '}}'")
                    vals = tuple(v for v, _ in _split_fields(atype[1:-1], where) if v != "")
                    limits.check("name_chars", max(map(len, vals), default=0), name)
                    kinds.append(CATEGORICAL)
                    cats[aname] = vals
                    declared[aname] = True
                elif atype.lower() in _NUMERIC:
                    kinds.append(CONTINUOUS)
                    declared[aname] = False
                elif atype.lower() == "string":
                    kinds.append(CATEGORICAL)
                    declared[aname] = False
                else:
                    raise DataError(
                        f"{where}: attribute {aname!r} has type {atype!r}, which is not "
                        "supported; convert it to numeric or nominal first"
                    )
            elif low.startswith("@data"):
                in_data = True
                if not names:
                    raise DataError(f"{where}: @data before any @attribute")
                declared_rows = sum(1 for r in lines[lineno:] if _is_data_line(r))
                limits.check_shape(declared_rows, len(names), name)
            else:
                raise DataError(f"{where}: expected @relation, @attribute or @data, got {line[:40]!r}")
            continue
        line = _strip_comment(line).strip()
        if not line:
            continue
        if line.startswith("{"):
            # a sparse row is kept as its entries: the omitted cells are filled in at the end,
            # all at once, so rows of few entries cost what they hold, not what they declare
            if not line.endswith("}"):
                raise DataError(f"{where}: a sparse row must end with '}}'")
            entries = _sparse_entries(line[1:-1], len(names), where)
            values = _row_values(
                [field for _, field in entries],
                [names[j] for j, _ in entries],
                [kinds[j] for j, _ in entries],
                declared,
                cats,
                limits,
                name,
                where,
            )
            sparse_rows.append(n_rows)
            sparse_cells.extend((n_rows, j, v) for (j, _), v in zip(entries, values))
        else:
            fields = _split_fields(line, where)
            if len(fields) != len(names):
                raise DataError(f"{where}: {len(fields)} values for {len(names)} attributes")
            if arr is None:
                arr = np.empty((declared_rows, len(names)), dtype=object)
            arr[n_rows, :] = _row_values(fields, names, kinds, declared, cats, limits, name, where)
        n_rows += 1
    if not in_data:
        raise DataError(f"{name}: no @data section")
    if sparse_rows and len(sparse_rows) == n_rows and not sparse_cells:
        raise DataError(
            f"{name}: every data row is an empty sparse row {{}}, so every attribute holds its "
            "default (0, or its first declared value) in every row: there is no data to read"
        )
    if arr is None:
        arr = np.empty((n_rows, len(names)), dtype=object)
    arr = arr[:n_rows]
    if sparse_rows:
        defaults = [
            0.0 if k == CONTINUOUS else (cats[n][0] if cats.get(n) else None) for n, k in zip(names, kinds)
        ]
        filler: np.ndarray = np.empty(len(names), dtype=object)
        filler[:] = defaults
        arr[sparse_rows] = filler
        for i, j, v in sparse_cells:
            arr[i, j] = v
    for j, (aname, kind) in enumerate(zip(names, kinds)):
        if kind == CATEGORICAL and not declared[aname]:
            cats[aname] = categories_of(arr[:, j])
    return ArffData(relation, names, kinds, cats, arr, encoding, declared)


# ---------------------------------------------------------------------------------------------
# writing

_SPECIAL = set(" \t\n\r,{}'\"%?\\")


def quote(value: str) -> str:
    """Quote a name or label when ARFF would misread it (Weka's Utils.quote rules)."""
    s = str(value)
    if s == "" or s == "?" or any(ch in _SPECIAL for ch in s):
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
    return s


def _number(v: float) -> str:
    f = float(v)
    if f.is_integer() and abs(f) < 2**53:
        return str(int(f))
    return repr(f)


def write_arff(
    dest: str | Path | IO[str] | None,
    names: Sequence[str],
    kinds: Sequence[str],
    rows: ArrayLike,
    categories: Mapping[str, Iterable[str]] | None = None,
    relation: str = "data",
    missing_tokens: Iterable[str] | None = None,
) -> str:
    """Write rows as ARFF (to a path or text stream) and return the text.

    ``kinds``: one "continuous"/"categorical" per column; ``categories``: dict name → labels in
    the order to declare (default: order of first appearance).  Missing cells (None, NaN, empty
    or a missing token) are written as ``?``.
    """
    from dtcore.schema import MISSING_TOKENS

    tokens = MISSING_TOKENS if missing_tokens is None else tuple(missing_tokens)
    arr = np.asarray(rows, dtype=object)
    if arr.ndim != 2 or arr.shape[1] != len(names):
        raise DataError(f"rows must be a table with {len(names)} columns")
    categories = dict(categories or {})
    lines = [f"@relation {quote(relation)}", ""]
    decl: list[tuple[str, ...] | None] = []
    for j, (n, k) in enumerate(zip(names, kinds)):
        if k == CATEGORICAL:
            cats = tuple(categories[n]) if n in categories else categories_of(arr[:, j], tokens)
            decl.append(cats)
            lines.append(f"@attribute {quote(n)} {{{','.join(quote(c) for c in cats)}}}")
        elif k == CONTINUOUS:
            decl.append(None)
            lines.append(f"@attribute {quote(n)} numeric")
        else:
            raise DataError(f"column {n!r}: kind must be continuous or categorical, not {k!r}")
    lines += ["", "@data"]
    for i in range(arr.shape[0]):
        cells = []
        for j, k in enumerate(kinds):
            v = arr[i, j]
            if is_missing(v, tokens):
                cells.append("?")
            elif k == CONTINUOUS:
                if isinstance(v, str):
                    v = float(v)
                if not math.isfinite(float(v)):
                    raise DataError(f"column {names[j]!r} row {i + 1} is not finite")
                cells.append(_number(v))
            else:
                lab = label_of(v)
                allowed = decl[j] or ()
                if lab not in allowed:
                    raise DataError(
                        f"column {names[j]!r} row {i + 1}: {lab!r} is not among the "
                        f"categories {list(allowed)}"
                    )
                cells.append(quote(lab))
        lines.append(",".join(cells))
    text = "\n".join(lines) + "\n"
    if dest is not None and hasattr(dest, "write"):
        dest.write(text)
    elif dest is not None:
        Path(dest).write_text(text, encoding="utf-8")
    return text
