"""The split explorer's decrease for absolute_error and poisson is the criterion's own."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dtcore import criteria
from dtcore.splitting import continuous_candidates

ROOT = Path(__file__).resolve().parents[2]
DIABETES = ROOT / "assets" / "samples" / "diabetes.csv"
OWN = {"absolute_error": criteria.absolute_error, "poisson": criteria.half_poisson_deviance}


def _diabetes() -> tuple[np.ndarray, list[str]]:
    data = np.genfromtxt(DIABETES, delimiter=",", names=True)
    return data, [n for n in data.dtype.names if n != "target"]


@pytest.mark.parametrize("criterion", sorted(OWN))
def test_explorer_decrease_equals_direct_computation(criterion: str) -> None:
    data, features = _diabetes()
    y, f = data["target"], OWN[criterion]
    for name in features:
        x = data[name]
        r = continuous_candidates(x, y, criterion=criterion)
        assert r["impurity"] == pytest.approx(f(y))
        k = int(np.argmax(r["proxy"]))  # the builder's choice
        left = x <= r["threshold"][k]
        direct = f(y) - left.mean() * f(y[left]) - (~left).mean() * f(y[~left])
        assert r["impurity_left"][k] == pytest.approx(f(y[left]))
        assert r["impurity_right"][k] == pytest.approx(f(y[~left]))
        assert r["improvement"][k] == pytest.approx(direct, rel=1e-9, abs=1e-9)
        assert r["improvement"][k] >= 0
        # the proxy ranks the candidates as the true decrease does
        assert r["improvement"][k] == pytest.approx(np.max(r["improvement"]))


@pytest.mark.parametrize("criterion", sorted(OWN))
def test_cli_splits_regression_criteria(criterion: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dtcore", "splits", str(DIABETES), "--target", "target"]
        + ["--algorithm", "cart", "--criterion", criterion],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        encoding="utf-8",
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    data, _ = _diabetes()
    best = next(f for f in report["features"] if f["feature"] == report["best"])
    assert np.isfinite(best["score"]) and best["score"] >= 0
    for rec in report["features"]:
        assert rec["score"] is not None and rec["score"] >= -1e-9
    x, y = data[best["feature"]], data["target"]
    left = x <= best["threshold"]
    f = OWN[criterion]
    assert best["impurity_left"] == pytest.approx(f(y[left]))
    parent = f(y) - best["score"]
    direct = left.mean() * f(y[left]) + (~left).mean() * f(y[~left])
    assert parent == pytest.approx(direct)
