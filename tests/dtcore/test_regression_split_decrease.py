"""The split explorer's decrease for absolute_error and poisson is the criterion's own."""

import json
from pathlib import Path

import numpy as np
import pytest

from dtcore import criteria
from dtcore.explain.cart import continuous_candidates
from tests.cli_runner import run_cli

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
    proc = run_cli("splits", DIABETES, "--target", "target", "--algorithm", "cart", "--criterion", criterion)
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


def test_categorical_poisson_candidates_carry_the_half_deviance_of_their_rows() -> None:
    """Every subset candidate of a categorical feature (with a missing category) under poisson:
    both children's half deviance and the true decrease, from the rows themselves."""
    from dtcore.explain.cart import categorical_candidates

    rng = np.random.default_rng(3)
    codes = rng.integers(0, 5, 300).astype(float)
    codes[rng.random(300) < 0.1] = np.nan
    y = rng.poisson(np.where(np.nan_to_num(codes, nan=2) < 2, 2.0, 6.0)).astype(float)
    w = rng.uniform(0.5, 2.0, 300)
    r = categorical_candidates(codes, y, w, n_categories=5, criterion="poisson")
    f = criteria.half_poisson_deviance
    assert r["impurity"] == pytest.approx(f(y, w))
    cat = np.where(np.isnan(codes), 5, np.nan_to_num(codes)).astype(int)
    assert len(r["proxy"]) > 3
    for k in range(len(r["proxy"])):
        left = r["left_mask"][k][cat]
        wl, wr = w[left].sum(), w[~left].sum()
        assert r["impurity_left"][k] == pytest.approx(f(y[left], w[left]))
        assert r["impurity_right"][k] == pytest.approx(f(y[~left], w[~left]))
        direct = f(y, w) - (wl * f(y[left], w[left]) + wr * f(y[~left], w[~left])) / w.sum()
        assert r["improvement"][k] == pytest.approx(direct, rel=1e-9, abs=1e-12)
    best = int(np.argmax(np.where(r["eligible"], r["proxy"], -np.inf)))
    assert r["improvement"][best] == pytest.approx(np.max(r["improvement"][r["eligible"]]))


def test_cli_splits_with_poisson_on_a_categorical_feature_prints_finite_numbers(tmp_path) -> None:
    rng = np.random.default_rng(0)
    rows = [f"{'abcd'[i % 4]},{rng.normal():.3f},{rng.poisson(3 if i % 4 < 2 else 7)}" for i in range(80)]
    path = tmp_path / "counts.csv"
    path.write_text("c,x,y\n" + "\n".join(rows) + "\n")
    cmd = ["splits", path, "--target", "y"]
    proc = run_cli(*cmd, "--algorithm", "cart", "--criterion", "poisson", "--task", "regression")
    assert proc.returncode == 0, proc.stderr
    c = next(f for f in json.loads(proc.stdout)["features"] if f["feature"] == "c")
    assert (
        c["score"] > 0 and np.isfinite([c["impurity_left"], c["impurity_right"], c["split_impurity"]]).all()
    )
