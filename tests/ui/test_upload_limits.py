"""Small files that declare huge data are refused before it is built, with one line naming the limit.

The expanding files of the issue are built here: a Parquet file with one 1 MB dictionary value
× 10⁵ rows, an xlsx with cells at A1 and XFD1, a sparse ARFF declaring 20 000 attributes and
20 000 ``{}`` rows, a CSV one row over the limit. Each is read in a fresh Python process whose
peak RSS and wall time are measured, so a regression shows as memory, not as a hung test run.
"""

import io
import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dtcore.data import arff
from dtcore.data.limits import LimitError, SizeLimits
from dtcore.data.readers import parse_delimited
from ui import i18n
from ui.services import loading
from ui.services.limits import LIMIT_TABLE, LIMITS, limits_from
from ui.services.loading import LoadError, read_bytes

ROOT = Path(__file__).resolve().parents[2]
PEAK_MB = 300  # over what importing pandas/pyarrow/openpyxl costs (≈ 150 MB)
#: a hang guard, not a test of speed: each read here takes well under a second; what shows a
#: refusal came before the data were read is the memory bound (PEAK_MB) and the refusal itself
HANG_GUARD_SECONDS = 60

_PROBE = """
import json, sys, time
from ui.services.loading import LoadError, read_bytes
from ui import i18n


def peak_mb():  # VmHWM: this process's peak RSS (getrusage's maxrss survives exec from the parent)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024


base = peak_mb()
data = open(sys.argv[1], "rb").read()
t0 = time.perf_counter()
try:
    read_bytes(data, sys.argv[2])
    out = {"key": None}
except LoadError as exc:
    out = {"key": exc.key, "text": i18n.translate(exc.key, "en", **exc.params)}
out["seconds"] = time.perf_counter() - t0
out["base_mb"] = base
out["peak_mb"] = peak_mb()
print(json.dumps(out))
"""


def probe(tmp_path, data: bytes, name: str) -> dict:
    """read_bytes in a fresh process: the refusal, its English line, time and peak RSS."""
    path = tmp_path / name
    path.write_bytes(data)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path), name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=10 * HANG_GUARD_SECONDS,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def assert_refused(out: dict, key: str, limit: int):
    assert out["key"] == key, out
    assert "\n" not in out["text"] and f"{limit:,}" in out["text"], out["text"]
    assert out["seconds"] < HANG_GUARD_SECONDS, out
    assert out["peak_mb"] < PEAK_MB and out["peak_mb"] - out["base_mb"] < 100, out


# ---------------------------------------------------------------------------------------------
# the files


def parquet_one_big_value(n_rows=100_000, size=1_000_000) -> bytes:
    big = "x" * size + " "  # trailing blank: the old reader stripped (copied) it once per row
    labels = pa.DictionaryArray.from_arrays(pa.array(np.zeros(n_rows, dtype=np.int32)), pa.array([big]))
    table = pa.table({"label": labels, "y": pa.array(np.arange(n_rows) % 2)})
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


def xlsx_a1_xfd1() -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active["A1"], wb.active["XFD1"] = "a", "b"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def sparse_arff(n_attributes=20_000, n_rows=20_000) -> bytes:
    head = "@relation r\n" + "".join(f"@attribute a{i} numeric\n" for i in range(n_attributes))
    return (head + "@data\n" + "{}\n" * n_rows).encode()


def test_parquet_one_dictionary_value_is_refused_by_its_length(tmp_path):
    data = parquet_one_big_value()
    assert len(data) < 4_000
    out = probe(tmp_path, data, "big.parquet")
    assert_refused(out, "load.limit.cell_chars", LIMITS.cell_chars)
    assert "DTREE_MAX_CELL_CHARS" in out["text"]


