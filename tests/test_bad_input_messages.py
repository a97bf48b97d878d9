"""The messages the bad-input issue found misleading, each pinned by a test that failed before:
a zip/xlsx named .csv, decimal commas called an identifier, "ignore fewer columns" with nothing
ignored, no word about an all-missing feature, the only feature of a tiny table ignored as an ID.
Also the app's upload of bad files (AppTest): a message on screen, the previous data kept."""

import io
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from dtcore.data import roles as E
from dtcore.data.readers import decode
from dtcore.schema import DataError
from tests.app.apptest import start
from tests.cli_runner import CliRun, run_cli
from ui.services import roles as R
from ui.services.loading import LoadError, read_bytes

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "data" / "bad"


def xlsx_bytes() -> bytes:
    buf = io.BytesIO()
    wb = openpyxl.Workbook()
    for row in [["x", "y"], [1, "a"], [2, "b"]]:
        wb.active.append(row)
    wb.save(buf)
    return buf.getvalue()


def profiles(columns: dict) -> dict:
    return E.profile_columns({k: np.array(v, dtype=object) for k, v in columns.items()})


def test_an_xlsx_named_csv_says_rename_it_not_no_data_rows():
    with pytest.raises(LoadError) as info:
        read_bytes(xlsx_bytes(), "data.csv")
    detail = info.value.params["detail"]
    assert "Excel/zip" in detail and "rename it .xlsx" in detail and "no data rows" not in detail
    with pytest.raises(DataError, match="binary file, not CSV text"):
        decode(b"a,b\n\x00\x01\x02\n", "junk.csv")
    assert decode("a,b\n".encode("utf-16"))[1] == "utf-16"  # UTF-16's NUL bytes are text


def test_decimal_commas_are_numbers_to_a_person_not_an_identifier():
    p = profiles({"w": ["1,5", "2,25", "3,75", "0,5", "4,125"], "y": list("ababa")})
    assert p["w"].decimal_comma and not p["w"].identifier
    roles = E.infer_roles(p, "y")
    assert roles["w"] == E.CATEGORICAL
    codes = [i.code for i in E.role_warnings(p, roles)]
    assert "decimal_comma" in codes and "identifier" not in codes
    assert not profiles({"n": ["a,b", "c", "d", "e"]})["n"].decimal_comma


def cli_train(tmp_path, text: str, *args) -> CliRun:
    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    return run_cli("train", path, "--target", "y", "--out", tmp_path / "m.json", *args)


def test_ignore_fewer_columns_only_when_something_was_ignored(tmp_path):
    run = cli_train(tmp_path, "y\na\nb\na\n")
    assert run.returncode == 2 and "ignore fewer" not in run.stderr
    assert "only the target column" in run.stderr
    run = cli_train(tmp_path, "x,y\n1,a\n2,b\n3,a\n", "--ignore", "x")
    assert run.returncode == 2 and "ignore fewer columns" in run.stderr


def test_an_all_missing_feature_gets_a_warning(tmp_path):
    p = profiles({"x": [1, 2, 3, 4, 5], "e": ["", "?", "NA", "", ""], "y": list("ababa")})
    roles = E.infer_roles(p, "y")
    assert roles["e"] == E.IGNORE
    assert [i.code for i in E.ignored_issues(p, roles)] == ["all_missing"]
    assert "all_missing" in [i.code for i in E.role_warnings(p, roles)]
    kept = {**roles, "e": E.CATEGORICAL}
    codes = [i.code for i in E.role_warnings(p, kept)]
    assert "all_missing" in codes and "constant" not in codes and "missing" not in codes
    run = cli_train(tmp_path, "x,e,y\n1,,a\n2,,b\n3,,a\n4,,b\n")
    assert run.returncode == 0 and "'e' is missing in every row" in run.stderr
    loaded = read_bytes(b"x,e,y\n1,,a\n2,,b\n3,,a\n4,,b\n", "d.csv")
    assert "all_missing" in [i.code for i in R.warnings(loaded.df, R.infer_roles(loaded.df, "y"))]


