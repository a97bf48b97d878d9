"""The split explorer's typed records (a report, its per-feature entries, candidate arrays; the
worked arithmetic's records live with it in ``arithmetic``) and :func:`jsonable`.

Each record's ``to_dict`` gives the plain dict the explorer produced before it had records: the
same keys in the same order, a key that a kind of entry never held left out (a field holding
None, unless the key was always there), nested records as dicts. So
``jsonable(report.to_dict())`` (or ``jsonable(report)``) is the JSON the CLI and tests know.

Tests are :class:`dtcore.routing.SplitTest` records (what ``dtcore.analysis.forcing`` grafts and
the app keeps in its session state); their ``to_dict`` is the plain dict the JSON and the app's
URL hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, ClassVar

import numpy as np

from dtcore.routing import SplitTest


class Record:
    """``to_dict`` in a key order that depends on the kind of record (``_order``); fields in
    ``_ALWAYS`` are written even when None, the others only when set."""

    _ALWAYS: ClassVar[frozenset[str]] = frozenset()

    def _order(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in self._order():
            value = getattr(self, key)
            if value is None and key not in self._ALWAYS:
                continue
            out[key] = _plain(value)
        return out


def _plain(value: Any) -> Any:
    """Nested records → dicts (lists of records → lists of dicts); everything else as is."""
    if isinstance(value, (Record, SplitTest)):
        return value.to_dict()
    if isinstance(value, list) and value and isinstance(value[0], Record):
        return [_plain(v) for v in value]
    return value


# =============================================================================================
# candidates and features

_CART_CANDIDATES = (
    "score",
    "proxy",
    "improvement",
    "friedman",
    "impurity_left",
    "impurity_right",
    "weight_left",
    "weight_right",
    "n_left",
    "n_right",
    "eligible",
    "left_mask",
    "one_vs_rest",
    "split_impurity",
    "threshold",
    "missing_left",
    "variant",
)
_CUT_CANDIDATES = (
    "threshold",
    "lo",
    "hi",
    "gain",
    "score",
    "gain_ratio",
    "split_info",
    "eligible",
    "weight_left",
    "weight_right",
)
_MULTIWAY_CANDIDATES = ("score", "gain", "gain_ratio", "eligible")


@dataclass(kw_only=True)
class Candidates(Record):
    """Every candidate test of one feature at a node, as parallel arrays over the candidates.

    ``score`` is what the explorer charts (gain, or CART's local impurity decrease), ``eligible``
    whether the builder may pick it. Entropy-family cuts add ``threshold`` (midpoint), ``lo``,
    ``hi``, ``gain``, ``gain_ratio``, ``split_info`` and the known weights per side; a multiway
    test is one candidate (``gain``, ``gain_ratio``); CART adds ``proxy`` (what its builder
    maximises), ``improvement``, child impurities, weights and row counts, and ``left_mask``
    (subsets) or ``threshold``/``missing_left``/``variant`` (cuts); friedman_mse adds
    ``friedman``, Friedman's improvement n_L·n_R/n·(mean_L − mean_R)².  CART subsets add
    ``one_vs_rest`` (category code v when the test is ``a = v`` versus ``a ≠ v``, else −1; those
    the builder's subset search does not scan follow its candidates with ``eligible`` False) and ``split_impurity``
    (Σ_v |D^v|/|D|·I(D^v), the textbook's Gini(D, a)).
    """

    score: np.ndarray
    eligible: np.ndarray | None = None
    threshold: np.ndarray | None = None
    lo: np.ndarray | None = None
    hi: np.ndarray | None = None
    gain: np.ndarray | None = None
    gain_ratio: np.ndarray | None = None
    split_info: np.ndarray | None = None
    weight_left: np.ndarray | None = None
    weight_right: np.ndarray | None = None
    proxy: np.ndarray | None = None
    improvement: np.ndarray | None = None
    impurity_left: np.ndarray | None = None
    impurity_right: np.ndarray | None = None
    n_left: np.ndarray | None = None
    n_right: np.ndarray | None = None
    left_mask: np.ndarray | None = None
    missing_left: np.ndarray | None = None
    variant: np.ndarray | None = None
    friedman: np.ndarray | None = None
    one_vs_rest: np.ndarray | None = None
    split_impurity: np.ndarray | None = None

    def _order(self) -> tuple[str, ...]:
        if self.proxy is not None:
            return _CART_CANDIDATES
        if self.lo is not None:
            return _CUT_CANDIDATES
        return _MULTIWAY_CANDIDATES


_SKIPPED_FEATURE = ("mode", "usable", "reason", "detail", "best", "feature", "name", "kind")
_CUT_FEATURE = (
    "mode",
    "known_share",
    "min_split",
    "n_candidates",
    "candidates",
    "mdl_penalty",
    "best",
    "usable",
    "reason",
    "raw_gain",
    "gain",
    "split_info",
    "gain_ratio",
    "midpoint",
    "test",
    "feature",
    "name",
    "kind",
    "above_average",
    "in_average",
)
_MULTIWAY_FEATURE = (
    "mode",
    "known_share",
    "branch_counts",
    "unknown_counts",
    "gain",
    "raw_gain",
    "split_info",
    "iv",
    "gain_ratio",
    "best",
    "candidates",
    "test",
    "usable",
    "reason",
    "feature",
    "name",
    "kind",
    "above_average",
    "in_average",
)
_CART_FEATURE = (
    "mode",
    "candidates",
    "score_name",
    "impurity",
    "best",
    "usable",
    "reason",
    "proxy",
    "gain",
    "improvement",
    "friedman",
    "test",
    "feature",
    "name",
    "kind",
)


@dataclass(kw_only=True)
class FeatureSplits(Record):
    """One feature at a node: its candidates, the best one and that test's scores.

    ``mode``: "threshold" (binary cut), "subset" (CART categorical), "multiway" (a branch per
    category) or "intervals" (ID3's bins). ``usable``: the builder may choose it; else ``reason``
    ("used", "no_cut", "no_gain", "mdl", "min_cases", "min_leaf", "unsupported" with
    ``detail``). ``best``: candidate index of the best test, ``test`` that test.

    Entropy family: ``gain`` (ρ-weighted, after C4.5's MDL penalty), ``raw_gain`` (before it),
    ``split_info``, ``gain_ratio``, ``known_share`` ρ; cuts add ``min_split``, ``n_candidates``,
    ``mdl_penalty``, ``midpoint``; multiway tests ``iv``, ``branch_counts``, ``unknown_counts``.
    C4.5's average-gain rule marks usable features ``above_average`` / ``in_average``. CART:
    ``score_name``, ``impurity`` (the node's), ``proxy``, ``gain`` (local impurity decrease),
    ``improvement`` (weighted, scikit-learn's scale; friedman_mse too), ``friedman`` (friedman_mse:
    Friedman's score of the best test).
    """

    feature: int
    name: str
    kind: str
    mode: str
    usable: bool = False
    reason: str | None = None
    best: int | None = None
    detail: str | None = None
    candidates: Candidates | None = None
    test: SplitTest | None = None
    known_share: float | None = None
    min_split: float | None = None
    n_candidates: int | None = None
    mdl_penalty: float | None = None
    raw_gain: float | None = None
    gain: float | None = None
    split_info: float | None = None
    gain_ratio: float | None = None
    iv: float | None = None
    midpoint: float | None = None
    branch_counts: np.ndarray | None = None
    unknown_counts: np.ndarray | None = None
    score_name: str | None = None
    impurity: float | None = None
    proxy: float | None = None
    improvement: float | None = None
    friedman: float | None = None
    above_average: bool | None = None
    in_average: bool | None = None

    _ALWAYS: ClassVar[frozenset[str]] = frozenset(
        ("mode", "usable", "reason", "best", "feature", "name", "kind")
    )

    def _order(self) -> tuple[str, ...]:
        if self.candidates is None:
            return _SKIPPED_FEATURE
        if self.score_name is not None:
            return _CART_FEATURE
        if self.branch_counts is not None:
            return _MULTIWAY_FEATURE
        return _CUT_FEATURE


# =============================================================================================
# the report


@dataclass(kw_only=True)
class Selection(Record):
    """How the choice between features was made: C4.5's average gain (gain-ratio criterion)."""

    average_gain: float | None = None


@dataclass(kw_only=True)
class SplitReport(Record):
    """Every feature's candidate tests at one node with the builder's scores (``split_report``).

    ``features[j]``: feature j's :class:`FeatureSplits`; ``chosen`` / ``runner_up``: feature
    indices (None: none); ``ranking``: usable features in the algorithm's order; ``leaf_reason``:
    why the builder would stop here (None if it splits); ``tree_test``: the test the tree holds
    at the node (None at a leaf or without a tree). Classification: ``class_counts`` and
    ``classes``; regression: ``mean``.
    """

    node: int
    algorithm: str
    criterion: str
    score_name: str
    weighted_n: float
    n_samples: int
    impurity: float
    features: list[FeatureSplits]
    chosen: int | None
    runner_up: int | None
    ranking: list[int]
    leaf_reason: str | None
    selection: Selection
    depth: int
    tree_test: SplitTest | None
    class_counts: np.ndarray | None = None
    classes: list | None = None
    mean: float | None = None

    _ALWAYS: ClassVar[frozenset[str]] = frozenset(
        (
            "node",
            "algorithm",
            "criterion",
            "score_name",
            "weighted_n",
            "n_samples",
            "impurity",
            "features",
            "chosen",
            "runner_up",
            "ranking",
            "leaf_reason",
            "selection",
            "depth",
            "tree_test",
        )
    )

    def _order(self) -> tuple[str, ...]:
        return _REPORT_ORDER

    def score_of(self, feature: int) -> float | None:
        """Feature ``feature``'s best test scored as ``score_name`` names it: the information gain,
        the gain ratio, or CART's impurity decrease at this node (``gain``; not ``improvement``,
        scikit-learn's scale weighted by the node's share of the rows). The one home of this
        choice for every caption that prints a feature's score beside its name."""
        f = self.features[feature]
        return f.gain_ratio if self.score_name == "gain_ratio" else f.gain

    def runner_up_to(self, feature: int | None) -> int | None:
        """The best-ranked usable feature other than ``feature``, the one the tree tests here:
        ``runner_up`` unless the builder took another feature than ``chosen`` (an exact tie that
        the last bits of its running sums broke the other way)."""
        return next((j for j in self.ranking if j != feature), None)


_REPORT_ORDER = (
    "node",
    "algorithm",
    "criterion",
    "score_name",
    "weighted_n",
    "n_samples",
    "impurity",
    "features",
    "chosen",
    "runner_up",
    "ranking",
    "leaf_reason",
    "selection",
    "depth",
    "tree_test",
    "class_counts",
    "classes",
    "mean",
)


@dataclass(kw_only=True)
class CutGains(Record):
    """The gain of every cut of one continuous feature at a node (``cut_gains``): arrays over the
    sorted positions that separate distinct known values, plus the known weight K, C4.5's
    MinSplit and the number of eligible cuts (what the MDL penalty counts)."""

    pos: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    midpoint: np.ndarray
    gain: np.ndarray
    eligible: np.ndarray
    weight_left: np.ndarray
    weight_right: np.ndarray
    known_weight: float
    min_split: float
    n_candidates: int


# =============================================================================================
# JSON


def jsonable(obj: Any) -> Any:
    """Records → their ``to_dict``; numpy arrays and scalars → lists and numbers; non-finite
    floats → None."""
    if isinstance(obj, (Record, SplitTest)) and is_dataclass(obj):
        return jsonable(obj.to_dict())
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        x = float(obj)
        return x if math.isfinite(x) else None
    return obj
