"""PMML 4.x ``TreeModel`` read with the standard library's ``xml.etree`` (PMML 4.4, "TreeModel").

Each PMML node's children are tried in document order and the first whose predicate is TRUE is
taken. dtcore holds one feature per test, so a node's children must test one field; their
predicates (``SimplePredicate``, ``SimpleSetPredicate``, ``CompoundPredicate`` and/or/xor/
surrogate, ``True``, ``False``) are evaluated on every value that matters, and the answers become
the test:

* a categorical field (optype categorical or ordinal): each category label goes to the first
  child TRUE for it (a category no child takes has no branch, and dtcore reads it as missing);
* a continuous field: the predicates' constants c cut the line into (…, c), {c}, (c, …) pieces,
  each piece goes to its first TRUE child, and the pieces become dtcore's ``x ≤ t`` intervals
  (``x < c`` is ``x ≤`` the float64 just below c); a child that takes two separate ranges, or a
  value that no child takes, cannot map and is refused.

A missing value goes to the first child whose predicate is TRUE for it (``isMissing``, a
``surrogate`` ending in ``True``, a ``True`` child); if none is, by the model's
``missingValueStrategy``: ``defaultChild`` → the ``defaultChild`` node, ``weightedConfidence``
and ``aggregateNodes`` → down every branch weighted by the children's ``recordCount`` (dtcore's
C4.5 rule: mixing the leaves' distributions by those shares is the same as adding up their
counts), ``none`` → only where a predicate is TRUE for missing values; ``lastPrediction`` and
``nullPrediction`` stop inside the tree, which dtcore cannot, and are refused. A
``MiningField``'s ``missingValueReplacement`` is applied first, as PMML does. Leaves:
``ScoreDistribution`` ``recordCount`` per class (``probability`` where given), or the node's
``score`` (regression); PMML keeps no impurity, a classification node gets the Gini impurity of
its counts (regression nodes 0). Derived fields and other models than ``TreeModel`` are refused by name.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from dtcore.base import BaseTreeEstimator
from dtcore.export.origin import CLASS_COUNTS, MEAN_TARGET, ModelOrigin, clause
from dtcore.importers.assemble import SourceNode, build_tree, gini_of, imported_estimator
from dtcore.routing import DISTRIBUTE, SplitTest
from dtcore.schema import CATEGORICAL, CONTINUOUS, Feature, Schema

PREDICATES = ("SimplePredicate", "SimpleSetPredicate", "CompoundPredicate", "True", "False")
SHARED_STRATEGIES = ("weightedConfidence", "aggregateNodes")
#: a value in three-valued logic: True, False or None (UNKNOWN: a missing value was compared)
Truth = bool | None


class PMMLError(ValueError):
    """A PMML construct dtcore's trees cannot hold: the message names it and the node."""


def is_pmml(text: str) -> bool:
    head = text.lstrip()[:2000]
    return head.startswith("<") and re.search(r"<(\w+:)?PMML[\s>]", head) is not None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(el: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in el if _local(c.tag) == name]


def _child(el: ET.Element, name: str) -> ET.Element | None:
    found = _children(el, name)
    return found[0] if found else None


@dataclass(frozen=True)
class Field:
    """A model input: its kind, category labels in order, the value PMML puts for a missing one."""

    name: str
    kind: str
    categories: tuple[str, ...]
    replacement: str | None


