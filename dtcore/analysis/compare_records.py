"""The typed records of a comparison: a contender's fit and scores (:class:`Entry`, read by
``dtcore.analysis.compare`` and ``dtcore.analysis.disagreement`` alike, so neither imports the
other's module for it), and the first disagreement (``dtcore.analysis.disagreement``): the
competing tests, their scores under each contender's criterion, the feature table, the
runner-up, the notes of why the contenders chose apart. Each ``to_dict`` is the JSON form the
CLI prints (key order and optional keys as they always were)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from dtcore import explain
from dtcore.base import BaseTreeEstimator
from dtcore.numbers import SCORE_NOISE
from dtcore.tree import SplitTest


@dataclass(frozen=True)
class CvSummary:
    """A contender's k-fold scores on the training rows, their mean and standard deviation
    (None without folds)."""

    scores: list[float]
    mean: float | None
    std: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"scores": self.scores, "mean": self.mean, "std": self.std}


@dataclass(frozen=True)
class Entry:
    """One contender's fit and scores (``scores[split]``: {"accuracy"} or {"rmse", "mae"})."""

    key: str
    label: str
    algorithm: str
    params: dict[str, Any]
    estimator: BaseTreeEstimator
    seconds: float
    scores: dict[str, dict[str, float]]
    nodes: int
    leaves: int
    depth: int
    cv: list[float]
    predictions: dict[str, np.ndarray]

    def cv_summary(self) -> CvSummary:
        cv = np.array(self.cv, dtype=np.float64)
        return CvSummary(
            [float(v) for v in cv],
            float(cv.mean()) if cv.size else None,
            float(cv.std()) if cv.size else None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "algorithm": self.algorithm,
            "params": self.params,
            "scores": self.scores,
            "nodes": self.nodes,
            "leaves": self.leaves,
            "depth": self.depth,
            "fit_seconds": self.seconds,
            "cv": self.cv_summary().to_dict(),
        }


@dataclass(frozen=True)
class CompetingTest:
    """One of the tests the contenders hold at the first disagreement: its feature (index and
    name), each branch's condition, the test, and the contenders that chose it (``by``)."""

    feature: int
    name: str
    labels: list[str]
    test: SplitTest
    by: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "feature": self.feature,
            "name": self.name,
            "labels": self.labels,
            "test": self.test,
            "by": self.by,
        }


@dataclass(frozen=True)
class EntropyScore:
    """A competing test under an entropy criterion (ID3, C4.5): the explorer's gain, C4.5's split
    information, IV, gain ratio, the score the contender ranks by (C4.5: the gain ratio, ID3: the
    gain); ``above_average``: C4.5 only, when the node has an average gain (else None, and absent
    from ``to_dict``); ``possible``: is the test of the kind the contender makes."""

    gain: float | None
    split_info: float | None
    iv: float | None
    gain_ratio: float | None
    score: float | None
    above_average: bool | None
    possible: bool

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        if self.above_average is None:
            del out["above_average"]
        return out


@dataclass(frozen=True)
class ImpurityScore:
    """A competing test under CART's criterion: the impurity decrease (the score), the node's
    impurity and the branches' weighted impurity; ``possible`` as :class:`EntropyScore`."""

    decrease: float | None
    impurity: float | None
    weighted: float | None
    score: float | None
    possible: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


TestScore = EntropyScore | ImpurityScore


@dataclass(frozen=True)
class Id3FeatureScore:
    """A feature's best test in ID3's report at the node."""

    gain: float | None
    iv: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class C45FeatureScore:
    """A feature's best test in C4.5's report at the node."""

    gain: float | None
    gain_ratio: float | None
    split_info: float | None
    above_average: bool | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CartFeatureScore:
    """A feature's best test in CART's report at the node."""

    decrease: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


FeatureScore = Id3FeatureScore | C45FeatureScore | CartFeatureScore


@dataclass(frozen=True)
class FeatureRow:
    """One feature at the first disagreement: its best test's score in each contender's report
    (``scores[key]``; None where the feature is not usable there)."""

    feature: int
    name: str
    scores: dict[str, FeatureScore | None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "feature": self.feature,
            "name": self.name,
            **{k: None if v is None else v.to_dict() for k, v in self.scores.items()},
        }


