"""Uploaded bytes or a bundled sample → one tidy DataFrame the rest of the app can trust.

Every format ends in the same shape: string column names (unique, non-empty), numeric columns as
int64/float64 (NaN = missing), other columns as object arrays of stripped labels with ``None`` for
missing cells. CSV/TSV go through ``dtcore.readers`` (its encoding detection: UTF-8, UTF-8 BOM,
GBK), Excel through openpyxl, Parquet through pyarrow, ARFF through ``dtcore.arff``.
Failures raise :class:`LoadError` carrying a catalogue key, so the page can say what went wrong
in the user's language and keep the previous data.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from dtcore import arff, readers
from dtcore.schema import DataError, is_missing, label_of

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "assets" / "samples"
MAX_ROWS = 200_000

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

    def __init__(self, key: str, **params):
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


def read_bytes(data: bytes, filename: str) -> LoadedData:
    """Read an uploaded file by its suffix. Raises LoadError (never a library traceback)."""
    fmt = file_format(filename)
    if not data or not data.strip():
        raise LoadError("load.empty", name=filename)
    digest = hashlib.sha256(data).hexdigest()[:16]
    declared: dict = {}
    encoding = None
    try:
        if fmt in ("csv", "tsv"):
            text, enc = readers.decode(data)
            encoding = _ENCODING_NAMES.get(enc, enc)
            table = readers.parse_delimited(
                text, "\t" if fmt == "tsv" else None, encoding=enc, source=filename
            )
            df = frame_from_cells(table.names, table.rows)
        elif fmt == "excel":
            raw = pd.read_excel(io.BytesIO(data), sheet_name=0, dtype=object, engine="openpyxl")
            df = tidy_frame(raw)
        elif fmt == "parquet":
            df = tidy_frame(pd.read_parquet(io.BytesIO(data)))
        else:
            df, declared = _read_arff(data, filename)
    except LoadError:
        raise
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
    if df.shape[0] > MAX_ROWS:
        raise LoadError("load.too_many_rows", name=filename, rows=df.shape[0], limit=MAX_ROWS)
    return LoadedData(df, filename, "upload", fmt, encoding, digest, declared)


def _read_arff(data: bytes, filename: str):
    text, _ = readers.decode(data)
    parsed = arff.read_arff(text)
    return frame_from_cells(parsed.names, parsed.rows), {
        n: k for n, k in zip(parsed.names, parsed.kinds) if k
    }


# ---------------------------------------------------------------------------------------------
# cells → typed columns


def is_missing_cell(v) -> bool:
    """dtcore's missing cells, plus pandas' own markers (pd.NA, NaT) from Excel/Parquet."""
    if is_missing(v):
        return True
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def typed_column(values) -> pd.Series:
    """Raw cells → a numeric Series when every known cell is a number, else labels (None = missing)."""
    cells = [None if is_missing_cell(v) else (v.strip() if isinstance(v, str) else v) for v in values]
    known = [v for v in cells if v is not None]
    if known and not any(isinstance(v, (bool, np.bool_)) for v in known):
        nums = pd.to_numeric(pd.Series(known, dtype=object), errors="coerce")
        if not nums.isna().any():
            arr = np.array([np.nan if v is None else float(v) for v in cells], dtype=np.float64)
            if len(known) == len(cells) and np.all(np.mod(arr, 1) == 0) and np.all(np.abs(arr) < 2**53):
                return pd.Series(arr.astype(np.int64))
            return pd.Series(arr)
    labels = [None if v is None else (v if isinstance(v, str) else label_of(v)) for v in cells]
    return pd.Series(labels, dtype=object)


def _check_names(names) -> list[str]:
    out = [("" if n is None else str(n)).strip() for n in names]
    empty = [i + 1 for i, n in enumerate(out) if not n or n.startswith("Unnamed: ")]
    if empty:
        raise LoadError("load.unnamed_column", position=empty[0])
    dup = sorted({n for n in out if out.count(n) > 1})
    if dup:
        raise LoadError("load.duplicate_columns", names=", ".join(dup))
    return out


def frame_from_cells(names, rows: np.ndarray) -> pd.DataFrame:
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


def raw_rows(df: pd.DataFrame, columns) -> np.ndarray:
    """Selected columns as the object array ``dtcore`` estimators take (NaN/None = missing)."""
    return df[list(columns)].to_numpy(dtype=object)