def from_pmml(text: str, tree: int = 0) -> BaseTreeEstimator:
    """The ``tree``-th ``TreeModel`` of a PMML document (0: the first; a ``MiningModel``'s
    segments count in document order)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise PMMLError(f"not well-formed PMML XML: {exc}") from None
    if _local(root.tag) != "PMML":
        raise PMMLError(f"not a PMML document: the root element is <{_local(root.tag)}>")
    models = [el for el in root.iter() if _local(el.tag) == "TreeModel"]
    if not models:
        kinds = sorted(
            {
                _local(c.tag)
                for c in root
                if _local(c.tag)
                not in (
                    "Header",
                    "DataDictionary",
                    "MiningBuildTask",
                    "TransformationDictionary",
                    "Extension",
                )
            }
        )
        raise PMMLError(
            f"the PMML holds no TreeModel (it holds {', '.join(kinds) or 'no model'}); dtcore imports trees"
        )
    if not -len(models) <= tree < len(models):
        raise PMMLError(f"tree={tree!r}: the PMML holds {len(models)} TreeModel(s) (0 to {len(models) - 1})")
    i = tree % len(models)
    model = models[i]
    if (
        root.find(".//{*}TransformationDictionary/{*}DerivedField") is not None
        or model.find(".//{*}LocalTransformations/{*}DerivedField") is not None
    ):
        raise PMMLError(
            "the PMML uses derived fields (TransformationDictionary / LocalTransformations): dtcore tests raw features only"
        )
    task = model.get("functionName")
    if task not in ("classification", "regression"):
        raise PMMLError(
            f"TreeModel functionName={task!r}: dtcore imports classification and regression trees"
        )
    strategy = model.get("missingValueStrategy", "none")
    dictionary = {f.get("name"): f for f in root.iter() if _local(f.tag) == "DataField"}
    features, target = _mining_fields(model, dictionary)
    top = _child(model, "Node")
    if top is None:
        raise PMMLError("the TreeModel has no Node")
    features = [_with_seen_labels(f, top) for f in features]
    classes = _classes(dictionary.get(target), top) if task == "classification" else None
    reader = _Reader(features, classes, strategy)
    nodes = reader.read(top)
    schema = Schema(
        tuple(Feature(f.name, f.kind, f.categories if f.kind == CATEGORICAL else ()) for f in features),
        target,
        classes,
    )
    version = root.get("version", "4.x")
    origin = ModelOrigin(
        f"PMML {version} TreeModel" + (f" {model.get('modelName')!r}" if model.get("modelName") else ""),
        CLASS_COUNTS if classes is not None else MEAN_TARGET,
        member=i if len(models) > 1 else None,
        n_members=len(models) if len(models) > 1 else None,
        clauses=(
            clause("pmml_missing", strategy=strategy),
            clause("pmml_gini" if classes is not None else "pmml_no_impurity"),
        ),
    )
    return imported_estimator(build_tree(nodes, len(classes) if classes else 0), schema, origin)


def _mining_fields(model: ET.Element, dictionary: dict) -> tuple[list[Field], str]:
    schema = _child(model, "MiningSchema")
    if schema is None:
        raise PMMLError("the TreeModel has no MiningSchema")
    features: list[Field] = []
    target = None
    for mf in _children(schema, "MiningField"):
        name = mf.get("name") or ""
        usage = mf.get("usageType", "active")
        if usage in ("target", "predicted"):
            target = name
            continue
        if usage != "active":
            continue
        df = dictionary.get(name)
        if df is None:
            raise PMMLError(f"MiningField {name!r} is not in the DataDictionary")
        optype = mf.get("optype") or df.get("optype", "continuous")
        kind = CONTINUOUS if optype == "continuous" else CATEGORICAL
        labels = tuple(
            v.get("value", "") for v in _children(df, "Value") if v.get("property", "valid") == "valid"
        )
        features.append(Field(name, kind, labels, mf.get("missingValueReplacement")))
    if target is None:
        raise PMMLError("the MiningSchema names no target field (usageType target or predicted)")
    if not features:
        raise PMMLError("the MiningSchema names no active input field")
    return features, target


def _with_seen_labels(field: Field, top: ET.Element) -> Field:
    """A categorical field the DataDictionary gives no Values: the labels its predicates name,
    in document order."""
    if field.kind != CATEGORICAL or field.categories:
        return field
    seen: dict[str, None] = {}
    for el in top.iter():
        if el.get("field") != field.name:
            continue
        if _local(el.tag) == "SimplePredicate" and el.get("value") is not None:
            seen.setdefault(el.get("value", ""), None)
        elif _local(el.tag) == "SimpleSetPredicate":
            for v in _array_values(el):
                seen.setdefault(v, None)
    return Field(field.name, field.kind, tuple(seen), field.replacement)


def _classes(field: ET.Element | None, top: ET.Element) -> tuple[str, ...]:
    """The target's labels: the DataDictionary's, else every ScoreDistribution and score label
    in document order."""
    if field is not None:
        labels = [
            v.get("value", "") for v in _children(field, "Value") if v.get("property", "valid") == "valid"
        ]
        if labels:
            return tuple(labels)
    seen: dict[str, None] = {}
    for el in top.iter():
        if _local(el.tag) == "ScoreDistribution":
            seen.setdefault(el.get("value", ""), None)
        elif _local(el.tag) == "Node" and el.get("score") is not None:
            seen.setdefault(el.get("score", ""), None)
    if not seen:
        raise PMMLError(
            "the classification TreeModel names no class (no target Values, ScoreDistribution or score)"
        )
    return tuple(seen)


def _array_values(el: ET.Element) -> list[str]:
    """An ``Array``'s entries: blank-separated, double-quoted where they hold blanks."""
    arr = _child(el, "Array")
    text = (arr.text or "") if arr is not None else ""
    return [
        m.group(1).replace('\\"', '"') if m.group(1) is not None else m.group(2)
        for m in re.finditer(r'"((?:[^"\\]|\\.)*)"|(\S+)', text)
    ]


