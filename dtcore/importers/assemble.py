"""What every importer shares: a source tree as a list of :class:`SourceNode` records (each
node's test as dtcore's own ``SplitTest``), built into a pre-order ``Tree`` by the one
``TreeAssembler``, then into a fitted CART estimator with its schema and ``ModelOrigin``; and the
float64 cut that routes exactly as a source's float32 comparison does."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dtcore.base import BaseTreeEstimator
from dtcore.cart import CARTClassifier, CARTRegressor
from dtcore.export.model_json import save_model
from dtcore.export.origin import HESSIAN, RAW_SCORE, ModelOrigin, NoteClause
from dtcore.export.tree_check import check_tree
from dtcore.routing import SplitTest
from dtcore.schema import CATEGORICAL, Feature, Schema
from dtcore.tree import Tree, TreeAssembler


@dataclass(frozen=True)
class SourceNode:
    """One node of a source tree: ``value`` (class counts, or the leaf's one value), the training
    weight and rows reaching it (0 rows where the source keeps no count), ``impurity`` (0 where
    the source keeps none), and for a test its ``SplitTest`` and its children's positions in the
    node list, in branch order."""

    value: tuple[float, ...]
    weighted_n: float
    n_samples: int = 0
    impurity: float = 0.0
    test: SplitTest | None = None
    children: tuple[int, ...] = ()


def build_tree(nodes: Sequence[SourceNode], n_classes: int, root: int = 0) -> Tree:
    """The nodes reachable from ``root`` as a checked pre-order Tree; a child that is not in the
    list, or a node reached twice (a cycle in a damaged file), is refused with a ValueError."""
    if not nodes:
        raise ValueError("the source tree has no nodes")
    width = len(nodes[root].value)
    asm = TreeAssembler(n_outputs=width, n_classes=n_classes)
    seen: set[int] = set()
    stack = [(root, -1)]
    while stack:
        i, parent = stack.pop()
        if not 0 <= i < len(nodes):
            raise ValueError(f"the source tree names node {i}, which it does not hold")
        if i in seen:
            raise ValueError(f"the source tree reaches node {i} twice: not a tree")
        seen.add(i)
        node = nodes[i]
        if len(node.value) != width:
            raise ValueError(f"node {i} holds {len(node.value)} values where the root holds {width}")
        me = asm.add_node(parent, node.value, node.weighted_n, node.n_samples, node.impurity)
        if node.test is not None:
            t = node.test
            asm.set_split(
                me, t.feature, cuts=t.cuts, cat_branch=t.cat_branch, missing_branch=t.missing_branch
            )
            # children are added in branch order: pushed in reverse, the first is taken first
            stack.extend((c, me) for c in reversed(node.children))
    tree = asm.build()
    check_tree(tree)
    return tree


class ImportedClassifier(CARTClassifier):
    """A ``CARTClassifier`` holding a tree read from another library: ``save(path)`` writes it as
    a dtcore model file (its ``origin`` kept); the file loads back as this class through
    ``dtcore.load_model``, as a plain ``CARTClassifier`` through ``dtcore.export.load_model``."""

    def save(self, path: str | Path) -> None:
        save_model(self, path)


class ImportedRegressor(CARTRegressor):
    """A ``CARTRegressor`` holding a tree read from another library (a mean per leaf, or a
    boosted tree's raw score); ``save(path)`` as :class:`ImportedClassifier`."""

    def save(self, path: str | Path) -> None:
        save_model(self, path)


def imported_class(task: str) -> type[BaseTreeEstimator]:
    return ImportedClassifier if task == "classification" else ImportedRegressor


def boosting_member_origin(
    source: str, member: int, n_members: int, output: str | None, clauses: tuple[NoteClause, ...]
) -> ModelOrigin:
    """The origin of one tree of a boosting library's file (XGBoost, LightGBM): its leaves hold a
    raw score, its nodes' weights are sums of hessians, and the file keeps no impurities."""
    return ModelOrigin(
        source,
        RAW_SCORE,
        member=member,
        n_members=n_members,
        output=output,
        node_weight=HESSIAN,
        impurities=False,
        clauses=clauses,
    )


def imported_estimator(tree: Tree, schema: Schema, origin: ModelOrigin) -> BaseTreeEstimator:
    """A fitted :class:`ImportedClassifier` (class counts) or :class:`ImportedRegressor` (one
    value per leaf) holding ``tree``, as a loaded model file holds its tree."""
    est: BaseTreeEstimator = ImportedClassifier() if schema.is_classifier else ImportedRegressor()
    est._set_schema(schema)
    est.tree_ = tree
    est.origin_ = origin
    return est


def numbered_features(
    n: int, names: Sequence[str] | None, categories: Mapping[int, Sequence[str]]
) -> tuple[Feature, ...]:
    """Features named as the source names them (``x0``, ``x1``… without names; the source's
    own ``f0`` style names are the caller's), categorical where ``categories`` gives labels."""
    out = []
    for j in range(n):
        name = str(names[j]) if names is not None else f"x{j}"
        if j in categories:
            out.append(Feature(name, CATEGORICAL, tuple(str(c) for c in categories[j])))
        else:
            out.append(Feature(name, "continuous"))
    return tuple(out)


def float32_le_cut(threshold: float) -> float:
    """The float64 cut t with ``x ≤ t`` exactly when ``float32(x) ≤ threshold``, for every float64
    x: scikit-learn's trees and XGBoost round their input to float32 before comparing, dtcore
    compares the float64 value. With c the largest float32 ≤ threshold, float32(x) ≤ c holds for x
    below the midpoint m between c and the next float32, and at m itself when rounding to even
    picks c (c's last mantissa bit 0); m is exact in float64."""
    if math.isnan(threshold) or math.isinf(threshold):
        return float(threshold)
    c = np.float32(threshold)
    if float(c) > threshold:
        c = np.nextafter(c, np.float32(-np.inf))
    up = np.nextafter(c, np.float32(np.inf))
    if not (np.isfinite(c) and np.isfinite(up)):
        return float(c)
    m = (float(c) + float(up)) / 2
    even = int(np.array(c, dtype=np.float32).view(np.uint32)) % 2 == 0
    return m if even else math.nextafter(m, -math.inf)


def float32_lt_cut(condition: float) -> float:
    """The float64 cut t with ``x ≤ t`` exactly when ``float32(x) < condition`` (XGBoost's
    ``x < split_condition`` goes left, on float32 values): float32(x) < c is float32(x) ≤ the
    float32 just below c, then :func:`float32_le_cut`."""
    c = np.float32(condition)
    return float32_le_cut(float(np.nextafter(c, np.float32(-np.inf))))


def bit_set(words: Sequence[int], code: int) -> bool:
    """Bit ``code`` of a bitset held as 32-bit words, lowest bit first (LightGBM's
    ``cat_threshold``, scikit-learn's HGB bitsets)."""
    w = code // 32
    return 0 <= w < len(words) and bool((int(words[w]) >> (code % 32)) & 1)


def gini_of(counts: Sequence[float]) -> float:
    """The Gini impurity of class counts (the ``CARTClassifier`` an imported classification tree
    becomes measures its nodes so), for sources that keep counts but no impurity (PMML)."""
    total = float(sum(counts))
    return 0.0 if total <= 0 else 1.0 - sum((c / total) ** 2 for c in counts)
