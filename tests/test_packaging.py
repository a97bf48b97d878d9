"""``pip install .`` gives an importable dtcore with numpy as its only dependency and a working
``dtcore`` command, away from the repository (no sys.path help from the checkout)."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # build from a copy: setuptools writes build/ and *.egg-info next to the sources
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "dtcore", src / "dtcore", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (path,) = out.glob("dtcore-*.whl")
    return path


def test_the_wheel_holds_dtcore_only_and_needs_numpy_only(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
        entry = next(z.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"dtcore"}
    for package in ("cli", "c45", "export", "pruning"):
        assert f"dtcore/{package}/__init__.py" in names
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert len(requires) == 1 and requires[0].startswith("Requires-Dist: numpy")
    assert "dtcore = dtcore.cli:main" in entry


def test_installed_command_runs_outside_the_checkout(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    work = tmp_path / "elsewhere"
    work.mkdir()
    imported = subprocess.run(
        [sys.executable, "-c", "import dtcore, sys; print(dtcore.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip().startswith(str(target))
    data = ROOT / "assets" / "samples" / "watermelon_3.0.csv"
    run = subprocess.run(
        [
            str(target / "bin" / "dtcore"),
            "train",
            str(data),
            "--target",
            "好瓜",
            "--algorithm",
            "c45",
            "--out",
            str(work / "m.json"),
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    shown = subprocess.run(
        [str(target / "bin" / "dtcore"), "show", str(work / "m.json"), "--format", "j48"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "纹理 = 清晰" in shown.stdout
