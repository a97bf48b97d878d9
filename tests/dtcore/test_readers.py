"""dtcore.data.readers: encodings, delimiters, raw missing tokens, and clear errors on bad files."""

import pytest

from dtcore.data.readers import Table, decode, parse_delimited, read_table, sniff_delimiter
from dtcore.schema import DataError
from tests.datasets import DATA

WATERMELON = DATA / "watermelon_3.0.csv"

CHINESE = "编号,色泽,密度,好瓜\n1,青绿,0.697,是\n2,乌黑,0.774,否\n"


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return p


def test_reads_the_real_watermelon_file():
    t = read_table(WATERMELON)
    assert isinstance(t, Table)
    assert t.names == ["编号", "色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率", "好瓜"]
    assert t.rows.shape == (17, 10) and t.rows.dtype == object
    assert t.rows[0].tolist() == ["1", "青绿", "蜷缩", "浊响", "清晰", "凹陷", "硬滑", "0.697", "0.46", "是"]
    assert t.column("好瓜").tolist().count("是") == 8
    assert t.encoding == "utf-8" and t.delimiter == ","


@pytest.mark.parametrize(
    "encoding,expected",
    [
        ("utf-8", "utf-8"),
        ("utf-8-sig", "utf-8-sig"),
        ("gbk", "gb18030"),
        ("gb18030", "gb18030"),
        ("utf-16", "utf-16"),
    ],
)
def test_encodings_give_the_same_cells(tmp_path, encoding, expected):
    t = read_table(write(tmp_path, "x.csv", CHINESE.encode(encoding)))
    assert t.encoding == expected
    assert t.names == ["编号", "色泽", "密度", "好瓜"]  # no BOM glued to the first name
    assert t.rows.tolist() == [["1", "青绿", "0.697", "是"], ["2", "乌黑", "0.774", "否"]]


def test_gbk_bytes_are_not_valid_utf8():
    # the premise of trying UTF-8 first: GBK Chinese fails strict UTF-8 decoding
    data = "色泽,好瓜\n青绿,是\n".encode("gbk")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert decode(data) == ("色泽,好瓜\n青绿,是\n", "gb18030")


@pytest.mark.parametrize("delim", [",", "\t", ";"])
def test_sniffs_the_delimiter(tmp_path, delim):
    text = (
        delim.join(["a", "b b", "c"])
        + "\n"
        + delim.join(["1", "x", "2"])
        + "\n"
        + delim.join(["3", "y", "4"])
        + "\n"
    )
    t = read_table(write(tmp_path, "x.txt", text))
    assert t.delimiter == delim
    assert t.names == ["a", "b b", "c"]
    assert t.rows.tolist() == [["1", "x", "2"], ["3", "y", "4"]]


def test_semicolon_file_with_decimal_commas():
    # European Excel: ';' separates, ',' is the decimal mark inside cells
    text = "x;y;label\n1,5;2,25;a\n3,0;4,5;b\n"
    assert sniff_delimiter(text) == ";"


def test_tsv_suffix_reads_tabs_even_with_commas_in_cells(tmp_path):
    t = read_table(write(tmp_path, "x.tsv", "name\tnote\nann\ta, b, c\nbob\td, e\n"))
    assert t.delimiter == "\t"
    assert t.rows[:, 1].tolist() == ["a, b, c", "d, e"]


def test_quoted_fields_crlf_and_blank_lines(tmp_path):
    text = 'a,b\r\n"x, y","say ""hi"""\r\n\r\n3,4\r\n\r\n\r\n'
    t = read_table(write(tmp_path, "x.csv", text))
    assert t.rows.tolist() == [["x, y", 'say "hi"'], ["3", "4"]]


def test_missing_tokens_stay_raw_strings(tmp_path):
    t = read_table(write(tmp_path, "x.csv", "a,b,c\n?,NA,\nnull,1,N/A\n"))
    assert t.rows.tolist() == [["?", "NA", ""], ["null", "1", "N/A"]]


def test_header_names_are_stripped(tmp_path):
    t = read_table(write(tmp_path, "x.csv", " a , b\n1,2\n"))
    assert t.names == ["a", "b"]


@pytest.mark.parametrize(
    "content,message",
    [
        ("", "empty"),
        ("  \n\n", "empty"),
        ("a,b,c\n", "no data rows"),
        ("a,b,a\n1,2,3\n", "duplicate column names ['a']"),
        ("a,,c\n1,2,3\n", "column 2 has no name"),
    ],
)
def test_bad_files_raise_data_error(tmp_path, content, message):
    with pytest.raises(DataError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_table(write(tmp_path, "bad.csv", content))


def test_ragged_row_names_its_physical_line(tmp_path):
    # line 1 header, line 2 ok, line 3 blank, line 4 has a stray field
    p = write(tmp_path, "bad.csv", "a,b\n1,2\n\n3,4,5\n6,7\n")
    with pytest.raises(DataError, match=r"line 4 has 3 fields but the header \(line 1\) has 2"):
        read_table(p)


def test_short_row_is_ragged_too(tmp_path):
    with pytest.raises(DataError, match="line 3 has 1 fields"):
        read_table(write(tmp_path, "bad.csv", "a,b\n1,2\n3\n"))


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_table(tmp_path / "nope.csv")


def test_column_lookup_error_lists_columns():
    t = read_table(WATERMELON)
    with pytest.raises(DataError, match="no column named 'nope'"):
        t.column("nope")


def test_arff_is_dispatched_by_suffix():
    pytest.importorskip("dtcore.data.arff")
    t = read_table(DATA / "contact-lenses.arff")
    csv_t = read_table(DATA / "contact-lenses.csv")
    assert t.names == csv_t.names
    assert t.rows.shape == csv_t.rows.shape
    assert [str(v) for v in t.rows[0]] == csv_t.rows[0].tolist()
    assert t.kinds is not None and t.kinds["age"] == "categorical"
    assert t.categories["age"] == ("young", "pre-presbyopic", "presbyopic")


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ('a,b,y\n1,2,x\n4,5,"y\n6,7,x\n', "line 3: a quoted field opened on this line is never closed"),
        ('a,b,y\n\n1,2,x\n\n4,"5,y\n', "line 5: a quoted field opened on this line is never closed"),
        ('a,b,y\n1,"a"b,x\n2,3,y\n', "line 2: text follows a closing quote inside a field"),
    ],
)
def test_broken_quotes_are_refused_with_the_line_to_fix(text, phrase):
    """A quote left open would otherwise swallow the rest of the file into one cell."""
    with pytest.raises(DataError, match=phrase):
        parse_delimited(text, source="t.csv")


def test_quoted_fields_with_newlines_and_doubled_quotes_still_read():
    table = parse_delimited('a,b,y\n"x\ny","say ""hi""",p\n1,2,q\n')
    assert table.rows.tolist() == [["x\ny", 'say "hi"', "p"], ["1", "2", "q"]]