def _predicate(node: ET.Element) -> ET.Element:
    for c in node:
        if _local(c.tag) in PREDICATES:
            return c
    raise PMMLError(f"node {node.get('id', '?')} has no predicate")


def _fields_of(pred: ET.Element) -> set[str]:
    return {
        el.get("field", "")
        for el in pred.iter()
        if _local(el.tag) in ("SimplePredicate", "SimpleSetPredicate")
    }


def _number(text: str | None, where: str) -> float:
    try:
        return float(text or "")
    except ValueError:
        raise PMMLError(f"{where}: {text!r} is not a number") from None


def _evaluate(pred: ET.Element, value: float | str | None, numeric: bool) -> Truth:
    """PMML's three-valued result of ``pred`` for one value of its field (None: missing)."""
    tag = _local(pred.tag)
    if tag == "True":
        return True
    if tag == "False":
        return False
    if tag == "SimplePredicate":
        op = pred.get("operator")
        if op == "isMissing":
            return value is None
        if op == "isNotMissing":
            return value is not None
        if value is None:
            return None
        if numeric:
            c: float | str = _number(pred.get("value"), f"SimplePredicate on {pred.get('field')!r}")
        else:
            c = pred.get("value", "")
            if op not in ("equal", "notEqual"):
                raise PMMLError(
                    f"SimplePredicate {op} on the categorical field {pred.get('field')!r}: dtcore's categorical tests hold no order"
                )
        ops = {
            "equal": lambda a, b: a == b,
            "notEqual": lambda a, b: a != b,
            "lessThan": lambda a, b: a < b,
            "lessOrEqual": lambda a, b: a <= b,
            "greaterThan": lambda a, b: a > b,
            "greaterOrEqual": lambda a, b: a >= b,
        }
        if op not in ops:
            raise PMMLError(f"SimplePredicate operator {op!r} is not PMML's")
        return bool(ops[op](value, c))
    if tag == "SimpleSetPredicate":
        if value is None:
            return None
        members = _array_values(pred)
        inside = value in ([_number(m, "SimpleSetPredicate") for m in members] if numeric else members)
        op = pred.get("booleanOperator")
        if op not in ("isIn", "isNotIn"):
            raise PMMLError(f"SimpleSetPredicate booleanOperator {op!r} is not PMML's")
        return inside if op == "isIn" else not inside
    if tag == "CompoundPredicate":
        parts = [_evaluate(p, value, numeric) for p in pred if _local(p.tag) in PREDICATES]
        op = pred.get("booleanOperator")
        if op == "and":
            return False if False in parts else (None if None in parts else True)
        if op == "or":
            return True if True in parts else (None if None in parts else False)
        if op == "xor":
            return None if None in parts else sum(bool(p) for p in parts) % 2 == 1
        if op == "surrogate":
            return next((p for p in parts if p is not None), None)
        raise PMMLError(f"CompoundPredicate booleanOperator {op!r} is not PMML's")
    raise PMMLError(f"predicate <{tag}> cannot map to a dtcore test")


