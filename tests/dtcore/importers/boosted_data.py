"""Small data sets for the boosted-tree importers: numbers with NaN, and a frame with a
categorical column holding missing values."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris


def with_nans(X, every=9, seed=0):
    X = np.array(X, dtype=np.float64)
    X[np.random.default_rng(seed).random(X.shape) < 1 / every] = np.nan
    return X


def iris():
    X, y = load_iris(return_X_y=True)
    return with_nans(X), y


def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return with_nans(X[:, :10], every=12), y


def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return with_nans(X, every=15), y


def categorical_frame(n=400, seed=0):
    """Columns ``a`` (continuous, NaN) and ``c`` (categorical, NaN); y depends on both."""
    rng = np.random.default_rng(seed)
    c = rng.choice(["v", "w", "x", "y", "z"], n).astype(object)
    c[rng.random(n) < 0.1] = np.nan
    df = pd.DataFrame({"a": rng.normal(size=n), "c": pd.Categorical(c, categories=["v", "w", "x", "y", "z"])})
    df.loc[rng.random(n) < 0.12, "a"] = np.nan
    y = ((df["a"].fillna(0) > 0).to_numpy() ^ df["c"].isin(["x", "z"]).to_numpy()).astype(int)
    return df, y
