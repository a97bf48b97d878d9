"""The command line on real files, run in this process by ``tests.cli_runner.run_cli``; one test
runs it as users do, a real ``python -m dtcore`` process, and checks that it prints the same bytes."""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from tests.cli_runner import run_cli
from tests.datasets import DATA

ROOT = Path(__file__).resolve().parents[2]

MELON = DATA / "watermelon_3.0.csv"
MELON_ARGS = [str(MELON), "--target", "好瓜", "--ignore", "编号"]


def dtcore(*args, env=None, cwd=None):
    """Run the CLI in this process (tests/cli_runner.py); text stdout/stderr (UTF-8)."""
    return run_cli(*args, env=env, cwd=cwd or ROOT)


def python_m_dtcore(*args, env=None):
    """Run the CLI as a real ``python -m dtcore`` process; stdout/stderr as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "dtcore", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=300,  # a hang guard: the run takes about a second
    )


def assert_user_error(proc, *phrases):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("dtcore: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], proc.stderr  # notes may come before
    for p in phrases:
        assert p in errors[0], errors[0]


needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")


# ---------------------------------------------------------------------------------------------
# splits at the root: SPEC §10 numbers (no training needed)


def _splits(*args):
    proc = dtcore("splits", *args)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    return report, {f["feature"]: f for f in report["features"]}


def test_splits_reproduce_spec_gains_on_watermelon_3():
    report, by = _splits(*MELON_ARGS, "--algorithm", "id3")
    expected = {
        "色泽": 0.108,
        "根蒂": 0.143,
        "敲声": 0.141,
        "纹理": 0.381,
        "脐部": 0.289,
        "触感": 0.006,
        "密度": 0.262,
        "含糖率": 0.349,
    }
    for name, gain in expected.items():
        assert by[name]["score"] == pytest.approx(gain, abs=0.002), name
        assert by[name]["score_name"] == "gain"
    assert by["密度"]["threshold"] == pytest.approx(0.3815)
    assert by["含糖率"]["threshold"] == pytest.approx(0.126)
    assert report["best"] == "纹理" and report["weighted_n"] == 17
    assert by["纹理"]["gain_ratio"] == pytest.approx(by["纹理"]["score"] / by["纹理"]["split_information"])


def test_splits_with_missing_values_use_the_known_share():
    report, by = _splits(
        str(DATA / "watermelon_2.0_missing.csv"), "--target", "好瓜", "--ignore", "编号", "--algorithm", "c45"
    )
    expected = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "纹理": 0.424, "脐部": 0.289, "触感": 0.006}
    for name, gain in expected.items():
        assert by[name]["score"] == pytest.approx(gain, abs=0.002), name
    assert by["色泽"]["known_share"] == pytest.approx(14 / 17)
    assert report["best"] == "纹理"


def test_splits_cart_regression_root():
    report, by = _splits(str(DATA / "regression_toy5.csv"), "--target", "y")
    assert report["criterion"] == "squared_error"
    assert by["x"]["threshold"] == 3.5
    assert by["x"]["score"] == pytest.approx(3.227, abs=0.002)  # SPEC: MSE decrease of cut 3.5


# ---------------------------------------------------------------------------------------------
# errors: one line on stderr, exit code 2, never a traceback


def test_identifier_column_is_ignored_with_a_note(tmp_path):
    # was: refused with exit 2 ("--ignore 编号"); now ignored with a note, as the app does
    model = tmp_path / "m.json"
    proc = dtcore("train", MELON, "--target", "好瓜", "--out", model)
    assert proc.returncode == 0, proc.stderr
    assert "'编号'" in proc.stderr and "--keep 编号" in proc.stderr and "Traceback" not in proc.stderr
    names = [f["name"] for f in json.loads(model.read_text(encoding="utf-8"))["schema"]["features"]]
    assert "编号" not in names


def test_identifier_note_for_categorical_ids_and_keep(tmp_path):
    # was: refused with exit 2 ("'RID'", "--ignore RID"); now ignored with a note, --keep uses it
    p = tmp_path / "ids.csv"
    p.write_text("RID,age,buys\nr1,young,no\nr2,old,yes\nr3,young,no\nr4,old,yes\n", encoding="utf-8")
    model = tmp_path / "m.json"
    proc = dtcore("train", p, "--target", "buys", "--out", model)
    assert proc.returncode == 0, proc.stderr
    assert "'RID'" in proc.stderr and "--keep RID" in proc.stderr
    assert [f["name"] for f in json.loads(model.read_text(encoding="utf-8"))["schema"]["features"]] == ["age"]
    proc = dtcore("train", p, "--target", "buys", "--keep", "RID", "--out", model)
    assert proc.returncode == 0, proc.stderr
    assert "'RID'" not in proc.stderr
    assert [f["name"] for f in json.loads(model.read_text(encoding="utf-8"))["schema"]["features"]] == [
        "RID",
        "age",
    ]
    assert_user_error(
        dtcore("train", p, "--target", "buys", "--keep", "nope", "--out", model), "--keep", "'nope'"
    )


@pytest.mark.parametrize(
    "args,phrases",
    [
        (
            ["train", "/nonexistent/data.csv", "--target", "y", "--out", "m.json"],
            ["no such file", "data.csv"],
        ),
        (["train", str(MELON), "--target", "nope", "--out", "m.json"], ["no column named 'nope'"]),
        (["train", *MELON_ARGS, "--out", "m.gif"], ["suffix"]),
        (["train", *MELON_ARGS, "--ignore", "编号", "zzz", "--out", "m.json"], ["--ignore", "'zzz'"]),
        (["show", "/nonexistent/model.json"], ["no such file"]),
        (["show", str(MELON)], ["not valid JSON"]),
    ],
)
def test_user_errors(args, phrases):
    assert_user_error(dtcore(*args), *phrases)


def test_ragged_file_names_the_line(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("a,b,y\n1,2,x\n3,4,5,6\n", encoding="utf-8")
    assert_user_error(dtcore("train", p, "--target", "y", "--out", tmp_path / "m.json"), "line 3")


def test_not_a_model_file(tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"hello": 1}', encoding="utf-8")
    assert_user_error(dtcore("show", p), "not a dtcore model")


def test_python_m_dtcore_prints_what_the_in_process_run_prints():
    """The module entry point in a real process, in the C locale: the same exit codes and the same
    UTF-8 bytes (Chinese labels) as ``run_cli``, so the in-process tests see what users see."""
    env = dict(os.environ, LC_ALL="C", LANG="C")
    env.pop("PYTHONIOENCODING", None)
    runs = []
    for args in ((*MELON_ARGS, "--algorithm", "id3"), ("--target", "y")):
        process = python_m_dtcore("splits", *args, env=env)
        here = run_cli("splits", *args, text=False)
        assert (process.returncode, process.stdout, process.stderr) == (
            here.returncode,
            here.stdout,
            here.stderr,
        )
        runs.append(process)
    report, usage = runs
    assert report.returncode == 0 and "纹理".encode() in report.stdout
    assert usage.returncode == 2 and b"usage:" in usage.stderr


def test_argparse_usage_error_exits_2():
    proc = dtcore("train")
    assert proc.returncode == 2 and "usage:" in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------------------------------------
# train / predict / show with the real CART


@needs_dot
def test_train_writes_every_format_with_chinese_intact(tmp_path):
    outs = {}
    for suffix in ("json", "dot", "txt", "svg", "png"):
        out = tmp_path / f"tree.{suffix}"
        proc = dtcore("train", *MELON_ARGS, "--algorithm", "cart", "--out", out)
        assert proc.returncode == 0, proc.stderr
        outs[suffix] = out.read_bytes()
    model = json.loads(outs["json"])
    assert model["format"] == "dtcore-model" and model["algorithm"] == "cart"
    assert model["schema"]["target"] == "好瓜" and "编号" not in [
        f["name"] for f in model["schema"]["features"]
    ]
    dot = outs["dot"].decode("utf-8")
    assert dot.startswith("digraph") and "好瓜" in dot
    text = outs["txt"].decode("utf-8")
    assert text.startswith("|--- ") and "class: 是" in text and "class: 否" in text
    svg = outs["svg"].decode("utf-8")
    ET.fromstring(outs["svg"])
    root_feature = model["nodes"][0]["feature"]
    for label in (root_feature, "是", "否", "好瓜"):
        assert label in svg and label in dot
    assert outs["png"][:8] == b"\x89PNG\r\n\x1a\n"
    # same data and settings: byte-identical files
    again = tmp_path / "again.svg"
    assert dtcore("train", *MELON_ARGS, "--out", again).returncode == 0
    assert again.read_bytes() == outs["svg"]
    again = tmp_path / "again.json"
    assert dtcore("train", *MELON_ARGS, "--out", again).returncode == 0
    assert again.read_bytes() == outs["json"]


def test_predict_matches_the_library_and_proba_sums_to_one(tmp_path):
    from dtcore.data.readers import read_table
    from dtcore.export import load_model

    model = tmp_path / "m.json"
    assert dtcore("train", *MELON_ARGS, "--max-depth", "2", "--out", model).returncode == 0
    pred = tmp_path / "pred.csv"
    proc = dtcore("predict", model, MELON, "--proba", "--out", pred)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(pred.read_text(encoding="utf-8"))))
    assert rows[0] == ["prediction", "proba_是", "proba_否"]
    assert len(rows) == 18
    est = load_model(model)
    t = read_table(MELON)
    X = t.rows[:, [t.column_index(n) for n in est.schema_.names]]
    assert [r[0] for r in rows[1:]] == est.predict(X).tolist()
    proba = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
    columns = [list(est.classes_).index(c) for c in est.schema_.classes]  # the header's order
    assert np.array_equal(proba, est.predict_proba(X)[:, columns])  # exact floats in the CSV
    assert np.allclose(proba.sum(axis=1), 1.0)
    # the target column is not needed, the feature columns are matched by name in any order
    lines = MELON.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "shuffled.csv"
    with open(cut, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        for line in csv.reader(lines):
            w.writerow(list(reversed(line[1:-1])))
    proc = dtcore("predict", model, cut)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1:] == [r[0] for r in rows[1:]]


def test_predict_missing_column_is_a_clear_error(tmp_path):
    model = tmp_path / "m.json"
    assert dtcore("train", *MELON_ARGS, "--out", model).returncode == 0
    p = tmp_path / "few.csv"
    p.write_text("色泽,根蒂\n青绿,蜷缩\n", encoding="utf-8")
    assert_user_error(dtcore("predict", model, p), "lacks the column(s)", "纹理")


def test_show_text_and_json(tmp_path):
    model = tmp_path / "m.json"
    assert dtcore("train", *MELON_ARGS, "--out", model).returncode == 0
    d = json.loads(model.read_text(encoding="utf-8"))
    proc = dtcore("show", model, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    nodes = d["nodes"]
    leaves = [n for n in nodes if n["leaf"]]
    assert info["nodes"] == len(nodes) and info["leaves"] == len(leaves)
    assert info["depth"] == max(n["depth"] for n in leaves)
    assert info["nodes"] == 2 * info["leaves"] - 1  # CART trees are binary
    assert info["algorithm"] == "cart" and info["classes"] == ["是", "否"]
    assert [f["name"] for f in info["features"]] == [
        "色泽",
        "根蒂",
        "敲声",
        "纹理",
        "脐部",
        "触感",
        "密度",
        "含糖率",
    ]
    text = dtcore("show", model).stdout
    assert (
        sum(line.rstrip().endswith(("class: 是", "class: 否")) for line in text.splitlines())
        == info["leaves"]
    )
    assert_user_error(dtcore("show", model, "--format", "j48"), "J48")


def test_show_j48_prints_weka_form(tmp_path):
    """A C4.5 model prints as Weka's J48 does: `attr = value: class (N/E)`."""
    model = tmp_path / "m.json"
    args = (DATA / "watermelon_2.0_missing.csv", "--target", "好瓜", "--ignore", "编号", "--algorithm", "c45")
    assert dtcore("train", *args, "--out", model).returncode == 0
    proc = dtcore("show", model, "--format", "j48")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    branch_lines = [ln for ln in lines if ln.startswith("纹理 = ")]
    assert [ln.split(":")[0] for ln in branch_lines] == ["纹理 = 清晰", "纹理 = 稍糊", "纹理 = 模糊"]
    # rows 8 and 10 (纹理 missing) are spread 7/15, 5/15, 3/15 over the branches: fractional N
    assert any("(" in ln and "." in ln.split("(")[1] for ln in branch_lines)


