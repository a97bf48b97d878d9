"""Post-pruning behind one interface (SPEC §8): REP, PEP, C4.5's EBP and CART's CCP.

``prune(tree, method, ...)`` returns ``(pruned_tree, PruneReport)`` and leaves the tree as it was;
``cost_complexity_path`` and ``prune_to_alpha`` are the CCP pieces CART's ``ccp_alpha`` uses.
"""

from __future__ import annotations

from dtcore.pruning.alpha_selection import (
    AlphaChoice,
    choose_alpha_cv,
    choose_alpha_validation,
    estimator_grower,
)
from dtcore.pruning.ccp import CostComplexityPath, cost_complexity_path, prune_to_alpha
from dtcore.pruning.collapse import collapse
from dtcore.pruning.interface import METHODS, prune
from dtcore.pruning.report import PruneReport

__all__ = [
    "AlphaChoice",
    "CostComplexityPath",
    "METHODS",
    "PruneReport",
    "choose_alpha_cv",
    "choose_alpha_validation",
    "collapse",
    "cost_complexity_path",
    "estimator_grower",
    "prune",
    "prune_to_alpha",
]
