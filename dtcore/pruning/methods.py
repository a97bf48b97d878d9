"""The pruning methods as data: which tasks each one handles and which algorithm it is native to.

The command line (``prune --method``) and the app's Pruning page both read this table, so a
method added here shows up in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtcore.pruning.interface import METHODS

CLASSIFICATION, REGRESSION = "classification", "regression"


@dataclass(frozen=True)
class PruningMethod:
    name: str
    tasks: tuple[str, ...]  # the tasks it can prune
    native_to: tuple[str, ...] = ()  # the algorithms whose authors prune this way
    summary: str = ""


#: method name → its record, in the order menus list them (the order of ``interface.METHODS``)
PRUNING_METHODS: dict[str, PruningMethod] = {
    m.name: m
    for m in (
        PruningMethod("rep", (CLASSIFICATION, REGRESSION), (), "reduced-error pruning on a validation set"),
        PruningMethod("pep", (CLASSIFICATION,), ("id3",), "pessimistic error pruning (Quinlan 1987)"),
        PruningMethod("ebp", (CLASSIFICATION,), ("c45",), "C4.5's error-based pruning"),
        PruningMethod("ccp", (CLASSIFICATION, REGRESSION), ("cart",), "CART's cost-complexity pruning"),
    )
}
assert tuple(PRUNING_METHODS) == METHODS

#: PEP and EBP count misclassifications: classification trees only
CLASSIFICATION_ONLY = tuple(m.name for m in PRUNING_METHODS.values() if REGRESSION not in m.tasks)


def methods_for(task: str) -> tuple[str, ...]:
    """The methods that can prune a tree of this task, in menu order."""
    return tuple(m.name for m in PRUNING_METHODS.values() if task in m.tasks)


def natural_method(algorithm: str, task: str) -> str:
    """The method an algorithm's authors use: EBP for C4.5, CCP for CART (and regression);
    PEP for the rest."""
    if task != CLASSIFICATION:
        return "ccp"
    for m in PRUNING_METHODS.values():
        if algorithm in m.native_to and task in m.tasks:
            return m.name
    return "pep"
