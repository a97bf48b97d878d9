"""Pruning runs on the current model for the Pruning page: encoded sets, the prune itself, the α
and CF curves (no Streamlit here, so tests drive it directly; the pictures are ``ui.views.pruning``).

The "before" tree is the tree as grown: C4.5 prunes itself while fitting (``prune=True``), so
its grown tree ``unpruned_tree_`` is what every method starts from; CART and ID3 grow unpruned
trees already. Rows are the Train page's own split (``TrainResult.rows``), so training,
validation and test mean the same rows on every page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from dtcore.base import BaseTreeEstimator
from dtcore.export import impurity_name
from dtcore.progress import report

# the methods, their tasks and native algorithms: dtcore's registry, which the CLI reads too
from dtcore.pruning import METHODS as METHODS
from dtcore.pruning import (
    AlphaChoice,
    PruneReport,
    choose_alpha_cv,
    choose_alpha_validation,
    cost_complexity_path,
    prune,
)
from dtcore.pruning.alpha_selection import Grower, candidate_alphas, errors_along_path, estimator_grower
from dtcore.pruning.ebp import ebp_prune
from dtcore.pruning.methods import CLASSIFICATION_ONLY as CLASSIFICATION_ONLY
from dtcore.pruning.methods import methods_for as methods_for
from dtcore.pruning.methods import natural_method as natural_method
from dtcore.pruning.path_losses import steps_at
from dtcore.pruning.rep import TIE_RULES as TIE_RULES
from dtcore.schema import encode_target, label_of
from dtcore.tree import Tree

from .loading import raw_rows
from .prune_nodes import SubtreeFigures, subtree_figures
from .training import TrainResult

SETS = ("train", "valid", "test")
#: report's data set names (dtcore.pruning.prune) for the app's split names
REPORT_SET = {"train": "train", "valid": "validation", "test": "test"}
#: confidence factors the CF chart samples (C4.5's default 0.25 among them)
CF_GRID = tuple(round(0.01 * k, 2) for k in (1, 2, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50))


# ---------------------------------------------------------------------------------------------
# data


@dataclass
class EncodedSets:
    """(X, y) per split name, encoded against the model's schema (empty splits left out)."""

    sets: dict[str, tuple[np.ndarray, np.ndarray]]

    def get(self, name: str) -> tuple[np.ndarray | None, np.ndarray | None]:
        return self.sets.get(name, (None, None))


def encoded_sets(res: TrainResult, df: pd.DataFrame) -> EncodedSets:
    est = res.estimator
    schema = est.schema_
    X_all = raw_rows(df, res.features)
    y_all = df[res.target].to_numpy(dtype=object)
    out = {}
    for name in SETS:
        idx = res.rows.get(name)
        if idx is None or idx.size == 0:
            continue
        X = est.encode(X_all[idx])
        if schema.is_classifier:
            # a class missing from the training rows cannot be a code: those rows count as errors
            labels = [label_of(v) for v in y_all[idx]]
            known = {c: k for k, c in enumerate(schema.classes or ())}
            y = np.array([known.get(v, -1) for v in labels], dtype=np.int64)
        else:
            y = encode_target(schema, y_all[idx])
        out[name] = (X, y)
    return EncodedSets(out)


def grown_tree(est: BaseTreeEstimator, forced: bool = False) -> Tree:
    """The tree before any post-pruning (C4.5 keeps it as ``unpruned_tree_``). A tree with
    splits forced on the Splits page is taken as it is: its ``unpruned_tree_`` is the old one."""
    tree = None if forced else getattr(est, "unpruned_tree_", None)
    return est.tree_ if tree is None else tree


def grower(est: BaseTreeEstimator) -> Grower:
    """The model's tree re-grown on other rows as the page prunes it: unpruned (for
    cross-validating α; ``dtcore.pruning.estimator_grower`` holds the rule)."""
    return estimator_grower(est, est.schema_, unpruned=True)


# ---------------------------------------------------------------------------------------------
# running a prune


@dataclass
class PruneOutcome:
    before: Tree  # as grown
    after: Tree  # pruned
    report: PruneReport
    #: the figure each removed subtree was judged by, before and after (``prune_nodes``)
    figures: SubtreeFigures | None = None


def ebp_options(est: BaseTreeEstimator) -> dict[str, Any]:
    """C4.5's own z and subtree raising when the model is C4.5, release 8's defaults otherwise."""
    params = est.get_params()
    return {
        "z": params.get("z", "c45"),
        "subtree_raising": bool(params.get("subtree_raising", True)),
        "impurity": impurity_name(est),  # a CART tree keeps its gini
    }


