"""``pip install .`` gives an importable dtcore with numpy as its only dependency and a working
``dtcore`` command, away from the repository (no sys.path help from the checkout); the same
distribution carries dtdask, whose packages come with the ``dask`` extra, and declares it as the
``dask`` engine (``dtcore train … --engine dask``)."""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import dtcore

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # build from a copy: setuptools writes build/ and *.egg-info next to the sources
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for package in ("dtcore", "dtdask"):
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (path,) = out.glob("dtcore-*.whl")
    return path


def test_the_wheel_holds_dtcore_and_dtdask_and_needs_numpy_only(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
        entry = next(z.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"dtcore", "dtdask"}
    for package in ("cli", "c45", "export", "pruning"):
        assert f"dtcore/{package}/__init__.py" in names
    assert {"dtdask/__init__.py", "dtdask/cli.py", "dtdask/profiles.py"} <= set(names)
    # the pan/zoom frame and the standalone page's script and style, read as package data
    assets = {
        f"dtcore/export/assets/{n}"
        for n in ("frame.js", "scale.js", "fit.js", "frame.css", "page.js", "page.css")
    }
    assert assets <= set(names)
    requires = [
        line.removeprefix("Requires-Dist: ")
        for line in meta.splitlines()
        if line.startswith("Requires-Dist:")
    ]
    unconditional = [r for r in requires if ";" not in r]
    assert len(unconditional) == 1 and unconditional[0].startswith("numpy")
    extra = {r.split(";")[0].split(">")[0].split("[")[0].strip() for r in requires if ";" in r}
    assert extra == {"dask", "distributed", "pandas", "pyarrow"}
    assert all(r.split(";", 1)[1].strip() == 'extra == "dask"' for r in requires if ";" in r)
    assert "Provides-Extra: dask" in meta
    assert f"\nVersion: {dtcore.__version__}\n" in meta  # pyproject reads dtcore.__version__
    assert "dtcore = dtcore.cli:main" in entry
    assert "[dtcore.engines]" in entry and "dask = dtdask.cli:cmd_train" in entry


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


@pytest.fixture(scope="module")
def scheduler():
    """A local 1-worker cluster (threads, TCP: the installed command reaches it from its process)."""
    from dtdask.cluster import connect

    with connect(n_workers=1, processes=False, protocol="tcp") as client:
        yield client.scheduler.address


def test_installed_command_trains_on_dask_outside_the_checkout(wheel, tmp_path, scheduler):
    import numpy as np
    import pandas as pd

    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    work = tmp_path / "elsewhere"
    (work / "data").mkdir(parents=True)
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": np.round(rng.random(400) * 9), "c": rng.choice(["p", "q"], 400)})
    df["y"] = np.where(df.a + 3 * (df.c == "p") > 5, "yes", "no")
    for i, idx in enumerate(np.array_split(np.arange(len(df)), 2)):
        df.iloc[idx].to_parquet(work / "data" / f"part-{i}.parquet")
    env = dict(os.environ, PYTHONPATH=str(target))
    command = str(target / "bin" / "dtcore")
    run = subprocess.run(
        f"{command} train data/*.parquet --target y --engine dask --scheduler {scheduler} --out m.json",
        shell=True,  # the shell expands the glob, as for a user
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "trained cart on dask (classification)" in run.stderr
    shown = subprocess.run(
        [command, "show", "m.json", "--format", "json"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    info = json.loads(shown.stdout)
    assert info["algorithm"] == "cart" and info["params"]["splitter"] == "hist"
    assert [f["name"] for f in info["features"]] == ["a", "c"] and sorted(info["classes"]) == ["no", "yes"]
    rules = subprocess.run([command, "show", "m.json"], cwd=work, env=env, capture_output=True, text=True)
    assert rules.returncode == 0 and "a <= " in rules.stdout, rules.stderr


def test_without_the_extra_the_engine_says_how_to_install_it(wheel, tmp_path):
    """An install without dtdask's entry point (an older dtcore, or the extra's packages absent)
    gets the install line, not a traceback."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    (entry,) = target.glob("dtcore-*.dist-info/entry_points.txt")
    entry.write_text(entry.read_text().split("[dtcore.engines]")[0])
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "t.parquet").write_bytes(b"")
    run = subprocess.run(
        [
            str(target / "bin" / "dtcore"),
            "train",
            "t.parquet",
            "--target",
            "y",
            "--engine",
            "dask",
            "--out",
            "m.json",
        ],
        cwd=work,
        env=dict(os.environ, PYTHONPATH=str(target)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "dtcore: error: --engine dask needs dtcore's dask extra: pip install 'dtcore[dask]'"
    ]
