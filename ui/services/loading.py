"""Uploaded bytes or a bundled sample → one tidy DataFrame the rest of the app can trust.

Every format ends in the same shape: string column names (unique, non-empty), numeric columns as
int64/float64 (NaN = missing), other columns as object arrays of stripped labels with ``None`` for
missing cells. CSV/TSV go through ``dtcore.data.readers`` (its encoding detection: UTF-8, UTF-8 BOM,
GBK), Excel through openpyxl, Parquet through pyarrow, ARFF through ``dtcore.data.arff``.
Failures raise :class:`LoadError` carrying a catalogue key, so the page can say what went wrong
in the user's language and keep the previous data.

Size limits (``ui.services.limits``) are checked on what a file declares before its data is built:
Parquet metadata (rows, columns, uncompressed sizes) and dictionary sizes, the xlsx zip members'
uncompressed sizes and the sheet's dimension (then each streamed row), ARFF attributes × data
lines, CSV rows and columns as they stream, every format's column names (``name_chars``). Columns are typed per distinct value, not per cell.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dtcore.data import arff, readers
from dtcore.data.limits import LimitError, SizeLimits
from dtcore.schema import MISSING_TOKENS, DataError, is_missing, label_of
from ui.services import csv_fast
from ui.services.limits import ENV, LIMITS

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "assets" / "samples"
MAX_ROWS = LIMITS.rows

#: file suffix → format name
FORMATS = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".xlsx": "excel",
    ".xlsm": "excel",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arff": "arff",
}
UPLOAD_TYPES = sorted(s.lstrip(".") for s in FORMATS)

_ENCODING_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 BOM", "gb18030": "GBK", "utf-16": "UTF-16"}


class LoadError(Exception):
    """A file the app cannot read: ``key`` names the catalogue message, ``params`` fill it in."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(f"{key}: {params}")
        self.key = key
        self.params = params


@dataclass
class LoadedData:
    df: pd.DataFrame
    name: str  # file name, or the sample id
    source: str  # "sample" or "upload"
    fmt: str  # csv / tsv / excel / parquet / arff
    encoding: str | None  # "UTF-8", "UTF-8 BOM", "GBK", or None (binary formats)
    digest: str  # content hash: the cache key for everything downstream
    declared_kinds: dict = field(default_factory=dict)  # ARFF: column → kind it declares


