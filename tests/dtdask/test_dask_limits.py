"""Issue 29 item 4: the Dask engine and a dictionary-encoded string bomb. A Parquet file of a few
KB whose one label is 40 000 characters, on every row, must not make a worker copy the label
into every cell (``np.unique(col.astype(str))`` made a fixed-width array as wide as the label:
6.4 GB for 40 000 rows); the configured limits (``cell_chars``, ``name_chars``) refuse it in one
line on the Dask path as they do in memory, and ``--no-limits`` trains in bounded memory."""

import io
import tracemalloc

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dtcore.schema import CATEGORICAL, Feature, Schema, distinct_strings, encode_classes, encode_features
from dtdask import connect
from tests.cli_runner import run_cli

LABEL_CHARS = 40_000


@pytest.fixture(scope="module")
def scheduler():
    """A threaded cluster for the module's CLI runs (no worker processes to start each time)."""
    with connect(processes=False, protocol="tcp") as client:
        yield client.scheduler.address


def parquet_dictionary_bomb(n_rows: int = 40_000, label_chars: int = LABEL_CHARS) -> bytes:
    """One ``label_chars``-character label on every row of a dictionary-encoded column ``s``, a
    two-valued numeric feature ``a`` and a yes/no target ``y``: a few KB of Parquet."""
    big = "x" * label_chars
    s = pa.DictionaryArray.from_arrays(
        pa.array(np.arange(n_rows, dtype=np.int32) % 2), pa.array([big, big[:-1] + "y"])
    )
    a = pa.array(np.arange(n_rows) % 7, type=pa.int64())
    y = pa.array(np.where(np.arange(n_rows) % 3 == 0, "yes", "no"))
    buf = io.BytesIO()
    pq.write_table(pa.table({"s": s, "a": a, "y": y}), buf, compression="zstd")
    return buf.getvalue()


def dask_train(path, scheduler: str, *flags):
    """``dtcore train PATH --target y --engine dask`` on the module's cluster, in process."""
    args = ("train", path, "--target", "y", "--engine", "dask", "--scheduler", scheduler, *flags)
    return run_cli(*args, hang_seconds=120)


def test_the_bomb_is_small_on_disk():
    assert len(parquet_dictionary_bomb()) < 20_000


def test_the_dask_engine_refuses_a_label_over_the_cell_limit_in_one_line(tmp_path, scheduler):
    path = tmp_path / "bomb.parquet"
    path.write_bytes(parquet_dictionary_bomb())
    run = dask_train(path, scheduler, "--categorical", "s", "--keep", "s", "--out", tmp_path / "m.json")
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dtcore: error:"), run.stderr
    assert "column 's'" in lines[0] and f"{LABEL_CHARS} cell_chars is over the limit" in lines[0]
    assert "DTREE_MAX_CELL_CHARS" in lines[0] and not (tmp_path / "m.json").exists()


def test_the_dask_engine_refuses_a_column_name_over_the_name_limit(tmp_path, scheduler):
    long_name = "n" * 1_500
    pd.DataFrame({long_name: np.arange(200) % 5, "y": ["a", "b"] * 100}).to_parquet(tmp_path / "d.parquet")
    run = dask_train(tmp_path / "d.parquet", scheduler, "--out", tmp_path / "m.json")
    assert run.returncode == 2 and "1500 name_chars is over the limit of 1000" in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_without_limits_the_dask_engine_trains_on_it(tmp_path, scheduler):
    path = tmp_path / "bomb.parquet"
    path.write_bytes(parquet_dictionary_bomb(n_rows=8_000))
    run = dask_train(
        path,
        scheduler,
        "--categorical",
        "s",
        "--keep",
        "s",
        "--no-limits",
        "--max-depth",
        "3",
        "--out",
        tmp_path / "m.json",
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "m.json").stat().st_size < 400_000  # the two labels, once each, not per row


def test_encoding_a_repeated_long_label_allocates_nothing_per_cell():
    """What a worker does per partition: 4 000 cells sharing one 40 000-character label are
    encoded in a few MB (the fixed-width copy took 4 000 × 40 000 × 4 bytes = 640 MB)."""
    big = "x" * LABEL_CHARS
    other = big[:-1] + "y"
    col = np.empty(4_000, dtype=object)
    col[:] = [big if i % 3 else other for i in range(col.size)]
    schema = Schema((Feature("s", CATEGORICAL, (big, other)),), "y", ("no", "yes"))
    tracemalloc.start()
    try:
        codes = encode_features(col[:, None], schema)[:, 0]
        y, classes = encode_classes(col)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024**2, f"peak {peak / 1024**2:.0f} MB"
    expected = np.array([0.0 if i % 3 else 1.0 for i in range(col.size)])
    assert np.array_equal(codes, expected)
    assert classes == (other, big) and np.array_equal(y, (expected == 0).astype(np.int64))


def test_distinct_strings_keeps_first_appearance_and_every_character():
    # a trailing NUL, which a fixed-width numpy string drops, stays: "a\x00" and "a" differ
    cells = ["b", "a\x00", "b", "a", "c", "a\x00"]
    uniq, inv = distinct_strings(cells)
    assert uniq == ["b", "a\x00", "a", "c"]
    assert inv.tolist() == [0, 1, 0, 2, 3, 1]
    assert [uniq[i] for i in inv] == cells


def test_string_class_codes_match_the_per_row_loop():
    """The >64-row path (distinct strings) gives the classes, codes and errors of the loop."""
    rng = np.random.default_rng(3)
    labels = rng.choice(["9", "10", "2", "x"], 200).astype(object)
    fast = encode_classes(labels)
    slow = encode_classes(list(labels[:60]))  # the loop path: under 64 cells
    assert fast[1] == tuple(dict.fromkeys(labels.tolist()))
    assert slow[1] == tuple(dict.fromkeys(labels[:60].tolist()))
    assert np.array_equal(fast[0][:60], [fast[1].index(v) for v in labels[:60]])
    with_missing = labels.copy()
    with_missing[[70, 150]] = "?"
    try:
        encode_classes(with_missing)
    except ValueError as err:
        assert "missing in 2 row(s) (first: row 71)" in str(err)
    else:
        raise AssertionError("a missing target must be refused")
