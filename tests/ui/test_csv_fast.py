"""The quote-free CSV path (``ui.services.csv_fast``) gives the reference reader's frame, or leaves
the file to it: every text here is read both ways and the frames (or the errors) compared."""

import random

import pandas as pd
import pytest

from dtcore.data import readers
from dtcore.data.limits import NO_LIMITS, SizeLimits
from ui.services import csv_fast
from ui.services.limits import LIMITS
from ui.services.loading import LoadError, read_bytes


def reference(data: bytes, name: str = "f.csv", limits: SizeLimits = LIMITS):
    """What ``read_bytes`` gives without the fast path (the csv module's table, typed cell by
    cell in ``frame_from_cells``): the frame, or the LoadError's key and values."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(csv_fast, "distinct_columns", lambda *args, **kwargs: None)
        return read(data, name, limits)


def read(data: bytes, name: str = "f.csv", limits: SizeLimits = LIMITS):
    try:
        return read_bytes(data, name, limits).df
    except LoadError as exc:
        return exc.key, exc.params


def both(data: bytes, name: str = "f.csv", limits: SizeLimits = LIMITS):
    return read(data, name, limits), reference(data, name, limits)


def assert_same(got, want) -> None:
    if isinstance(want, tuple):
        assert got == want
        return
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    for name in want.columns:  # None stays None (not NaN) in label columns
        if want[name].dtype == object:
            assert [v is None for v in got[name]] == [v is None for v in want[name]]


def fast_answers(text: str, delimiter: str = ",", limits: SizeLimits = LIMITS) -> bool:
    return csv_fast.distinct_columns(text, delimiter, limits) is not None


@pytest.mark.parametrize(
    "text",
    [
        "a,b,c\n1,2,x\n3,4,y\n",
        "a,b,c\r\n1,2,x\r\n3,4,y\r\n",  # Windows line ends
        "a,b,c\r1,2,x\r3,4,y",  # old Mac line ends, no final one
        "\n\na,b,c\n\n1,2,x\n\r\n3,4,y\n\n",  # empty lines before, inside and after
        " a , b ,c\n 1 , 2.5 ,  x \n3,?,NA\n",  # blanks around cells and names, missing tokens
        "a,b,c\n1,,\n2,nan,None\n3,N/A,null\n",  # every missing token
        "a,b,c\n1,inf,-0\n2,-inf,0.0\n3,1e3,1_000\n",  # infinities, zeros, an underscore
        "a,b,c\n9007199254740993,1,2\n1,2,3\n",  # past 2**53
        "编号,色泽,好瓜\n1,青绿,是\n2,乌黑,否\n",
        "a,b\n1,x\x0by\n2,x\u2028y\n3,\x1c\n",  # str.splitlines' separators are data to csv
        "a;b;c\n1;2,5;x\n3;4,5;y\n",  # semicolons, decimal commas
        "a\tb\n1\t2\n",
        "a,b\n1,\t\n2, \n",  # cells of blanks only, not whole rows
        "a,Unnamed: 1\n1,2\n",  # a pandas-style unnamed column
    ],
)
def test_quote_free_files_read_alike(text):
    data = text.encode("utf-8")
    got, want = both(data)
    assert_same(got, want)
    assert fast_answers(text, readers.sniff_delimiter(text))


@pytest.mark.parametrize(
    "text",
    [
        'a,b\n"1",2\n',  # quotes: csv's own rules
        "a,b\n1,2\n,\n3,4\n",  # a blank row after the header
        "a,b\n1,2\n   \n3,4\n",  # a line of blanks
        "a,b\n1,2,3\n",  # ragged
        "a,b\n1\n",
        "a,a\n1,2\n",  # duplicate names
        "a,\n1,2\n",  # an unnamed column
        ",\na,b\n1,2\n",  # a blank first line (the reference skips it)
        "a,b\n",  # no data rows
        "\ufeffa,b\n1,2\n",  # a second BOM after the decoded one
        "a,b\n1,\x002\n",
    ],
)
def test_other_files_go_to_the_reference(text):
    assert not fast_answers(text)
    got, want = both(text.encode("utf-8"))
    assert_same(got, want)


@pytest.mark.parametrize(
    "limits",
    [
        SizeLimits(rows=2),
        SizeLimits(cells=5),
        SizeLimits(columns=2),
        SizeLimits(cell_chars=3),
        SizeLimits(name_chars=1),
        SizeLimits(bytes=20),
    ],
)
def test_a_file_past_a_limit_gets_the_references_refusal(limits):
    text = "a,bb,c\n1,2,x\n3,4,yyyy\n5,6,z\n"
    assert not fast_answers(text, ",", limits)
    got, want = both(text.encode(), limits=limits)
    assert isinstance(want, tuple) and want[0].startswith("load.limit.")
    assert got == want


def test_encodings_and_tsv_read_alike():
    text = "编号\t色泽\t密度\n1\t青绿\t0.697\n2\t乌黑\t\n"
    for data in (text.encode("gbk"), b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16")):
        got, want = both(data, "w.tsv")
        assert_same(got, want)


def test_random_quote_free_files_read_alike():
    """Random cells from a small alphabet of the awkward (blanks, tokens, numbers of every
    shape, line ends, separators), rows of random widths: each file read both ways."""
    rng = random.Random(7)
    pieces = ["1", "-2", "3.50", "1e-3", "inf", "nan", "?", "NA", "x", "是", "0x1", "1_0"]
    pieces += ["", " ", " 4 ", " y"]
    ends = ["\n", "\r\n", "\r", "\n\n"]
    fast = 0
    for _ in range(300):
        width = rng.randint(1, 4)
        lines = [",".join(f"c{j}" for j in range(width))]
        for _ in range(rng.randint(1, 8)):
            w = width if rng.random() < 0.9 else rng.randint(1, 5)
            lines.append(",".join(rng.choice(pieces) for _ in range(w)))
        text = "".join(line + rng.choice(ends) for line in lines)
        fast += fast_answers(text, readers.sniff_delimiter(text))
        got, want = both(text.encode())
        assert_same(got, want)
    assert fast > 150  # most of them take the fast path (the rest: blank or ragged rows)


def test_the_benchmark_upload_reads_alike():
    """10⁴ rows of the browser benchmark's data (20 numbers, a yes/no target) through both."""
    from bench.bench_browser import make_csv

    data = make_csv(10_000, 0.05)
    assert fast_answers(data.decode())
    got, want = both(data)
    assert_same(got, want)
    assert [str(t) for t in got.dtypes] == ["float64"] * 20 + ["object"]


def test_no_limits_still_refuse_csvs_longest_field():
    """Without a cell limit a cell past the csv module's own field limit is the reference's error."""
    text = "a,b\n1," + "x" * (readers.csv.field_size_limit() + 1) + "\n"
    assert not fast_answers(text, ",", NO_LIMITS)