@pytest.mark.parametrize(
    "cells",
    [
        ["2024-01-01", "2024-01-02", "2024-01-03"],
        ["Alice", "Bob", "Carol", "Dave"],
        ["first\nline", "second", "third"],
    ],
)
def test_a_tiny_table_keeps_its_only_feature(cells):
    p = profiles({"f": cells, "y": list("abab")[: len(cells)]})
    roles = E.infer_roles(p, "y")
    assert roles["f"] == E.CATEGORICAL
    assert "identifier" not in [i.code for i in E.role_warnings(p, roles)]
    assert not E.ignored_issues(p, roles)


def test_identifiers_are_still_ignored_beside_other_features_and_on_bigger_tables():
    p = profiles({"name": ["A", "B", "C"], "x": [1, 2, 1], "y": list("aba")})
    assert E.infer_roles(p, "y")["name"] == E.IGNORE
    p = profiles({"name": list("ABCDE"), "y": list("ababa")})
    assert E.infer_roles(p, "y")["name"] == E.IGNORE
    p = profiles({"RID": ["r1", "r2", "r3"], "y": list("aba")})  # an ID name is an ID at any size
    assert E.infer_roles(p, "y")["RID"] == E.IGNORE
    p = profiles({"f": ["a", "b", "c"], "y": list("aba")})
    assert E.infer_roles(p, "y", ignore=["f"])["f"] == E.IGNORE  # the user's word stands


# -- the upload box (AppTest) ----------------------------------------------------------------

UPLOADS = [
    ("xlsx_renamed.csv", "error", "rename it .xlsx"),
    ("binary_junk.csv", "error", "binary file"),
    ("empty.csv", "error", "empty"),
    ("duplicate_headers.csv", "error", "duplicate column"),
    ("one_column.csv", "error", "single column"),
    ("csv_renamed.xlsx", "error", "Excel"),
    ("decimal_comma.csv", "warning", "decimal commas"),
    ("all_missing_feature.csv", "warning", "missing in all"),
]


@pytest.mark.parametrize(("name", "shown", "phrase"), UPLOADS, ids=[u[0] for u in UPLOADS])
def test_upload_of_a_bad_file_shows_a_message_and_keeps_the_data(name, shown, phrase):
    at = start()
    at.switch_page("pages/data.py").run()
    before = at.session_state["data"].name
    at.file_uploader(key="upload").set_value((name, (BAD / name).read_bytes(), "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    messages = [e.value.replace("\\", "") for e in (at.error if shown == "error" else at.warning)]
    assert any(phrase in m for m in messages), messages
    if shown == "error":
        assert all("\n" not in m and "Traceback" not in m for m in messages)
        assert at.session_state["data"].name == before  # previous data kept
    else:
        assert at.session_state["data"].name == name


@pytest.mark.parametrize(
    "query",
    [
        {"sample": "no-such-sample"},
        {"sample": "<script>alert(1)</script>"},
        {"sample": "\uffff"},
        {"lang": "\uffff", "algo": "<b>"},
        {"seed": "1e999", "valid": "nan"},
    ],
    ids=str,
)
def test_a_crafted_link_gives_a_page_not_a_traceback(query):
    at = start("pages/data.py", direct=True, **query)
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["data"] is not None


def test_the_role_table_notes_the_new_warnings():
    from ui.views.tables import role_table

    loaded = read_bytes((BAD / "decimal_comma.csv").read_bytes(), "d.csv")
    df = loaded.df
    roles = R.infer_roles(df, "grade")
    table = role_table(df, roles, R.warnings(df, roles), "en")
    assert "decimal commas" in table.set_index("column").loc["weight", "note"]
    loaded = read_bytes((BAD / "all_missing_feature.csv").read_bytes(), "d.csv")
    roles = R.infer_roles(loaded.df, "y")
    table = role_table(loaded.df, roles, R.warnings(loaded.df, roles), "en")
    assert table.set_index("column").loc["empty", "note"].endswith("no values")
