"""One entry point for every post-pruning method: ``prune(tree, method, ...) -> (Tree, report)``.

The original tree is never modified.  Data arrays are the encoded ones (``dtcore.schema``):
X float64, y class codes or regression values, w optional sample weights.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from dtcore.pruning.alpha_selection import Grower, choose_alpha_cv, choose_alpha_validation
from dtcore.pruning.ccp import cost_complexity_path, nodes_to_collapse
from dtcore.pruning.collapse import collapse
from dtcore.pruning.ebp import EBPReport, ebp_prune
from dtcore.pruning.pep import pep_nodes
from dtcore.pruning.rep import check_tie_rule, rep_decisions, topmost_pruned
from dtcore.pruning.report import PruneReport, make_report
from dtcore.tree import Tree

METHODS = ("rep", "pep", "ebp", "ccp")


def prune(
    tree: Tree,
    method: str,
    *,
    X_train: ArrayLike | None = None,
    y_train: ArrayLike | None = None,
    w_train: ArrayLike | None = None,
    X_valid: ArrayLike | None = None,
    y_valid: ArrayLike | None = None,
    w_valid: ArrayLike | None = None,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
    w_test: ArrayLike | None = None,
    alpha: float | None = None,
    cv: int | None = None,
    one_se: bool = False,
    grow: Grower | None = None,
    seed: int = 0,
    cf: float = 0.25,
    z: float | str | None = None,
    subtree_raising: bool = True,
    impurity: str = "entropy",
    on_tie: str = "prune",
) -> tuple[Tree, PruneReport]:
    """Prune a copy of ``tree``.

    - ``rep``: needs the validation set; ``on_tie`` is its tie rule ("prune": SPEC §8's Occam's
      razor; "keep": Zhou's figure 4.7, see ``dtcore.pruning.rep``).
    - ``pep``: uses the training counts stored in the tree (classification only).
    - ``ebp``: C4.5's error-based pruning (``dtcore.pruning.ebp.ebp_prune``) with ``cf``, ``z`` ("c45"
      by default, "normal" for Weka's, or a number) and ``subtree_raising``; needs the training
      set: raised branches are re-fitted to it and the pruned tree's counts recomputed from it,
      its node impurity with ``impurity`` (the tree's own criterion: "entropy" or "gini").
    - ``ccp``: ``alpha`` if given; else α chosen by ``cv``-fold cross-validation (needs the
      training set and ``grow``) or on the validation set; ``one_se`` applies the 1-SE rule.
    """
    method = method.lower()
    datasets = {
        "train": (X_train, y_train, w_train),
        "validation": (X_valid, y_valid, w_valid),
        "test": (X_test, y_test, w_test),
    }
    kept: ArrayLike  # an array from ``collapse``, a list from EBP
    raised: Iterable[dict]
    events: list | None
    raised, choice, events, decisions = (), None, None, None
    if method == "rep":
        check_tie_rule(on_tie)
        X_valid, y_valid = _require(
            X_valid, y_valid, "reduced-error pruning needs a validation set (X_valid, y_valid)"
        )
        params: dict[str, Any] = {"on_tie": on_tie}
        decisions = rep_decisions(tree, X_valid, y_valid, w_valid, on_tie)
        pruned, kept = collapse(tree, topmost_pruned(tree, decisions))
    elif method == "pep":
        params = {}
        pruned, kept = collapse(tree, pep_nodes(tree))
    elif method == "ebp":
        X_train, y_train = _require(
            X_train, y_train, "error-based pruning needs the training set (X_train, y_train)"
        )
        pruned, info = _ebp(tree, X_train, y_train, w_train, cf, z, subtree_raising, impurity)
        # z as used (release 8's table value unless a number or "normal" was asked for)
        params = {"cf": cf, "z": info.z, "subtree_raising": subtree_raising}
        kept, raised, events = info.kept, info.raised, info.events
    elif method == "ccp":
        path = cost_complexity_path(tree)
        if alpha is None and cv is not None:
            X_train, y_train = _require(
                X_train, y_train, "choosing α by cross-validation needs the training set"
            )
            if grow is None:
                raise ValueError("choosing α by cross-validation re-grows trees: pass grow(X, y, w)")
            c = choose_alpha_cv(grow, X_train, y_train, w_train, k=cv, one_se=one_se, seed=seed, tree=tree)
            alpha, choice = c.alpha, c.to_dict()
        elif alpha is None:
            X_valid, y_valid = _require(
                X_valid,
                y_valid,
                "cost-complexity pruning needs alpha, cv=k "
                "with the training set, or a validation set to choose α on",
            )
            c = choose_alpha_validation(tree, X_valid, y_valid, w_valid, one_se=one_se, path=path)
            alpha, choice = c.alpha, c.to_dict()
        params = {"alpha": float(alpha), "cv": cv, "one_se": one_se}
        pruned, kept = collapse(tree, nodes_to_collapse(path, float(alpha)))
    else:
        raise ValueError(f"unknown pruning method {method!r}; choose one of {METHODS}")
    report = make_report(
        method,
        params,
        tree,
        pruned,
        kept,
        datasets=datasets,
        raised=raised,
        alpha_choice=choice,
        events=events,
        decisions=decisions,
    )
    return pruned, report


def _require(X: ArrayLike | None, y: ArrayLike | None, message: str) -> tuple[ArrayLike, ArrayLike]:
    """(X, y), both given, else ValueError(message)."""
    if X is None or y is None:
        raise ValueError(message)
    return X, y


def _ebp(
    tree: Tree,
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike | None,
    cf: float,
    z: float | str | None,
    subtree_raising: bool,
    impurity: str,
) -> tuple[Tree, EBPReport]:
    """C4.5's own pruner (one implementation, shared with C4.5's default)."""
    kwargs: dict[str, Any] = {"cf": cf, "subtree_raising": subtree_raising, "impurity": impurity}
    if z is not None:
        kwargs["z"] = z
    pruned, info = ebp_prune(tree, np.asarray(X, dtype=np.float64), np.asarray(y), w, **kwargs)
    return pruned, info
