"""``python -m ui.commands.report``: the tree (DOT/SVG/PNG, rules) and the gain curves (PNG through Plotly's
Kaleido and the system Chromium), run as users run it, twice with different hash seeds."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from dtcore import export
from tests.snapshot_cases import CASES, SAMPLES, fit_case
from tests.snapshots import assert_image_snapshot
from ui.commands.report import file_stem

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
needs_tools = pytest.mark.skipif(
    shutil.which("dot") is None or not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)),
    reason="needs Graphviz dot and Chromium (make test installs both)",
)

CASE = "watermelon3-cart"
FEATURES = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"]


def report(out_dir, *extra, seed="0"):
    data, flags = CASES[CASE]
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "ui.commands.report",
            str(SAMPLES / data),
            *flags,
            "--out-dir",
            str(out_dir),
            *extra,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=900,  # a hang guard: a report takes well under a minute
    )


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    dirs = []
    for seed in ("0", "777"):
        d = tmp_path_factory.mktemp(f"report{seed}")
        proc = report(d, "--lang", "zh", seed=seed)
        assert proc.returncode == 0, proc.stderr
        dirs.append(d)
    return dirs


@needs_tools
def test_report_writes_tree_and_one_curve_per_feature(two_runs):
    d = two_runs[0]
    assert sorted(p.name for p in d.iterdir()) == ["curves", "rules.txt", "tree.dot", "tree.png", "tree.svg"]
    assert sorted(p.stem for p in (d / "curves").iterdir()) == sorted(FEATURES)
    est = fit_case(CASE)
    dot = export.to_dot(est)
    assert (d / "tree.dot").read_text(encoding="utf-8") == dot
    assert (d / "tree.svg").read_bytes() == export.render(dot, "svg")
    assert (d / "rules.txt").read_text(encoding="utf-8") == export.to_text(est)
    for p in [d / "tree.png", *(d / "curves").iterdir()]:
        with Image.open(p) as im:
            assert im.format == "PNG" and im.width >= 300 and im.height >= 200, p


@needs_tools
def test_report_is_byte_identical_across_processes(two_runs):
    a, b = two_runs
    files = sorted(str(p.relative_to(a)) for p in a.rglob("*") if p.is_file())
    assert files == sorted(str(p.relative_to(b)) for p in b.rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f"{f} differs between two runs"


@needs_tools
def test_report_pictures_match_snapshots(two_runs):
    d = two_runs[0]
    assert_image_snapshot("report", f"{CASE}-tree.png", (d / "tree.png").read_bytes())
    assert_image_snapshot("report", f"{CASE}-curve-密度-zh.png", (d / "curves" / "密度.png").read_bytes())


def test_user_errors_are_one_line(tmp_path):
    proc = report(tmp_path, "--target", "nope", "--no-curves")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("ui.commands.report: error:") and "nope" in proc.stderr


def test_file_stems_are_safe_and_unique():
    taken = set()
    assert file_stem("密度", taken) == "密度"
    assert file_stem("a/b", taken) == "a_b"
    assert file_stem("a\\b", taken) == "a_b-2"
    assert file_stem("..", taken) == "feature"
    assert file_stem("x\ny", taken) == "x_y"