def test_regression_is_inferred_for_a_numeric_target(tmp_path):
    model = tmp_path / "m.json"
    proc = dtcore("train", DATA / "regression_toy5.csv", "--target", "y", "--max-depth", "2", "--out", model)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(model.read_text(encoding="utf-8"))["task"] == "regression"
    out = dtcore("predict", model, DATA / "regression_toy5.csv")
    assert out.stdout.splitlines() == ["prediction", "1", "3", "3", "6", "6"]  # SPEC §10: leaves 1, 3, 6
    assert_user_error(dtcore("predict", model, DATA / "regression_toy5.csv", "--proba"), "--proba")


def test_task_override_and_options(tmp_path):
    model = tmp_path / "m.json"
    proc = dtcore(
        "train",
        DATA / "regression_toy5.csv",
        "--target",
        "y",
        "--task",
        "classification",
        "--criterion",
        "entropy",
        "--option",
        "max_depth=1",
        "--out",
        model,
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(model.read_text(encoding="utf-8"))
    assert d["task"] == "classification" and d["schema"]["classes"] == ["1", "3", "6"]
    assert d["params"]["criterion"] == "entropy" and d["params"]["max_depth"] == 1
    assert d["summary"]["depth"] == 1
    assert_user_error(
        dtcore(
            "train",
            DATA / "regression_toy5.csv",
            "--target",
            "y",
            "--option",
            "no_such_param=3",
            "--out",
            model,
        ),
        "no_such_param",
    )


def test_gbk_file_trains_with_labels_intact(tmp_path):
    p = tmp_path / "melon_gbk.csv"
    p.write_bytes(MELON.read_text(encoding="utf-8").encode("gbk"))
    out = tmp_path / "t.txt"
    proc = dtcore("train", p, "--target", "好瓜", "--ignore", "编号", "--out", out)
    assert proc.returncode == 0, proc.stderr
    utf8 = tmp_path / "u.txt"
    assert dtcore("train", *MELON_ARGS, "--out", utf8).returncode == 0
    assert out.read_text(encoding="utf-8") == utf8.read_text(encoding="utf-8")


def test_missing_graphviz_is_a_clear_error(tmp_path):
    env = dict(os.environ, PATH=str(Path(sys.executable).parent))  # python, but no dot
    proc = dtcore("train", *MELON_ARGS, "--out", tmp_path / "t.svg", env=env)
    assert_user_error(proc, "install graphviz")
    proc = dtcore("train", *MELON_ARGS, "--out", tmp_path / "t.dot", env=env)  # DOT needs no dot
    assert proc.returncode == 0, proc.stderr


def test_splits_at_a_node_agree_with_the_grown_tree(tmp_path):
    model = tmp_path / "m.json"
    assert dtcore("train", *MELON_ARGS, "--out", model).returncode == 0
    nodes = json.loads(model.read_text(encoding="utf-8"))["nodes"]
    inner = [n for n in nodes if not n["leaf"]][1:3]
    for n in inner:
        report, by = _splits(*MELON_ARGS, "--node", n["id"])
        assert report["weighted_n"] == n["weighted_n"]
        assert report["best"] == n["feature"]
    assert_user_error(dtcore("splits", *MELON_ARGS, "--node", len(nodes)), "--node")


def test_c45_splits_at_a_node_follow_the_average_gain_rule(tmp_path):
    args = [
        str(DATA / "watermelon_2.0_missing.csv"),
        "--target",
        "好瓜",
        "--ignore",
        "编号",
        "--algorithm",
        "c45",
        "--option",
        "prune=false",
        "--option",
        "min_cases=1",
    ]
    model = tmp_path / "m.json"
    assert dtcore("train", *args, "--out", model).returncode == 0, "train"
    nodes = json.loads(model.read_text(encoding="utf-8"))["nodes"]
    n = nodes[1]
    # SPEC §10: the two rows missing 纹理 join the 清晰 branch with weight 7/15 each
    assert not n["leaf"] and n["weighted_n"] == pytest.approx(7 + 2 * 7 / 15)
    report, by = _splits(*args, "--node", 1)
    assert report["weighted_n"] == pytest.approx(n["weighted_n"])
    assert report["best"] == n["feature"]
    # the winner is not the largest gain here: the gain-ratio rule decides
    assert max(by.values(), key=lambda r: r["score"] or -1)["feature"] != n["feature"]


def test_weight_column_scales_the_counts(tmp_path):
    p = tmp_path / "w.csv"
    lines = MELON.read_text(encoding="utf-8").splitlines()
    p.write_text(
        "\n".join([lines[0] + ",w"] + [line + ",2.5" for line in lines[1:]]) + "\n", encoding="utf-8"
    )
    plain, weighted = tmp_path / "a.json", tmp_path / "b.json"
    assert dtcore("train", *MELON_ARGS, "--out", plain).returncode == 0
    proc = dtcore("train", p, "--target", "好瓜", "--ignore", "编号", "--weight", "w", "--out", weighted)
    assert proc.returncode == 0, proc.stderr
    a = json.loads(plain.read_text(encoding="utf-8"))
    b = json.loads(weighted.read_text(encoding="utf-8"))
    assert "w" not in [f["name"] for f in b["schema"]["features"]]
    assert [n.get("feature") for n in b["nodes"]] == [n.get("feature") for n in a["nodes"]]
    assert [n["weighted_n"] for n in b["nodes"]] == [2.5 * n["weighted_n"] for n in a["nodes"]]
    report, _ = _splits(str(p), "--target", "好瓜", "--ignore", "编号", "--weight", "w")
    assert report["weighted_n"] == 2.5 * 17


def test_export_converts_a_saved_model(tmp_path):
    model, direct, converted = tmp_path / "m.json", tmp_path / "a.dot", tmp_path / "b.dot"
    assert dtcore("train", *MELON_ARGS, "--out", model).returncode == 0
    assert (
        dtcore("train", *MELON_ARGS, "--show-depth", "1", "--rankdir", "LR", "--out", direct).returncode == 0
    )
    proc = dtcore("export", model, "--show-depth", "1", "--rankdir", "LR", "--out", converted)
    assert proc.returncode == 0, proc.stderr
    assert converted.read_bytes() == direct.read_bytes()
    assert "rankdir=LR" in direct.read_text(encoding="utf-8") and "_more [" in direct.read_text(
        encoding="utf-8"
    )


def test_prune_ebp_keeps_a_cart_models_gini(tmp_path):
    model, pruned = tmp_path / "cart.json", tmp_path / "pruned.json"
    assert dtcore("train", *MELON_ARGS, "--algorithm", "cart", "--out", str(model)).returncode == 0
    done = dtcore("prune", str(model), str(MELON), "--method", "ebp", "--out", str(pruned))
    assert done.returncode == 0, done.stderr
    root = json.loads(pruned.read_text(encoding="utf-8"))["nodes"][0]
    assert abs(root["impurity"] - (1 - (8 / 17) ** 2 - (9 / 17) ** 2)) < 1e-12  # gini, not entropy


# ---------------------------------------------------------------------------------------------
# outputs: never over an input, never half-written, options checked before any work


def test_predict_refuses_to_write_over_its_input(tmp_path):
    data = tmp_path / "data.csv"
    data.write_bytes(MELON.read_bytes())
    model = tmp_path / "m.json"
    assert dtcore("train", str(data), "--target", "好瓜", "--out", str(model)).returncode == 0
    assert_user_error(dtcore("predict", str(model), str(data), "--out", str(data)), "input")
    assert data.read_bytes() == MELON.read_bytes()
    assert_user_error(dtcore("prune", str(model), str(data), "--method", "pep", "--out", str(model)), "input")


def test_a_failed_model_write_leaves_the_old_file(tmp_path):
    from dtcore.cart.estimator import CARTClassifier
    from dtcore.export import save_model

    path = tmp_path / "m.json"
    path.write_text("old", encoding="utf-8")
    est = CARTClassifier(min_impurity_decrease=0.0).fit([[0.0], [1.0]], ["a", "b"])
    est.min_impurity_decrease = float("nan")  # cannot be saved as strict JSON
    with pytest.raises(ValueError):
        save_model(est, path)
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temporary file left


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--method", "ebp", "--z", "nan"], "--z"),
        (["--method", "ebp", "--cf", "0"], "--cf"),
        (["--method", "ebp", "--cf", "1.5"], "--cf"),
    ],
)
def test_prune_checks_its_options_before_writing(tmp_path, args, phrase):
    model, out = tmp_path / "m.json", tmp_path / "out.json"
    assert dtcore("train", *MELON_ARGS, "--out", str(model)).returncode == 0
    proc = dtcore("prune", str(model), str(MELON), *args, "--out", str(out))
    assert proc.returncode == 2 and phrase in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