@dataclass(frozen=True)
class Sample:
    id: str
    file: str
    en: str
    zh: str
    target: str
    ignore: tuple[str, ...]
    valid: int
    test: int
    split_column: str = ""  # a column naming each row's set (the textbook's own split)

    def title(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


# ---------------------------------------------------------------------------------------------
# samples


def sample_catalogue() -> dict[str, Sample]:
    """The bundled samples by id, in the order of ``assets/samples/index.json``."""
    raw = json.loads((SAMPLES_DIR / "index.json").read_text(encoding="utf-8"))
    out = {}
    for s in raw["samples"]:
        out[s["id"]] = Sample(
            s["id"],
            s["file"],
            s["en"],
            s["zh"],
            s["target"],
            tuple(s.get("ignore", ())),
            int(s.get("valid", 0)),
            int(s.get("test", 0)),
            str(s.get("split_column", "")),
        )
    return out


def load_sample(sample_id: str) -> LoadedData:
    sample = sample_catalogue().get(sample_id)
    if sample is None:
        raise LoadError("load.unknown_sample", name=sample_id)
    path = SAMPLES_DIR / sample.file
    loaded = read_bytes(path.read_bytes(), sample.file)
    loaded.name, loaded.source = sample.id, "sample"
    return loaded


# ---------------------------------------------------------------------------------------------
# bytes → DataFrame


def file_format(filename: str) -> str:
    suffix = Path(filename).suffix.lower()
    if suffix == ".xls":
        raise LoadError("load.xls")
    if suffix not in FORMATS:
        raise LoadError("load.unknown_format", suffix=suffix or "?", formats=", ".join(UPLOAD_TYPES))
    return FORMATS[suffix]


def read_bytes(
    data: bytes, filename: str, limits: SizeLimits | None = None, *, sha256: str | None = None
) -> LoadedData:
    """Read an uploaded file by its suffix. Raises LoadError (never a library traceback).
    ``sha256``: the hex SHA-256 of ``data`` when the caller has it (it is not hashed twice)."""
    limits = LIMITS if limits is None else limits
    fmt = file_format(filename)
    if not data or not data.strip():
        raise LoadError("load.empty", name=filename)
    digest = (sha256 or hashlib.sha256(data).hexdigest())[:16]
    declared: dict = {}
    encoding = None
    try:
        if fmt in ("csv", "tsv"):
            limits.check("bytes", len(data), filename)
            text, enc = readers.decode(data, filename)
            encoding = _ENCODING_NAMES.get(enc, enc)
            df = _read_delimited(data, text, "\t" if fmt == "tsv" else None, enc, filename, limits)
            del text
        elif fmt == "excel":
            df = tidy_frame(_read_excel(data, filename, limits))
        elif fmt == "parquet":
            df = tidy_frame(_read_parquet(data, filename, limits))
        else:
            df, declared = _read_arff(data, filename, limits)
        # CSV and ARFF names were checked as they were read; Excel and Parquet headers here
        limits.check("name_chars", max((len(str(c)) for c in df.columns), default=0), filename)
    except LoadError:
        raise
    except LimitError as exc:
        raise too_large(exc.what, exc.limit) from None
    except MemoryError:
        raise LoadError("load.out_of_memory", name=filename, **_limit_params(limits)) from None
    except DataError as exc:
        raise LoadError("load.bad_file", name=filename, detail=str(exc)) from None
    except Exception as exc:  # openpyxl / pyarrow / zip errors: many types, one meaning for the user
        raise LoadError(
            f"load.bad_{fmt}" if fmt in ("excel", "parquet") else "load.bad_file",
            name=filename,
            detail=f"{type(exc).__name__}: {exc}",
        ) from None
    if df.shape[0] == 0:
        raise LoadError("load.no_rows", name=filename)
    if df.shape[1] < 2:
        raise LoadError("load.one_column", name=filename)
    if limits.rows is not None and df.shape[0] > limits.rows:
        raise too_large("rows", limits.rows)
    return LoadedData(df, filename, "upload", fmt, encoding, digest, declared)


def too_large(what: str, limit: int) -> LoadError:
    """The one-line refusal for a file past a size limit (``what``: a SizeLimits field)."""
    return LoadError(f"load.limit.{what}", limit=f"{limit:,}", env=ENV[what])


def _limit_params(limits: SizeLimits) -> dict:
    return {k: "-" if v is None else f"{v:,}" for k, v in vars(limits).items()}


def _read_delimited(
    data: bytes, text: str, delimiter: str | None, enc: str, filename: str, limits: SizeLimits
) -> pd.DataFrame:
    """CSV/TSV text → the typed frame: quote-free text through pyarrow (``csv_fast``), whatever
    it is not sure of through ``dtcore.data.readers`` (the same frame, or the reader's error).
    ``data``: the bytes ``text`` was decoded from (as UTF-8, they are handed to pyarrow)."""
    utf8 = data if enc == "utf-8" else memoryview(data)[3:] if enc == "utf-8-sig" else None
    if delimiter is None and text.strip():
        delimiter = readers.sniff_delimiter(text)
    fast = csv_fast.distinct_columns(text, delimiter, limits, utf8) if delimiter is not None else None
    if fast is None:
        table = readers.parse_delimited(text, delimiter, encoding=enc, source=filename, limits=limits)
        return frame_from_cells(table.names, table.rows)
    names = _check_names(fast[0])
    return pd.DataFrame({n: _typed_distinct(u, codes) for n, (u, codes) in zip(names, fast[1])})


def _read_arff(
    data: bytes, filename: str, limits: SizeLimits = LIMITS
) -> tuple[pd.DataFrame, dict[str, str]]:
    limits.check("bytes", len(data), filename)
    text, _ = readers.decode(data, filename)
    parsed = arff.read_arff(text, limits=limits)
    del text
    return frame_from_cells(parsed.names, parsed.rows), {
        n: k for n, k in zip(parsed.names, parsed.kinds) if k
    }


def _read_excel(data: bytes, filename: str, limits: SizeLimits) -> pd.DataFrame:
    """The first sheet as ``pd.read_excel(dtype=object)`` reads it, checked on the way in.

    First the zip members' uncompressed sizes and the sheet's declared dimension; then pandas'
    own openpyxl reader streams the rows through :class:`_CheckedRows`, which stops at the first
    row past a limit (declared dimensions can be wrong, so the streamed rows are what count).
    """
    from pandas.io.excel._openpyxl import OpenpyxlReader

    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        limits.check("bytes", sum(info.file_size for info in zf.infolist()), filename)

    class CheckedReader(OpenpyxlReader):
        def get_sheet_data(self, sheet: Any, file_rows_needed: int | None = None) -> list[list[Any]]:
            if getattr(sheet, "max_row", None) and getattr(sheet, "max_column", None):
                limits.check_shape(max(sheet.max_row - 1, 0), sheet.max_column, filename)
            return super().get_sheet_data(_CheckedRows(sheet, limits, filename), file_rows_needed)

    reader = CheckedReader(io.BytesIO(data))
    try:
        return reader.parse(sheet_name=0, dtype=object)
    finally:
        reader.close()


class _CheckedRows:
    """A worksheet whose ``rows`` are checked against the limits as they stream."""

    def __init__(self, sheet: Any, limits: SizeLimits, source: str) -> None:
        self._sheet, self._limits, self._source = sheet, limits, source

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sheet, name)

    @property
    def rows(self) -> Iterator[Any]:
        limits, source, chars = self._limits, self._source, self._limits.cell_chars
        rows = width = 0
        for row in self._sheet.rows:
            n = len(row)
            while n and row[n - 1].value in (None, ""):
                n -= 1
            if n:
                rows += 1
                if n > width:
                    width = n
                    limits.check("columns", width, source)
                limits.check_shape(rows - 1, width, source)
                if chars is not None:
                    for cell in row[:n]:
                        v = cell.value
                        if isinstance(v, str) and len(v) > chars:
                            limits.check("cell_chars", len(v), source)
            yield row