@dataclass(frozen=True)
class RunnerUp:
    """The best feature after the one a contender's tree tests at the node, and its score in the
    same measure as the chosen test's (``SplitReport.runner_up_to``, ``score_of``)."""

    feature: int
    name: str
    score: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Disagreement:
    """The first node (in level order) where the contenders' tests differ.

    ``path``: the branches from the root, ``[(feature name, branch label), ...]``; ``nodes``:
    key → the node's id in that contender's grown tree, ``final``: key → the node ids of that
    path in its fitted tree (as far as the fitted tree follows it); ``chosen``: key → index into
    ``tests`` or None (the contender makes a leaf: ``leaf_reason[key]``); ``tests``: the
    competing tests; ``scores[t][key]``: test t under contender key's criterion;
    ``average_gain``: C4.5's average gain at the node."""

    depth: int
    path: list[tuple[str, str]]
    n_rows: int
    weight: float
    nodes: dict[str, int]
    final: dict[str, list[int]]
    chosen: dict[str, int | None]
    leaf_reason: dict[str, str | None]
    tests: list[CompetingTest]
    scores: list[dict[str, TestScore]]
    criteria: dict[str, str]
    average_gain: float | None = None
    features: list[FeatureRow] = field(default_factory=list)
    runner_up: dict[str, RunnerUp | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(
            {
                "depth": self.depth,
                "path": [list(p) for p in self.path],
                "n_rows": self.n_rows,
                "weight": self.weight,
                "nodes": self.nodes,
                "final": self.final,
                "chosen": self.chosen,
                "leaf_reason": self.leaf_reason,
                "criteria": self.criteria,
                "average_gain": self.average_gain,
                "tests": [t.to_dict() for t in self.tests],
                "scores": [{k: s.to_dict() for k, s in row.items()} for row in self.scores],
                "features": [f.to_dict() for f in self.features],
                "runner_up": {k: None if r is None else r.to_dict() for k, r in self.runner_up.items()},
            }
        )


# why the contenders chose apart (:func:`notes`): one record per kind, ``kind`` first


@dataclass(frozen=True)
class ChoseNote:
    """Contender ``by`` chose test ``test`` (its ``score_name`` ``score``) over ``other``, the best
    of the competing tests it could have made (or None), and its report's runner-up feature."""

    kind: Literal["chose"] = field(default="chose", init=False)
    by: str
    score_name: str
    test: int
    score: float | None
    other: int | None
    other_score: float | None
    runner_up: RunnerUp | None

    @property
    def tied(self) -> bool:
        """Whether ``other`` scores the same as the chosen test but for the last bits of their
        sums: a tie the builder broke, not a preference (the CLI and the app both say so)."""
        a, b = self.score, self.other_score
        return a is not None and b is not None and abs(a - b) <= SCORE_NOISE * max(1.0, abs(a), abs(b))

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(asdict(self))


@dataclass(frozen=True)
class LeafNote:
    """Contender ``by`` stops here, for ``reason``."""

    kind: Literal["leaf"] = field(default="leaf", init=False)
    by: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(asdict(self))


@dataclass(frozen=True)
class BinaryNote:
    """CART's binary ``test`` where ``other`` has more branches on the same feature."""

    kind: Literal["binary"] = field(default="binary", init=False)
    test: int
    other: int

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(asdict(self))


@dataclass(frozen=True)
class BelowAverageNote:
    """``test``'s gain is below C4.5's average gain at the node: C4.5 does not consider it."""

    kind: Literal["below_average"] = field(default="below_average", init=False)
    test: int
    gain: float | None
    average: float | None

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(asdict(self))


@dataclass(frozen=True)
class PenalisedNote:
    """``test`` has more gain than C4.5's ``chosen`` test but less gain ratio: its split
    information is larger."""

    kind: Literal["penalised"] = field(default="penalised", init=False)
    test: int
    split_info: float | None
    gain_ratio: float | None
    chosen: int
    chosen_split_info: float | None
    chosen_gain_ratio: float | None

    def to_dict(self) -> dict[str, Any]:
        return explain.jsonable(asdict(self))


Note = ChoseNote | LeafNote | BinaryNote | BelowAverageNote | PenalisedNote