def test_precision_must_be_positive(tmp_path):
    proc = dtcore("train", *MELON_ARGS, "--precision", "-1", "--out", str(tmp_path / "t.dot"))
    assert proc.returncode == 2 and "--precision" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "t.dot").exists()


def test_splits_cart_list_one_vs_rest_ginis(tmp_path):
    """``splits`` on Li Hang's loan table (CART, gini): every one-vs-rest Gini(D, A=a) next to
    the optimal subset the tree uses."""
    from tests.dtcore.test_explain import LOAN

    p = tmp_path / "loan.csv"
    p.write_text(LOAN, encoding="utf-8")
    report, by = _splits(str(p), "--target", "类别", "--algorithm", "cart")
    ovr = {
        f: {o["category"]: o["split_impurity"] for o in by[f]["one_vs_rest"]} for f in ("年龄", "信贷情况")
    }
    assert ovr["年龄"] == pytest.approx({"青年": 0.44, "中年": 0.48, "老年": 0.44}, abs=0.005)
    assert ovr["信贷情况"] == pytest.approx({"一般": 0.32, "好": 0.47, "非常好": 0.36}, abs=0.005)
    assert by["有自己的房子"]["split_impurity"] == pytest.approx(0.27, abs=0.005)
    assert report["best"] == "有自己的房子"


def test_one_vs_rest_with_missing_and_absent_categories():
    """Missing values stay with the rest; a category absent from the node gets no test."""
    from dtcore.explain.cart import categorical_candidates

    codes = np.array([0, 0, 1, 1, 3, 3, np.nan, np.nan])  # category 2 absent
    y = np.array([0, 1, 1, 1, 0, 0, 1, 0])
    c = categorical_candidates(codes, y, n_categories=4)
    ovr = c["one_vs_rest"]
    assert sorted(ovr[ovr >= 0].tolist()) == [0, 1, 3]
    for k in np.flatnonzero(ovr >= 0):
        mask = c["left_mask"][k]
        v = int(ovr[k])
        # a = v on one side alone, every other present category and the missing values opposite
        assert mask[v] != mask[-1] and all(mask[u] == mask[-1] for u in (0, 1, 3) if u != v)