def test_parquet_dictionary_value_is_stripped_once_not_per_row():
    data = parquet_one_big_value(n_rows=100_000, size=200_000)
    t0 = time.perf_counter()
    df = read_bytes(data, "big.parquet", SizeLimits(rows=200_000, cell_chars=300_000)).df
    assert time.perf_counter() - t0 < HANG_GUARD_SECONDS
    col = df["label"]
    assert col[0] == "x" * 200_000 and col[0] is col[99_999]  # one string object, shared


def test_xlsx_with_a_cell_in_column_xfd_is_refused_by_its_dimension(tmp_path):
    out = probe(tmp_path, xlsx_a1_xfd1(), "wide.xlsx")
    assert_refused(out, "load.limit.columns", LIMITS.columns)


def test_sparse_arff_20000_by_20000_is_refused(tmp_path):
    data = sparse_arff()
    assert len(data) < 800_000
    out = probe(tmp_path, data, "sparse.arff")
    assert_refused(out, "load.limit.columns", LIMITS.columns)


def test_sparse_arff_is_refused_by_cells_before_rows_are_built():
    limits = SizeLimits(rows=200_000, columns=100_000, cells=20_000_000)
    t0 = time.perf_counter()
    with pytest.raises(LimitError) as info:
        arff.read_arff(sparse_arff().decode(), limits=limits)
    assert info.value.what == "cells" and info.value.value == 20_000 * 20_000
    assert time.perf_counter() - t0 < HANG_GUARD_SECONDS


def test_arff_rows_and_long_values():
    text = "@relation r\n@attribute a numeric\n@attribute b string\n@data\n" + "1,'x'\n" * 6
    with pytest.raises(LimitError) as info:
        arff.read_arff(text, limits=SizeLimits(rows=5))
    assert info.value.what == "rows" and info.value.value == 6
    assert arff.read_arff(text, limits=SizeLimits(rows=6)).rows.shape == (6, 2)
    with pytest.raises(LoadError) as err:
        read_bytes(text.replace("'x'", "'" + "y" * 30 + "'").encode(), "s.arff", SizeLimits(cell_chars=20))
    assert err.value.key == "load.limit.cell_chars"
    sparse = "@relation r\n@attribute a numeric\n@attribute b {u,v}\n@data\n{1 v}\n{}\n% note\n"
    assert arff.read_arff(sparse, limits=SizeLimits(rows=2, cells=4)).rows.tolist() == [
        [0.0, "v"],
        [0.0, "u"],
    ]


def test_csv_one_row_over_the_limit(tmp_path):
    data = b"x,y\n" + b"1,a\n" * (LIMITS.rows + 1)
    out = probe(tmp_path, data, "long.csv")
    assert_refused(out, "load.limit.rows", LIMITS.rows)
    assert "DTREE_MAX_ROWS" in out["text"]


def test_csv_at_the_limit_still_loads():
    limits = SizeLimits(rows=5, columns=3, cells=15)
    assert read_bytes(b"x,y,z\n" + b"1,a,b\n" * 5, "ok.csv", limits).df.shape == (5, 3)
    with pytest.raises(LoadError) as info:
        read_bytes(b"x,y,z\n" + b"1,a,b\n" * 6, "long.csv", limits)
    assert info.value.key == "load.limit.rows"
    with pytest.raises(LoadError) as info:
        read_bytes(b"w,x,y,z\n1,2,a,b\n", "wide.csv", limits)
    assert info.value.key == "load.limit.columns"


def test_csv_long_cell_and_cell_count():
    limits = SizeLimits(cells=10, cell_chars=5)
    with pytest.raises(LimitError) as info:
        parse_delimited("x,y\n1,abcdef\n", limits=limits)
    assert info.value.what == "cell_chars"
    with pytest.raises(LimitError) as info:
        parse_delimited("x,y\n" + "1,a\n" * 6, limits=limits)
    assert info.value.what == "cells" and info.value.value == 12


# ---------------------------------------------------------------------------------------------
# xlsx: declared sizes, lying dimensions, zip members


def _xlsx(rows) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    for r in rows:
        wb.active.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _rewrite_member(data: bytes, member: str, edit) -> bytes:
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            dst.writestr(info, edit(body) if info.filename == member else body)
    return out.getvalue()


