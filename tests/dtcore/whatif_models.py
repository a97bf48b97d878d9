"""Models on every bundled sample (assets/samples/index.json) for the what-if and export tests:
each classification sample with CART, C4.5 and ID3, each regression sample with CART."""

from __future__ import annotations

import json
from functools import cache

import numpy as np

from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from dtcore.estimators import make_estimator
from tests.datasets import DATA


def samples() -> list[dict]:
    return json.loads((DATA / "index.json").read_text(encoding="utf-8"))["samples"]


@cache
def _cases() -> tuple[tuple[str, str], ...]:
    out = []
    for s in samples():
        task = prepare_training(read_table(DATA / s["file"]), s["target"], ignore=s["ignore"])[-1]
        for algo in ("cart", "c45", "id3") if task == "classification" else ("cart",):
            out.append((s["id"], algo))
    return tuple(out)


def cases() -> list[tuple[str, str]]:
    """(sample, algorithm) for every sample: CART, and C4.5 and ID3 where the task is classes.
    Three parametrizations use it at collection: each sample is read and profiled once, not
    three times."""
    return list(_cases())


@cache
def fitted(sample_id: str, algo: str):
    """(estimator, raw X, encoded X) or None when the algorithm cannot model the sample's task."""
    s = next(s for s in samples() if s["id"] == sample_id)
    table = read_table(DATA / s["file"])
    X, y, feats, kinds, cats, classes, task = prepare_training(table, s["target"], ignore=s["ignore"])
    if task == "regression" and algo != "cart":
        return None
    params = {"max_depth": 6} if algo == "cart" and len(y) > 300 else {}
    est = make_estimator(algo, task, **params)
    est.fit(
        X,
        y,
        feature_names=feats,
        feature_kinds=kinds or None,
        categories=cats or None,
        classes=classes,
        target_name=s["target"],
    )
    return est, X, est.encode(X)


def with_holes(Xe: np.ndarray, seed: int = 0, share: float = 0.3) -> np.ndarray:
    """The encoded rows, and again with a share of their cells made missing (seeded)."""
    rng = np.random.default_rng(seed)
    holes = Xe.copy()
    holes[rng.random(holes.shape) < share] = np.nan
    return np.vstack([Xe, holes])