def _first_true(preds: Sequence[ET.Element], value: float | str | None, numeric: bool) -> int:
    for k, p in enumerate(preds):
        if _evaluate(p, value, numeric) is True:
            return k
    return -1


class _Reader:
    """Reads the Node elements into ``SourceNode`` records, one test per node."""

    def __init__(self, features: list[Field], classes: tuple[str, ...] | None, strategy: str) -> None:
        self.features = features
        self.index = {f.name: j for j, f in enumerate(features)}
        self.classes = classes
        self.strategy = strategy
        self.out: list[SourceNode | None] = []

    def read(self, top: ET.Element) -> list[SourceNode]:
        stack = [(top, self._slot())]
        while stack:
            el, me = stack.pop()
            kids = _children(el, "Node")
            value, weight = self._value(el)
            impurity = gini_of(value) if self.classes is not None else 0.0
            if not kids:
                self.out[me] = SourceNode(value, weight, int(round(weight)), impurity)
                continue
            test, order = self._test(el, kids)
            slots = [self._slot() for _ in order]
            self.out[me] = SourceNode(value, weight, int(round(weight)), impurity, test, tuple(slots))
            stack.extend((kids[k], s) for k, s in zip(order, slots))
        return [n for n in self.out if n is not None]

    def _slot(self) -> int:
        self.out.append(None)
        return len(self.out) - 1

    def _value(self, el: ET.Element) -> tuple[tuple[float, ...], float]:
        where = f"node {el.get('id', '?')}"
        dists = _children(el, "ScoreDistribution")
        count = el.get("recordCount")
        if self.classes is None:
            if el.get("score") is None:
                raise PMMLError(f"{where} of the regression tree has no score")
            w = _number(count, where) if count is not None else 0.0
            return (_number(el.get("score"), where),), w
        counts = [0.0] * len(self.classes)
        if dists:
            total = sum(_number(d.get("recordCount", "0"), where) for d in dists)
            for d in dists:
                label = d.get("value", "")
                if label not in self.classes:
                    raise PMMLError(
                        f"{where}: ScoreDistribution value {label!r} is not a class of the target"
                    )
                rc = _number(d.get("recordCount", "0"), where)
                prob = d.get("probability")
                counts[self.classes.index(label)] = (
                    _number(prob, where) * total if prob is not None and total > 0 else rc
                )
            w = _number(count, where) if count is not None else total
            return tuple(counts), w
        score = el.get("score")
        if score is None or score not in self.classes:
            raise PMMLError(f"{where} has neither a ScoreDistribution nor a class as its score")
        w = _number(count, where) if count is not None else 1.0
        counts[self.classes.index(score)] = max(w, 1.0)
        return tuple(counts), w

    def _test(self, el: ET.Element, kids: list[ET.Element]) -> tuple[SplitTest, list[int]]:
        """The test of node ``el`` and its children's order as dtcore's branches."""
        where = f"node {el.get('id', '?')}"
        preds = [_predicate(k) for k in kids]
        fields = set().union(*(_fields_of(p) for p in preds))
        if len(fields) != 1:
            named = ", ".join(sorted(fields)) or "none"
            raise PMMLError(f"{where}: its children test the fields {named}; a dtcore test reads one feature")
        name = fields.pop()
        if name not in self.index:
            raise PMMLError(f"{where} tests {name!r}, which is not an active MiningField")
        j = self.index[name]
        feat = self.features[j]
        if feat.kind == CATEGORICAL:
            if not feat.categories:
                raise PMMLError(f"the DataDictionary lists no Values of the categorical field {name!r}")
            order = list(range(len(kids)))
            table = tuple(_first_true(preds, c, False) for c in feat.categories)
            missing = self._missing_branch(el, kids, preds, feat, order, where)
            return SplitTest(j, cat_branch=table, missing_branch=missing), order
        cuts, order = self._intervals(preds, where)
        missing = self._missing_branch(el, kids, preds, feat, order, where)
        return SplitTest(j, cuts=cuts, missing_branch=missing), order

    def _intervals(self, preds: list[ET.Element], where: str) -> tuple[tuple[float, ...], list[int]]:
        """Cuts and the child of each interval, from the first TRUE child of every piece."""
        consts = sorted(
            {
                _number(v, where)
                for p in preds
                for el in p.iter()
                for v in (
                    [el.get("value")]
                    if _local(el.tag) == "SimplePredicate"
                    and el.get("operator") not in ("isMissing", "isNotMissing")
                    else _array_values(el)
                    if _local(el.tag) == "SimpleSetPredicate"
                    else []
                )
            }
        )
        if not consts:
            raise PMMLError(f"{where}: its children's predicates give no threshold on a continuous field")
        pieces: list[tuple[float, int]] = []  # (upper cut of the piece, child), the last piece unbounded
        below = consts[0] - max(1.0, abs(consts[0]))
        pieces.append((math.nextafter(consts[0], -math.inf), _first_true(preds, below, True)))
        for a, b in zip(consts, consts[1:] + [math.inf]):
            pieces.append((a, _first_true(preds, a, True)))
            mid = a + max(1.0, abs(a)) if math.isinf(b) else (a + b) / 2
            pieces.append(
                (
                    math.nextafter(b, -math.inf) if not math.isinf(b) else math.inf,
                    _first_true(preds, mid, True),
                )
            )
        if any(k < 0 for _, k in pieces):
            raise PMMLError(
                f"{where}: some values of the field take no child (PMML returns no prediction there); dtcore sends every value down a branch"
            )
        runs: list[tuple[float, int]] = []
        for cut, k in pieces:
            if runs and runs[-1][1] == k:
                runs[-1] = (cut, k)
            else:
                runs.append((cut, k))
        order = [k for _, k in runs]
        if len(set(order)) != len(order):
            raise PMMLError(
                f"{where}: a child takes two separate ranges of the field; a dtcore branch holds one interval"
            )
        if len(order) != len(preds):
            raise PMMLError(f"{where}: a child is taken by no value of the field")
        return tuple(c for c, _ in runs[:-1]), order

    def _missing_branch(
        self,
        el: ET.Element,
        kids: list[ET.Element],
        preds: list[ET.Element],
        feat: Field,
        order: list[int],
        where: str,
    ) -> int:
        numeric = feat.kind == CONTINUOUS
        value: float | str | None = None
        if feat.replacement is not None:
            value = _number(feat.replacement, where) if numeric else feat.replacement
        k = _first_true(preds, value, numeric)
        if k >= 0:
            return order.index(k)
        if self.strategy == "defaultChild":
            target = el.get("defaultChild")
            ids = [c.get("id") for c in kids]
            if target is None or target not in ids:
                raise PMMLError(
                    f"{where}: missingValueStrategy defaultChild, but the node names no child as defaultChild"
                )
            return order.index(ids.index(target))
        if self.strategy in SHARED_STRATEGIES:
            return DISTRIBUTE
        raise PMMLError(
            f"{where}: a missing {feat.name!r} matches no child and missingValueStrategy is "
            f"{self.strategy!r}; dtcore sends a missing value down one branch (defaultChild) or "
            "every branch (weightedConfidence, aggregateNodes), it cannot stop inside the tree"
        )
