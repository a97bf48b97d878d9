"""Data files in, a plain table out: CSV/TSV with the standard library, ARFF through ``dtcore.data.arff``.

Cells stay raw strings (missing tokens such as ``?`` or ``NA`` included): the schema decides
what they mean, so one reader serves classification, regression and every missing-token list.
Chinese spreadsheets are often saved as GBK by Excel, so the encoding is detected, not assumed.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import numpy as np

from dtcore.data import arff
from dtcore.data.limits import NO_LIMITS, SizeLimits
from dtcore.schema import DataError

#: Delimiters we sniff between, in order of preference on a tie.
DELIMITERS = (",", "\t", ";")
_SNIFF_LINES = 50

_V = TypeVar("_V")


@dataclass
class Table:
    """A data file's columns: ``rows`` is an object array (n_rows × n_columns) of raw cells.

    ``kinds``/``categories``/``classes`` are set only when the file declares them (ARFF):
    kinds and categories are dicts by column name, as ``infer_schema`` takes them.
    """

    names: list[str]
    rows: np.ndarray
    encoding: str
    delimiter: str | None
    kinds: dict[str, str] | None = field(default=None)
    categories: dict[str, tuple[str, ...]] | None = field(default=None)
    classes: dict[str, tuple[str, ...]] | None = field(default=None)

    @property
    def n_rows(self) -> int:
        return int(self.rows.shape[0])

    def column(self, name: str) -> np.ndarray:
        return self.rows[:, self.column_index(name)]

    def column_index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise DataError(f"no column named {name!r}; the columns are {self.names}") from None


# ---------------------------------------------------------------------------------------------
# bytes → text


#: leading bytes of binary formats people rename to .csv → what the file looks like
_BINARY_SIGNATURES = (
    (b"PK\x03\x04", "an Excel/zip file, not CSV text: rename it .xlsx"),
    (b"\xd0\xcf\x11\xe0", "an old Excel .xls (or other Office) file, not CSV text: save it as CSV"),
    (b"PAR1", "a Parquet file, not CSV text: rename it .parquet"),
    (b"%PDF", "a PDF file, not CSV text"),
)


def check_text(data: bytes, source: str = "the file") -> None:
    """Refuse bytes that are a known binary format or hold NUL bytes (one line saying which)."""
    for magic, what in _BINARY_SIGNATURES:
        if data.startswith(magic):
            raise DataError(f"{source}: this looks like {what}")
    if b"\x00" in data[:65536]:
        raise DataError(f"{source}: this looks like a binary file, not CSV text")


def decode(data: bytes, source: str = "the file") -> tuple[str, str]:
    """(text, encoding name): UTF-16 by BOM, else UTF-8 (BOM or not), else GB18030 (a GBK superset).

    UTF-8 is tried strictly first: GBK bytes are almost never valid UTF-8, while UTF-8 bytes often
    decode as (wrong) GBK, so the order matters. Binary data (a zip/xlsx, NUL bytes) is refused
    with a line saying what it looks like.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    check_text(data, source)
    try:
        text = data.decode("utf-8-sig")
        return text, "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030"), "gb18030"
    except UnicodeDecodeError as exc:
        raise DataError(
            f"cannot decode the file at byte {exc.start}: it is neither UTF-8 nor GBK; save it as UTF-8 CSV"
        ) from None


# ---------------------------------------------------------------------------------------------
# text → cells


def sniff_delimiter(text: str, default: str = ",") -> str:
    """The delimiter among comma, tab and semicolon that splits the first lines most consistently.

    Score per candidate: the header must split into ≥ 2 fields, and the more of the following lines
    that have exactly the header's field count the better (then more fields, then preference order).
    csv.Sniffer is not used: it guesses from character frequencies and picks odd characters.
    """
    head = "\n".join(_first_lines(text, _SNIFF_LINES))
    best, best_score = default, None
    for rank, d in enumerate(DELIMITERS):
        try:
            lines = [r for r in csv.reader(io.StringIO(head), delimiter=d) if any(c.strip() for c in r)]
        except csv.Error:
            continue  # a field past csv's size limit, say: parsing the file says what is wrong
        if not lines or len(lines[0]) < 2:
            continue
        width = len(lines[0])
        body = lines[1:-1] if len(lines) > 2 else lines[1:]  # the last line may be cut off
        consistent = sum(len(r) == width for r in body)
        score = (consistent, width, -rank)
        if best_score is None or score > best_score:
            best, best_score = d, score
    return best


def _first_lines(text: str, n: int) -> list[str]:
    """``text.splitlines()[:n]`` without splitting the whole text: a prefix holding more than
    ``n`` lines ends them where the whole text does (a line after them started in the prefix)."""
    size = 1 << 16
    while size < len(text):
        lines = text[:size].splitlines()
        if len(lines) > n:
            return lines[:n]
        size *= 4
    return text.splitlines()[:n]


