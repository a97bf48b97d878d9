"""Parameters a user interface shows, as typed records (cf. scikit-learn's ``_parameter_constraints``).

Each estimator class lists its own in ``ui_params`` (``dtcore.estimators`` finds the class for an
algorithm name); the app draws one widget per record and the CLI's ``--option``
takes the same names.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("select", "int", "float", "bool")


@dataclass(frozen=True)
class Param:
    """One estimator parameter as a widget: ``kind`` select/int/float/bool.

    ``options``: the choices of a select; ``lo``/``hi``/``step``: a number's range and step.
    ``zero_is_none``: an int widget where 0 means "no limit" (the estimator gets None).
    """

    name: str
    kind: str
    default: object
    options: tuple = ()
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    zero_is_none: bool = False


#: the growth limits CART and ID3 share (scikit-learn's names)
GROWTH_LIMITS = (
    Param("max_depth", "int", 0, lo=0, hi=64, step=1, zero_is_none=True),
    Param("min_samples_split", "int", 2, lo=2, hi=10_000, step=1),
    Param("min_samples_leaf", "int", 1, lo=1, hi=10_000, step=1),
    Param("min_impurity_decrease", "float", 0.0, lo=0.0, hi=10.0, step=0.001),
)