def _read_parquet(data: bytes, filename: str, limits: SizeLimits) -> pd.DataFrame:
    """Parquet after checking its metadata; text columns stay dictionary-encoded (no per-row copy)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(io.BytesIO(data))
    meta = pf.metadata
    limits.check_shape(meta.num_rows, meta.num_columns, filename)
    unzipped = sum(
        meta.row_group(i).column(j).total_uncompressed_size
        for i in range(meta.num_row_groups)
        for j in range(meta.num_columns)
    )
    limits.check("bytes", unzipped, filename)
    text_types = (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary, pa.types.is_large_binary)
    text = [f.name for f in pf.schema_arrow if any(is_t(f.type) for is_t in text_types)]
    table = pq.ParquetFile(io.BytesIO(data), read_dictionary=text).read() if text else pf.read()
    total = 0
    for col in table.columns:
        values = col
        if pa.types.is_dictionary(col.type):
            values = pa.chunked_array([c.dictionary for c in col.chunks], type=col.type.value_type)
        if not any(is_t(values.type) for is_t in text_types) or len(values) == 0:
            continue
        lengths = pc.binary_length(values)
        total += int(pc.sum(lengths).as_py() or 0)
        longest = pc.max(lengths).as_py()
        if longest is not None:
            limits.check("cell_chars", int(longest), filename)
    limits.check("bytes", total, filename)
    return table.to_pandas()


# ---------------------------------------------------------------------------------------------
# cells → typed columns


def is_missing_cell(v: object) -> bool:
    """dtcore's missing cells, plus pandas' own markers (pd.NA, NaT) from Excel/Parquet."""
    if is_missing(v):
        return True
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


_UNSEEN = object()


def typed_column(values: ArrayLike) -> pd.Series:
    """Raw cells → a numeric Series when every known cell is a number, else labels (None = missing).

    Text is stripped, tested for missing and for being a number once per distinct string (a
    repeated string is one object here, so the cache costs one lookup per cell, not a copy);
    numbers only (Parquet's numeric columns, Excel's number cells) are typed at once.
    """
    values = np.asarray(values, dtype=object)
    kind = pd.api.types.infer_dtype(values, skipna=True)
    if kind == "string" and pd.api.types.infer_dtype(values, skipna=False) == "string":
        return _typed_text_column(values)
    if kind in _NUMBER_KINDS:
        return _typed_numbers(values)
    return _typed_cells(values)


#: ``infer_dtype`` kinds (missing cells skipped) of a column of numbers only: Parquet's numeric
#: columns, Excel's number cells (never a bool: True is a label, not 1)
_NUMBER_KINDS = frozenset({"floating", "integer", "mixed-integer-float"})


def _typed_numbers(values: np.ndarray) -> pd.Series:
    """``typed_column`` of cells that are numbers or missing (None, NaN, pd.NA), vectorised: the
    per-cell loop of :func:`_typed_cells` took 1 s of a 10⁵-row × 12-column Parquet upload's
    1.2 s. Whole numbers with no missing cell (below 2⁵³) are integers, as there."""
    arr = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(dtype=np.float64)
    known = ~np.isnan(arr)
    with np.errstate(invalid="ignore"):  # inf % 1 is NaN: not a whole number
        whole = bool(np.all(np.mod(arr, 1) == 0))
    if known.all() and whole and np.all(np.abs(arr) < 2**53):
        return pd.Series(arr.astype(np.int64))
    return pd.Series(arr)


def _typed_cells(values: np.ndarray) -> pd.Series:
    """``typed_column`` cell by cell: any mix of numbers, text, booleans, dates and missing cells."""
    seen: dict[str, str | None] = {}
    cells: list[Any] = []  # cells of an object array: numbers, text, None
    for v in values:
        if isinstance(v, str):
            c = seen.get(v, _UNSEEN)
            if c is _UNSEEN:
                c = seen[v] = None if is_missing_cell(v) else v.strip()
            cells.append(c)
        else:
            cells.append(None if is_missing_cell(v) else v)
    known_text = {c for c in seen.values() if c is not None}
    others = [v for v in cells if v is not None and not isinstance(v, str)]
    if (known_text or others) and not any(isinstance(v, (bool, np.bool_)) for v in others):
        probe = list(known_text) + others
        nums = pd.to_numeric(pd.Series(probe, dtype=object), errors="coerce")
        if not nums.isna().any():
            as_float = {c: float(c) for c in known_text}
            arr = np.array(
                [np.nan if v is None else (as_float[v] if isinstance(v, str) else float(v)) for v in cells],
                dtype=np.float64,
            )
            n_known = sum(1 for v in cells if v is not None)
            with np.errstate(invalid="ignore"):  # inf % 1 is NaN: not a whole number
                whole = bool(np.all(np.mod(arr, 1) == 0))
            if n_known == len(cells) and whole and np.all(np.abs(arr) < 2**53):
                return pd.Series(arr.astype(np.int64))
            return pd.Series(arr)
    labels = [None if v is None else (v if isinstance(v, str) else label_of(v)) for v in cells]
    return pd.Series(labels, dtype=object)


def _typed_text_column(values: np.ndarray) -> pd.Series:
    """``typed_column`` for a column of text only (every CSV column): the same result, with the
    work done once per distinct string and the cells mapped back by index. (A dict, not
    ``pd.factorize``: pandas would copy every cell into its string dtype first, which for one
    huge string repeated on every row is gigabytes.)"""
    index: dict[str, int] = {}
    codes = np.fromiter(
        (index.setdefault(v, len(index)) for v in values.tolist()), dtype=np.int64, count=len(values)
    )
    return _typed_distinct(list(index), codes)


_TOKENS = frozenset(MISSING_TOKENS)


def _typed_distinct(uniques: list[str], codes: np.ndarray) -> pd.Series:
    """The typed column of the cells ``uniques[codes]``. Every string in ``uniques`` is some
    cell's (as ``_typed_text_column`` and ``csv_fast`` give them), so the cells are all known,
    or whole numbers, when the strings are. A string is missing when, stripped, it is a missing
    token (``is_missing_cell`` of a string)."""
    stripped = np.array([u.strip() for u in uniques], dtype=object)
    missing = np.fromiter((s in _TOKENS for s in stripped), dtype=bool, count=len(uniques))
    known = ~missing
    if known.any():
        nums = pd.to_numeric(pd.Series(stripped[known], dtype=object), errors="coerce")
        if not nums.isna().any():
            floats = np.full(len(uniques), np.nan)
            floats[known] = [float(c) for c in stripped[known]]
            if known.all():  # every value is some cell's: whole cells when whole values
                with np.errstate(invalid="ignore"):  # inf % 1 is NaN: not a whole number
                    whole = bool(np.all(np.mod(floats, 1) == 0))
                if whole and np.all(np.abs(floats) < 2**53):
                    return pd.Series(floats.astype(np.int64)[codes])
            return pd.Series(floats[codes])
    stripped[missing] = None
    return pd.Series(stripped[codes], dtype=object)


def _check_names(names: Iterable[object]) -> list[str]:
    out = [("" if n is None else str(n)).strip() for n in names]
    empty = [i + 1 for i, n in enumerate(out) if not n or n.startswith("Unnamed: ")]
    if empty:
        raise LoadError("load.unnamed_column", position=empty[0])
    dup = sorted({n for n in out if out.count(n) > 1})
    if dup:
        raise LoadError("load.duplicate_columns", names=", ".join(dup))
    return out


def frame_from_cells(names: Iterable[object], rows: np.ndarray) -> pd.DataFrame:
    names = _check_names(names)
    rows = np.asarray(rows, dtype=object).reshape(-1, len(names))
    return pd.DataFrame({n: typed_column(rows[:, j]) for j, n in enumerate(names)})


def tidy_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A DataFrame from Excel/Parquet → the same column types CSV reading gives."""
    names = _check_names(df.columns)
    df = df.dropna(how="all")
    cols = {}
    for n, (_, col) in zip(names, df.items()):
        if pd.api.types.is_bool_dtype(col.dtype):
            cols[n] = typed_column(col.astype(object))
        elif pd.api.types.is_numeric_dtype(col.dtype):
            cols[n] = typed_column(col.to_numpy(dtype=object))
        else:
            cols[n] = typed_column(col.astype(object).to_numpy())
    return pd.DataFrame(cols)


def raw_rows(df: pd.DataFrame, columns: Iterable[str]) -> np.ndarray:
    """Selected columns as the object array ``dtcore`` estimators take (NaN/None = missing)."""
    return df[list(columns)].to_numpy(dtype=object)


def number_rows(df: pd.DataFrame, columns: Iterable[str]) -> np.ndarray:
    """``raw_rows`` of continuous features for fitting and scoring: a float64 matrix when every
    column is a numpy number column without an infinity (the estimators encode it as they encode
    the object array, without a Python float per cell), else the object array itself (an
    infinity is refused with the object array's message)."""
    columns = list(columns)
    dtypes = [df[c].dtype for c in columns]
    if columns and all(isinstance(d, np.dtype) and d.kind in "fiu" for d in dtypes):
        X = df[columns].to_numpy(dtype=np.float64)
        if not np.isinf(X).any():
            return X
    return raw_rows(df, columns)