def parse_delimited(
    text: str,
    delimiter: str | None = None,
    *,
    encoding: str = "utf-8",
    source: str = "the file",
    limits: SizeLimits = NO_LIMITS,
) -> Table:
    """CSV/TSV text with a header row → Table (blank lines skipped, ragged rows refused).

    ``limits`` are checked as the rows stream in: reading stops at the first row past a cap. The
    header's names are checked against ``name_chars``; cells (labels included: which cells are
    labels is the schema's call, later) against ``cell_chars``.
    """
    limits.check("bytes", len(text), source)
    if not text.strip():
        raise DataError(f"{source} is empty: it needs a header row and at least one data row")
    if delimiter is None:
        delimiter = sniff_delimiter(text)
    # strict: a quote left open runs to the end of the file, which the lenient reader would
    # silently take as one long cell; strict reading stops there with the line it opened on
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header = None
    header_line = 0
    record_line = 1  # the line the record being read starts on
    rows: list[list[str]] = []
    max_rows = len(text) if limits.rows is None else limits.rows
    if limits.cells is not None:
        max_rows = min(max_rows, limits.cells)
    chars = limits.cell_chars
    try:
        for record in reader:
            record_line = reader.line_num + 1
            if not any(c.strip() for c in record):
                continue  # blank line
            if header is None:
                header, header_line = [c.strip() for c in record], reader.line_num
                limits.check("name_chars", max(map(len, header)), source)
                _check_header(header, source)
                limits.check("columns", len(header), source)
                if limits.cells is not None:
                    max_rows = min(max_rows, limits.cells // len(header))
                continue
            if len(record) != len(header):
                raise DataError(
                    f"{source} line {reader.line_num} has {len(record)} fields but the header "
                    f"(line {header_line}) has {len(header)}; fix that line (a stray "
                    f"{_show_delim(delimiter)} or a missing quote?)"
                )
            if chars is not None and max(map(len, record)) > chars:
                limits.check("cell_chars", max(map(len, record)), source)
            rows.append(record)
            if len(rows) > max_rows:
                limits.check_shape(len(rows), len(header), source)
    except csv.Error as exc:
        if str(exc).startswith("field larger than field limit"):
            # csv stopped counting at its own cap, far past ours: the name or cell is longer still
            limits.check("name_chars" if header is None else "cell_chars", csv.field_size_limit() + 1, source)
        raise DataError(_csv_error_message(str(exc), source, record_line, reader.line_num)) from None
    if header is None or not rows:
        raise DataError(f"{source} has a header row but no data rows")
    arr: np.ndarray = np.empty((len(rows), len(header)), dtype=object)
    arr[:] = rows
    return Table(header, arr, encoding, delimiter)


def _csv_error_message(error: str, source: str, start: int, line: int) -> str:
    """csv's terse errors in the user's terms, with the line to fix."""
    if error == "unexpected end of data":
        return (
            f"{source} line {start}: a quoted field opened on this line is never closed (the "
            f'file ends inside it); add the closing " or remove the stray one'
        )
    if error.startswith("field larger than field limit"):
        return (
            f"{source} line {start}: a field holds more than {csv.field_size_limit():,} characters, "
            "the most the CSV reader takes (a quote left open?)"
        )
    if error.endswith("expected after '\"'"):
        return (
            f"{source} line {line}: text follows a closing quote inside a field; "
            f'quote the whole field and double any " inside it ("" stands for one ")'
        )
    return f"{source} line {line}: {error}"


def _show_delim(d: str) -> str:
    return {"\t": "tab", ",": "comma", ";": "semicolon"}.get(d, repr(d))


def _check_header(names: list[str], source: str) -> None:
    empty = [i + 1 for i, n in enumerate(names) if not n]
    if empty:
        raise DataError(
            f"{source}: column {empty[0]} has no name in the header row; give every column a name"
        )
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise DataError(f"{source}: duplicate column names {dup}; rename them so each column is unique")


# ---------------------------------------------------------------------------------------------
# files


def read_table(path: str | Path, *, delimiter: str | None = None, limits: SizeLimits = NO_LIMITS) -> Table:
    """Read a data file by suffix: ``.arff`` through dtcore.data.arff, anything else as CSV/TSV.

    ``limits`` (none by default; the CLI passes ``dtcore.data.limits.configured()``) are checked on
    the file's size before it is read, then on its shape as it is parsed.
    """
    path = Path(path)
    if path.suffix.lower() == ".arff":
        return read_arff_table(path, limits=limits)
    if not path.is_dir():
        limits.check("bytes", path.stat().st_size, path.name)
    data = path.read_bytes()
    if not data.strip():
        raise DataError(f"{path.name} is empty: it needs a header row and at least one data row")
    text, encoding = decode(data, path.name)
    if delimiter is None and path.suffix.lower() == ".tsv":
        delimiter = "\t"
    return parse_delimited(text, delimiter, encoding=encoding, source=path.name, limits=limits)


def read_arff_table(path: str | Path, *, limits: SizeLimits = NO_LIMITS) -> Table:
    """An ARFF file as a Table carrying the declared kinds and category orders."""
    path = Path(path)
    if not path.is_dir():
        limits.check("bytes", path.stat().st_size, path.name)
    data = arff.read_arff(path, limits=limits)
    names = list(data.names)
    rows = np.asarray(data.rows, dtype=object)
    if rows.ndim != 2 or rows.shape[0] == 0:
        raise DataError(f"{Path(path).name} has no data rows")
    kinds = _as_name_dict(getattr(data, "kinds", None), names)
    categories = _as_name_dict(getattr(data, "categories", None), names)
    if categories:
        categories = {k: tuple(v) for k, v in categories.items() if v}
    classes = getattr(data, "classes", None)
    if classes is not None and not isinstance(classes, dict):
        classes = {names[-1]: tuple(classes)}
    return Table(names, rows, getattr(data, "encoding", "utf-8"), None, kinds, categories, classes)


def _as_name_dict(
    value: dict[str, _V] | Sequence[_V | None] | None, names: Sequence[str]
) -> dict[str, _V] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        return dict(value)
    return {n: v for n, v in zip(names, value) if v is not None}
