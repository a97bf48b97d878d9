"""Choosing CART's α: on a validation set, or by k-fold cross-validation (Breiman et al. §3.4).

Candidates are the distinct effective α of the tree's own path (the subtrees it can become).
Cross-validation follows Breiman: grow the tree on every k−1 folds, prune each at the geometric
midpoints β_j = sqrt(α_j·α_{j+1}) of the full tree's path, score on the held-out fold; the
standard error is Breiman's per-row one, sqrt(var(loss)/N) (as rpart's xstd).  The rule picks the
smallest tree with the minimum error, or with the 1-SE rule the smallest tree whose error is
within one standard error of that minimum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from dtcore.progress import report
from dtcore.pruning.ccp import CostComplexityPath, cost_complexity_path, nodes_to_collapse
from dtcore.pruning.losses import is_classifier
from dtcore.pruning.path_losses import path_losses, steps_at
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator
    from dtcore.schema import Schema

#: grow(X, y, w) -> unpruned Tree, on encoded arrays
Grower = Callable[[np.ndarray, np.ndarray, np.ndarray | None], Tree]


@dataclass(frozen=True, eq=False)
class AlphaChoice:
    """The α chosen on validation rows or by cross-validation, with the curve it was read from
    (``to_dict``: its JSON form for the CLI's report)."""

    alpha: float  # the chosen α: prune the tree with it
    alphas: np.ndarray  # candidate α, ascending (smaller trees to the right)
    scored_at: np.ndarray  # the α each candidate was scored at (β midpoints under CV)
    errors: np.ndarray  # validation or cross-validated error per candidate
    ses: np.ndarray  # its standard error
    n_leaves: np.ndarray  # leaves of the tree each candidate gives
    best_index: int  # minimum error
    index: int  # chosen candidate (best_index unless the 1-SE rule moved it)
    rule: str  # "min" or "1-SE"
    source: str  # "validation" or "cv(k)"

    def to_dict(self) -> dict:
        return {
            "alpha": float(self.alpha),
            "alphas": self.alphas.tolist(),
            "scored_at": self.scored_at.tolist(),
            "errors": self.errors.tolist(),
            "ses": self.ses.tolist(),
            "n_leaves": self.n_leaves.tolist(),
            "best_index": int(self.best_index),
            "index": int(self.index),
            "rule": self.rule,
            "source": self.source,
        }


def candidate_alphas(path: CostComplexityPath) -> np.ndarray:
    return np.unique(np.maximum(path.ccp_alphas, 0.0))


def pick(errors: np.ndarray, ses: np.ndarray, one_se: bool) -> tuple[int, int]:
    """(best, chosen): the last (smallest-tree) minimum, then the last within one SE of it."""
    tol = 1e-12 * max(1.0, float(np.max(np.abs(errors))))
    best = int(np.nonzero(errors <= errors.min() + tol)[0][-1])
    if not one_se:
        return best, best
    return best, int(np.nonzero(errors <= errors[best] + ses[best] + tol)[0][-1])


def _leaves_at(tree: Tree, path: CostComplexityPath, alpha: float) -> int:
    steps = nodes_to_collapse(path, alpha).size
    return int(path.n_leaves[steps])


class _LossSums:
    """Σ w·loss, Σ w·loss², Σ w and the row count per candidate, summed over data sets (the
    folds): the weighted mean error and Breiman's SE sqrt(var/N) follow from them."""

    def __init__(self, n_candidates: int) -> None:
        self.wl = np.zeros(n_candidates)
        self.wl2 = np.zeros(n_candidates)
        self.w = np.zeros(n_candidates)
        self.rows = 0

    def add(
        self,
        tree: Tree,
        path: CostComplexityPath,
        at: np.ndarray,
        X: np.ndarray,
        y: np.ndarray,
        w: np.ndarray | None,
    ) -> None:
        """Score ``tree`` pruned at each α of ``at`` on (X, y, w): every subtree at once
        (``path_losses``)."""
        self.rows += y.shape[0]
        wl, wl2, w_sum = path_losses(tree, path, X, y, w, steps_at(path, at))
        self.wl += wl
        self.wl2 += wl2
        self.w += w_sum

    def errors(self) -> tuple[np.ndarray, np.ndarray]:
        mean = self.wl / self.w
        var = np.maximum(self.wl2 / self.w - mean * mean, 0.0)
        return mean, np.sqrt(var / self.rows)


def errors_along_path(
    tree: Tree, path: CostComplexityPath, alphas: ArrayLike, X: ArrayLike, y: ArrayLike
) -> np.ndarray:
    """The error rate (classification) or MSE (regression) on (X, y) of ``tree`` pruned at
    each α, all subtrees scored in one pass (``path_losses``)."""
    sums = _LossSums(np.asarray(alphas).size)
    sums.add(
        tree, path, np.asarray(alphas, dtype=np.float64), np.asarray(X, dtype=np.float64), np.asarray(y), None
    )
    return sums.errors()[0]


def choose_alpha_validation(
    tree: Tree,
    X_valid: ArrayLike,
    y_valid: ArrayLike,
    w_valid: ArrayLike | None = None,
    *,
    one_se: bool = False,
    path: CostComplexityPath | None = None,
) -> AlphaChoice:
    path = cost_complexity_path(tree) if path is None else path
    alphas = candidate_alphas(path)
    sums = _LossSums(alphas.size)
    sums.add(
        tree,
        path,
        alphas,
        np.asarray(X_valid, dtype=np.float64),
        np.asarray(y_valid),
        None if w_valid is None else np.asarray(w_valid, dtype=np.float64),
    )
    errors, ses = sums.errors()
    best, index = pick(errors, ses, one_se)
    return AlphaChoice(
        float(alphas[index]),
        alphas,
        alphas.copy(),
        errors,
        ses,
        np.array([_leaves_at(tree, path, a) for a in alphas]),
        best,
        index,
        "1-SE" if one_se else "min",
        "validation",
    )


#: above this many training rows, work that fits or prunes the tree many times over (k-fold
#: cross-validation, the CF curve's twelve prunings) waits to be asked for in the app: 5-fold CV
#: of ID3, C4.5 and CART on 80 000 rows never ended, 10-fold CCP was 84 % of the Pruning page's CPU
ASKED_ROWS = 20_000


def only_when_asked(n_train: int) -> bool:
    """Whether such repeated work on ``n_train`` training rows runs only when asked (:data:`ASKED_ROWS`)."""
    return n_train > ASKED_ROWS


def fold_ids(y: ArrayLike, k: int, seed: int = 0, stratify: bool = True) -> np.ndarray:
    """Fold of each row: a seeded shuffle, dealt round-robin by class when stratified."""
    y = np.asarray(y)
    n = y.shape[0]
    if not 2 <= k <= n:
        raise ValueError(f"k-fold cross-validation needs 2 ≤ k ≤ number of rows ({n}), got k={k}")
    perm = np.random.default_rng(seed).permutation(n)
    if stratify:
        perm = perm[np.argsort(y[perm], kind="stable")]
    folds = np.empty(n, dtype=np.int64)
    folds[perm] = np.arange(n) % k
    return folds


def choose_alpha_cv(
    grow: Grower,
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike | None = None,
    *,
    k: int = 10,
    one_se: bool = True,
    seed: int = 0,
    tree: Tree | None = None,
) -> AlphaChoice:
    """Breiman's k-fold choice of α for ``tree`` (grown on all of X, y by ``grow`` if not given).

    ``grow`` must return the *unpruned* tree (α = 0) for the rows it is given.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    w = None if w is None else np.asarray(w, dtype=np.float64)
    tree = grow(X, y, w) if tree is None else tree
    path = cost_complexity_path(tree)
    alphas = candidate_alphas(path)
    betas = np.append(np.sqrt(alphas[:-1] * alphas[1:]), alphas[-1])
    folds = fold_ids(y, k, seed, stratify=is_classifier(tree))
    sums = _LossSums(betas.size)
    for f in range(k):
        report("cv", f, k)  # a progress listener learns which fold is growing (dtcore.progress)
        test = folds == f
        fold_tree = grow(X[~test], y[~test], None if w is None else w[~test])
        sums.add(
            fold_tree,
            cost_complexity_path(fold_tree),
            betas,
            X[test],
            y[test],
            None if w is None else w[test],
        )
    errors, ses = sums.errors()
    best, index = pick(errors, ses, one_se)
    return AlphaChoice(
        float(alphas[index]),
        alphas,
        betas,
        errors,
        ses,
        np.array([_leaves_at(tree, path, a) for a in alphas]),
        best,
        index,
        "1-SE" if one_se else "min",
        f"cv({k})",
    )


def estimator_grower(estimator: BaseTreeEstimator, schema: Schema, *, unpruned: bool = False) -> Grower:
    """A Grower from a dtcore estimator: a fresh copy with the same parameters fitted on the
    encoded rows, ``ccp_alpha`` forced to 0 where the estimator has it (the folds must grow the
    whole tree α is read from).

    The fold trees must be grown as the tree being pruned was: ``unpruned=True`` also turns off
    the estimator's own post-pruning (C4.5's ``prune``) for a caller that prunes the tree as grown
    (``unpruned_tree_``, as the app's Pruning page does); without it a C4.5 fold tree is
    EBP-pruned as ``tree_`` was (the CLI prunes ``tree_``). The one home of this rule: the CLI,
    the app and the tests all take their fold trees from here."""
    params = estimator.get_params()
    if "ccp_alpha" in params:
        params["ccp_alpha"] = 0.0
    if unpruned and "prune" in params:
        params["prune"] = False

    def grow(X: np.ndarray, y: np.ndarray, w: np.ndarray | None) -> Tree:
        return type(estimator)(**params).fit_encoded(X, y, schema, w).tree_

    return grow
