"""``dtcore explain-prediction`` and the code exports of ``dtcore export``, through the command line."""

import json

import pytest

from tests.datasets import DATA
from tests.dtcore.test_cli import assert_user_error, dtcore

MISSING = DATA / "watermelon_2.0_missing.csv"


@pytest.fixture(scope="module")
def c45_model(tmp_path_factory):
    out = tmp_path_factory.mktemp("m") / "c45.json"
    proc = dtcore(
        "train", MISSING, "--target", "好瓜", "--ignore", "编号", "--algorithm", "c45",
        "--option", "prune=false", "--option", "min_cases=1", "--out", out,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return out


def test_text_from_a_csv_row_with_a_missing_value(c45_model):
    proc = dtcore("explain-prediction", c45_model, "--csv", MISSING, "--index", "7")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "#0 → #1: 纹理 = 清晰  (sample: missing, share 7/15)" in out
    assert "share 1/3" in out and "share 1/5" in out
    assert "P(是) = 7/15 × 7/22 + 1/3 × 1 + 1/5 × 1 = 15/22 ≈ 0.6818" in out
    assert "\nprediction: 是\n" in out


def test_json_from_a_row(c45_model):
    proc = dtcore(
        "explain-prediction", c45_model, "--row", '{"纹理": "清晰", "根蒂": "蜷缩"}', "--format", "json"
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["prediction"] == "是" and d["steps"][0]["how"] == "value"
    assert abs(sum(d["proba"]) - 1) < 1e-12 and d["path_nodes"][0] == 0
    assert {c["name"] for c in d["counterfactuals"]} >= {"纹理", "根蒂"}


def test_user_errors(c45_model):
    assert_user_error(dtcore("explain-prediction", c45_model), "--row")
    assert_user_error(dtcore("explain-prediction", c45_model, "--row", "[1]"), "JSON object")
    assert_user_error(dtcore("explain-prediction", c45_model, "--row", "{x"), "not valid JSON")
    assert_user_error(dtcore("explain-prediction", c45_model, "--row", '{"颜色": 1}'), "does not use")
    assert_user_error(dtcore("explain-prediction", c45_model, "--csv", MISSING, "--index", "99"), "0..16")


def test_export_python_sql_and_pdf(c45_model, tmp_path):
    """``dtcore export`` writes the .py function, the .sql query and a PDF picture."""
    import sqlite3

    py, sql, pdf = tmp_path / "m.py", tmp_path / "m.sql", tmp_path / "m.pdf"
    for out in (py, sql, pdf):
        proc = dtcore("export", c45_model, "--out", out)
        assert proc.returncode == 0, proc.stderr
    ns: dict = {}
    exec(py.read_text(encoding="utf-8"), ns)
    assert ns["predict"]({"纹理": "清晰", "根蒂": "蜷缩"}) == "是"
    assert (
        abs(
            ns["predict_proba"]({"色泽": "乌黑", "根蒂": "稍蜷", "敲声": "浊响", "脐部": "稍凹"})["是"]
            - 15 / 22
        )
        < 1e-12
    )
    con = sqlite3.connect(":memory:")
    con.execute(
        'CREATE TABLE data ("色泽" TEXT, "根蒂" TEXT, "敲声" TEXT, "纹理" TEXT, "脐部" TEXT, "触感" TEXT)'
    )
    con.execute("INSERT INTO data VALUES (NULL, '蜷缩', NULL, '清晰', NULL, NULL)")
    assert con.execute(sql.read_text(encoding="utf-8")).fetchone()[0] == "是"
    assert pdf.read_bytes().startswith(b"%PDF")
    assert_user_error(dtcore("export", c45_model, "--out", tmp_path / "m.xls"), ".py, .sql")