def test_xlsx_declared_rows_refused_before_reading():
    data = _xlsx([("x", "y"), (1, "a"), (2, "b")])
    sheet = "xl/worksheets/sheet1.xml"
    declared = _rewrite_member(data, sheet, lambda b: b.replace(b'ref="A1:B3"', b'ref="A1:B1000000"'))
    with pytest.raises(LoadError) as info:
        read_bytes(declared, "tall.xlsx")
    assert info.value.key == "load.limit.rows"


def test_xlsx_rows_counted_as_streamed_when_the_dimension_lies():
    data = _xlsx([("x", "y")] + [(i, "a") for i in range(60)])
    lying = _rewrite_member(
        data, "xl/worksheets/sheet1.xml", lambda b: b.replace(b'ref="A1:B61"', b'ref="A1:B2"')
    )
    with pytest.raises(LoadError) as info:
        read_bytes(lying, "tall.xlsx", SizeLimits(rows=50))
    assert info.value.key == "load.limit.rows"
    assert read_bytes(lying, "tall.xlsx", SizeLimits(rows=60)).df.shape == (60, 2)


def test_xlsx_unzipped_size_and_long_cells():
    data = _xlsx([("x", "y"), (1, "a" * 50), (2, "b")])
    with pytest.raises(LoadError) as info:
        read_bytes(data, "z.xlsx", SizeLimits(bytes=1_000))
    assert info.value.key == "load.limit.bytes"
    with pytest.raises(LoadError) as info:
        read_bytes(data, "z.xlsx", SizeLimits(cell_chars=20))
    assert info.value.key == "load.limit.cell_chars"
    assert read_bytes(data, "z.xlsx").df["y"].tolist() == ["a" * 50, "b"]


def test_parquet_metadata_checked_before_reading():
    data = parquet_one_big_value(n_rows=1_000, size=10)
    for limits, key in [
        (SizeLimits(rows=999), "load.limit.rows"),
        (SizeLimits(columns=1), "load.limit.columns"),
        (SizeLimits(cells=1_999), "load.limit.cells"),
        (SizeLimits(bytes=100), "load.limit.bytes"),
    ]:
        with pytest.raises(LoadError) as info:
            read_bytes(data, "p.parquet", limits)
        assert info.value.key == key


# ---------------------------------------------------------------------------------------------
# configuration and messages


def test_limits_come_from_the_environment():
    default = limits_from({})
    assert default == SizeLimits(
        rows=200_000, columns=1_000, cells=20_000_000, cell_chars=10_000, name_chars=1_000, bytes=500_000_000
    )
    assert {lim.name for lim in LIMIT_TABLE} == set(vars(default))
    custom = limits_from({"DTREE_MAX_ROWS": "10", "DTREE_MAX_CELLS": "1_000", "DTREE_MAX_COLUMNS": "x"})
    assert custom.rows == 10 and custom.cells == 1_000 and custom.columns == default.columns
    assert limits_from({"DTREE_MAX_ROWS": "0"}).rows == default.rows


def test_every_limit_has_a_one_line_message_naming_it():
    for lim in LIMIT_TABLE:
        err = loading.too_large(lim.name, lim.default)
        for lang in ("en", "zh"):
            text = i18n.translate(err.key, lang, **err.params)
            assert "\n" not in text and f"{lim.default:,}" in text and lim.env in text


def test_memory_error_is_reported_as_too_large_and_not_as_a_bad_file(monkeypatch):
    def boom(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(loading, "tidy_frame", boom)
    data = parquet_one_big_value(n_rows=10, size=10)
    with pytest.raises(LoadError) as info:
        read_bytes(data, "p.parquet")
    assert info.value.key == "load.out_of_memory"
    text = i18n.translate(info.value.key, "en", **info.value.params)
    assert "too large to load" in text and f"{LIMITS.rows:,}" in text and "Parquet" not in text
