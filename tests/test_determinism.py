"""Determinism: the same data and settings give byte-identical JSON, DOT, text rules, J48 text,
server-rendered SVG/PNG and Plotly figure JSON, within one process and across processes with
different hash seeds (set/dict ordering, ``hash()`` of strings) — the property that makes the
pictures usable for screenshot regression tests.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dtcore import export
from dtcore.export.j48 import to_j48_text
from tests.snapshot_cases import CASES, RAW_SUFFIXES, fit_case, gain_figures, pruning_figures, train_argv

ROOT = Path(__file__).resolve().parents[1]
HASH_SEEDS = ("0", "4242")
needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz dot not installed (make test installs it)"
)


def outputs(est) -> dict[str, bytes]:
    out = {
        ".json": export.dumps_model(est).encode(),
        ".dot": export.to_dot(est).encode(),
        ".txt": export.to_text(est).encode(),
    }
    if est.algorithm == "c45":
        out[".j48"] = to_j48_text(est).encode()
    if shutil.which("dot"):
        out[".svg"] = export.render(export.to_dot(est), "svg")
        out[".png"] = export.render(export.to_dot(est), "png")
    return out


def run(args, seed: str, timeout=900):  # a hang guard: each run takes seconds
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-3000:]
    return proc


@pytest.mark.parametrize("case", sorted(CASES))
def test_two_fits_give_identical_bytes(case):
    first, second = outputs(fit_case(case)), outputs(fit_case(case))
    assert first.keys() == second.keys()
    for suffix in first:
        assert first[suffix] == second[suffix], f"{case}{suffix} differs between two fits"


def test_figures_identical_within_a_process():
    a, b = gain_figures("watermelon3-c45"), gain_figures("watermelon3-c45")
    assert list(a) == list(b)
    for name in a:
        assert a[name].to_json() == b[name].to_json(), name
    charts, again = pruning_figures("en"), pruning_figures("en")  # static SVG text
    assert charts == again and all(svg.startswith("<svg") for svg in charts.values())


@needs_dot
def test_outputs_identical_across_processes(tmp_path):
    """Every case through the CLI's code and every figure, in two fresh processes with different
    hash seeds: the files are byte-identical to each other and to this process's outputs."""
    dirs = []
    for seed in HASH_SEEDS:
        d = tmp_path / f"seed{seed}"
        run(["-m", "tests.snapshot_cases", str(d)], seed)
        dirs.append(d)
    names = sorted(p.name for p in dirs[0].iterdir())
    assert names == sorted(p.name for p in dirs[1].iterdir())
    assert len(names) == len(CASES) * len(RAW_SUFFIXES) + sum(
        1 for n in names if n.endswith((".plotly.json", ".chart.svg"))
    )
    for n in names:
        assert (dirs[0] / n).read_bytes() == (dirs[1] / n).read_bytes(), f"{n} differs between processes"
    for case in CASES:
        here = outputs(fit_case(case))
        for suffix in RAW_SUFFIXES:
            assert (dirs[0] / f"{case}{suffix}").read_bytes() == here[suffix], (
                f"{case}{suffix}: CLI ≠ in-process"
            )


@needs_dot
@pytest.mark.parametrize("suffix", [".json", ".svg"])
def test_dtcore_cli_entry_point_across_hash_seeds(tmp_path, suffix):
    """The real ``python -m dtcore train`` twice, different hash seeds, same bytes."""
    files = []
    for seed in HASH_SEEDS:
        out = tmp_path / f"{seed}{suffix}"
        run(["-m", "dtcore", *train_argv("watermelon3-c45", str(out))], seed)
        files.append(out.read_bytes())
    assert files[0] == files[1]
    assert files[0] == outputs(fit_case("watermelon3-c45"))[suffix]