def run_prune(
    res: TrainResult,
    sets: EncodedSets,
    method: str,
    *,
    alpha: float = 0.0,
    cf: float = 0.25,
    on_tie: str = "prune",
    forced: bool = False,
) -> PruneOutcome:
    """Prune the grown tree of ``res`` with ``method``; ValueError when a needed set is missing.
    ``on_tie``: REP's tie rule ("prune", SPEC §8's; "keep", the textbook's figure 4.7)."""
    est = res.estimator
    tree = grown_tree(est, forced)
    kw: dict[str, Any] = {}
    for name in SETS:
        X, y = sets.get(name)
        kw[f"X_{name}"], kw[f"y_{name}"] = X, y
    if method == "ebp":
        kw.update(ebp_options(est))
    pruned, report = prune(tree, method, alpha=float(alpha), cf=float(cf), on_tie=on_tie, **kw)
    return PruneOutcome(tree, pruned, report, subtree_figures(tree, method, report))


# ---------------------------------------------------------------------------------------------
# cost-complexity: α values and curves


def alpha_values(tree: Tree) -> list[float]:
    """The α a slider offers: the distinct effective α of the tree's own path (each gives a
    different subtree; any α in between gives the same tree as the value below it)."""
    return [float(a) for a in candidate_alphas(cost_complexity_path(tree))]


#: an α within this relative distance of a path value is that value (a link carries α to nine
#: significant digits, which may fall just below it)
ALPHA_TOLERANCE = 1e-8


def snap_alpha(alpha: float, values: list[float]) -> float:
    """The largest path value ≤ ``alpha`` (the same pruned tree), the smallest when below all."""
    below = [v for v in values if v <= alpha * (1 + ALPHA_TOLERANCE)]
    return below[-1] if below else values[0]


@dataclass
class AlphaCurves:
    """Error of the path's subtrees: one entry per α of :func:`alpha_values`."""

    alphas: list
    n_leaves: list
    errors: dict  # split name → list of errors (train / valid / test present)
    cv: AlphaChoice | None  # the cross-validated choice, when cross-validated
    valid: AlphaChoice | None  # the choice on the validation rows
    metric: str  # "error_rate" or "mse"


def alpha_curves(
    res: TrainResult,
    sets: EncodedSets,
    cv_folds: int = 0,
    one_se: bool = True,
    seed: int = 0,
    forced: bool = False,
) -> AlphaCurves:
    """Train / validation / test error along the path, the choice on the validation rows, and
    the k-fold CV choice when 2 ≤ k ≤ training rows (both with the 1-SE rule if ``one_se``).
    The folds re-grow the tree with the model's settings (forced splits are not replayed there)."""
    tree = grown_tree(res.estimator, forced)
    path = cost_complexity_path(tree)
    alphas = candidate_alphas(path)
    errors = {}
    for name in SETS:
        X, y = sets.get(name)
        if X is not None and y is not None:
            errors[name] = errors_along_path(tree, path, alphas, X, y).tolist()
    valid = None
    Xv, yv = sets.get("valid")
    if Xv is not None and yv is not None:
        valid = choose_alpha_validation(tree, Xv, yv, one_se=one_se, path=path)
    cv = None
    X, y = sets.get("train")
    if cv_folds >= 2 and X is not None and y is not None and cv_folds <= len(y):
        cv = choose_alpha_cv(
            grower(res.estimator), X, y, k=int(cv_folds), one_se=one_se, seed=seed, tree=tree
        )
    return AlphaCurves(
        [float(a) for a in alphas],
        path.n_leaves[steps_at(path, alphas)].tolist(),
        errors,
        cv,
        valid,
        "error_rate" if tree.n_classes > 0 else "mse",
    )


@dataclass
class CFCurves:
    cfs: list
    nodes: list
    leaves: list
    estimated_errors: list  # C4.5's estimate U_CF summed over the pruned tree's leaves


def cf_curves(
    res: TrainResult, sets: EncodedSets, grid: Sequence[float] = CF_GRID, forced: bool = False
) -> CFCurves:
    """Tree size and C4.5's estimated errors after error-based pruning at each CF of ``grid``."""
    tree = grown_tree(res.estimator, forced)
    X, y = sets.get("train")
    if X is None or y is None:
        raise ValueError("error-based pruning needs the training rows")
    opts = ebp_options(res.estimator)
    nodes, leaves, est_err = [], [], []
    for i, cf in enumerate(grid):
        report("cf", i, len(grid), label=f"{float(cf):g}")  # the bar, and a stop point
        pruned, info = ebp_prune(tree, X, y, cf=float(cf), **opts)
        nodes.append(int(pruned.node_count))
        leaves.append(int(pruned.get_n_leaves()))
        est_err.append(float(info.after["estimated_errors"]))
    return CFCurves([float(c) for c in grid], nodes, leaves, est_err)
