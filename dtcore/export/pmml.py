"""A fitted tree as PMML 4.4 (``TreeModel``), so that other engines (KNIME, R, SAS, JPMML,
``pypmml``) score it as dtcore does.

What maps exactly, and how (``docs/standalone-and-notebook.md`` § PMML says the same for users):

* **tests**: a continuous test with one cut t is ``x ≤ t`` / ``x > t`` (``lessOrEqual`` /
  ``greaterThan``, t written repr-exact, so Java's ``Double.parseDouble`` reads the same double);
  several cuts (ID3's intervals) become ``and`` of both bounds; a categorical test (ID3/C4.5
  multiway, CART subsets) is ``equal`` for one category or ``isIn`` for several. Categories a
  CART test has no branch for go where dtcore sends them, to the missing-value child, so they
  are listed in that child's set.
* **missing values**: CART's learned direction is ``missingValueStrategy="defaultChild"`` with
  each test's ``defaultChild``. C4.5's (and ID3's) fractional rule, a missing value down every
  branch with the branch's share of the node's training weight and the leaves' distributions
  mixed, is exactly ``weightedConfidence``: the confidences of all children, weighted by their
  ``recordCount`` (the node's training weight, fractional in C4.5). ``aggregateNodes`` is *not*
  the same rule (it weights each leaf reached by the leaf's own record count, not by the shares
  along its path), so it is not used.
* **unseen labels** are missing in dtcore; ``invalidValueTreatment="asMissing"`` on each mining
  field says so (a label outside the ``DataField``'s values is invalid).
* **leaves**: ``score`` is what ``predict`` gives (the first class with the highest
  probability; a regression leaf's value), each ``ScoreDistribution`` carries the class's weight
  and its ``probability`` as ``predict_proba`` computes it (an empty leaf: uniform).

What cannot map, and is refused with a message naming the node (never written approximately):
a tree mixing both missing-value rules, a regression tree sharing missing values out (PMML's
``weightedConfidence`` mixes confidences, not values), and a shared-out test whose categories
have no branch (dtcore shares them out like a missing value; PMML would stop there). No tree
dtcore grows has any of these; only an imported tree could.

The bytes are deterministic: fixed element and attribute order, numbers by
``dtcore.numbers.fmt_num`` (shortest repr that round-trips), no time stamp.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from dtcore.export.labels import branch_codes
from dtcore.numbers import fmt_num
from dtcore.routing import DISTRIBUTE
from dtcore.schema import Schema
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

NAMESPACE = "http://www.dmg.org/PMML-4_4"
PMML_VERSION = "4.4"
#: code points XML 1.0 cannot hold at all (a name holding one cannot be written as PMML)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class PmmlMappingError(ValueError):
    """The tree holds a rule PMML has no exact equivalent for; the message names the node."""


def _text(value: object, what: str) -> str:
    s = str(value)
    if _NOT_XML.search(s):
        raise PmmlMappingError(f"{what} {s!r} holds a control character XML cannot carry")
    return s


def _array(values: Sequence[str]) -> str:
    """A PMML string ``Array``'s content: every value in double quotes (none holds ``"`` or
    ``\\``: ``_category_predicate`` writes those sets another way)."""
    return " ".join('"' + v + '"' for v in values)


def missing_strategy(tree: Tree) -> str:
    """``defaultChild`` (every test has a learned branch for missing values) or
    ``weightedConfidence`` (every test shares them out); a tree mixing both is refused."""
    tests = np.flatnonzero(tree.feature >= 0)
    shared = tree.missing_branch[tests] == DISTRIBUTE
    if shared.all():
        return "weightedConfidence"
    if not shared.any():
        return "defaultChild"
    a, b = int(tests[shared][0]), int(tests[~shared][0])
    raise PmmlMappingError(
        f"node {a} shares missing values out over its branches but node {b} sends them down one "
        "branch: PMML has one missingValueStrategy per tree"
    )


def to_pmml(model: BaseTreeEstimator) -> str:
    """The model as a PMML 4.4 document (UTF-8 text, XML declaration first)."""
    tree: Tree = model.tree_
    schema: Schema = model.schema_
    strategy = missing_strategy(tree) if (tree.feature >= 0).any() else "none"
    classifier = schema.is_classifier
    if strategy == "weightedConfidence" and not classifier:
        raise PmmlMappingError(
            "this regression tree shares missing values out over its branches; PMML's "
            "weightedConfidence mixes class confidences, not values"
        )
    target = _text(schema.target, "target name")
    root = ET.Element("PMML", {"xmlns": NAMESPACE, "version": PMML_VERSION})
    header = ET.SubElement(root, "Header", {"description": f"dtcore {model.algorithm} tree"})
    ET.SubElement(header, "Application", {"name": "dtcore"})
    _data_dictionary(root, schema, target)
    attrs = {
        "modelName": f"dtcore-{model.algorithm}",
        "functionName": "classification" if classifier else "regression",
        "algorithmName": str(model.algorithm),
        "splitCharacteristic": "binarySplit"
        if (tree.n_branches[tree.feature >= 0] == 2).all()
        else "multiSplit",
        "missingValueStrategy": strategy,
        "noTrueChildStrategy": "returnLastPrediction",
    }
    tm = ET.SubElement(root, "TreeModel", attrs)
    ms = ET.SubElement(tm, "MiningSchema")
    for f in schema.features:
        ET.SubElement(ms, "MiningField", {"name": f.name, "invalidValueTreatment": "asMissing"})
    ET.SubElement(ms, "MiningField", {"name": target, "usageType": "target"})
    _nodes(tm, tree, schema)
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _data_dictionary(root: ET.Element, schema: Schema, target: str) -> None:
    dd = ET.SubElement(root, "DataDictionary", {"numberOfFields": str(len(schema.features) + 1)})
    for f in schema.features:
        name = _text(f.name, "column name")
        if f.is_categorical:
            field = ET.SubElement(
                dd, "DataField", {"name": name, "optype": "categorical", "dataType": "string"}
            )
            for c in f.categories:
                ET.SubElement(field, "Value", {"value": _text(c, f"category of {name!r}")})
        else:
            ET.SubElement(dd, "DataField", {"name": name, "optype": "continuous", "dataType": "double"})
    if schema.classes is not None:
        field = ET.SubElement(
            dd, "DataField", {"name": target, "optype": "categorical", "dataType": "string"}
        )
        for c in schema.classes:
            ET.SubElement(field, "Value", {"value": _text(c, "class")})
    else:
        ET.SubElement(dd, "DataField", {"name": target, "optype": "continuous", "dataType": "double"})


def _nodes(parent: ET.Element, tree: Tree, schema: Schema) -> None:
    """Every node in pre-order, each under its parent's element, on an explicit stack."""
    dist = tree.leaf_distribution()
    predicted = tree.node_classes()
    classes = schema.classes
    stack: list[tuple[int, ET.Element, ET.Element | None]] = [(0, parent, None)]
    elements: dict[int, ET.Element] = {}
    while stack:
        i, holder, predicate = stack.pop()
        attrs = {"id": str(i)}
        if classes is not None:
            attrs["score"] = _text(classes[int(predicted[i])], "class")
        else:
            attrs["score"] = fmt_num(tree.value[i, 0])
        attrs["recordCount"] = fmt_num(tree.weighted_n[i])
        kids = tree.children_of(i)
        if tree.feature[i] >= 0 and tree.missing_branch[i] >= 0:
            attrs["defaultChild"] = str(int(kids[tree.missing_branch[i]]))
        node = ET.SubElement(holder, "Node", attrs)
        elements[i] = node
        if predicate is None:
            ET.SubElement(node, "True")
        else:
            node.append(predicate)
        if classes is not None:
            for k, c in enumerate(classes):
                ET.SubElement(
                    node,
                    "ScoreDistribution",
                    {
                        "value": c,
                        "recordCount": fmt_num(tree.value[i, k]),
                        "probability": fmt_num(dist[i, k]),
                    },
                )
        if tree.feature[i] >= 0:
            preds = _branch_predicates(tree, schema, i)
            for kid, pred in reversed(list(zip(kids.tolist(), preds))):
                stack.append((kid, node, pred))


def _branch_predicates(tree: Tree, schema: Schema, i: int) -> list[ET.Element]:
    """One predicate per branch of node ``i``'s test, in branch order."""
    feat = schema.features[int(tree.feature[i])]
    name = feat.name
    nb = int(tree.n_branches[i])
    if tree.is_categorical_test(i):
        cb = tree.cat_branch_of(i)
        mb = int(tree.missing_branch[i])
        lost = [c for c in range(cb.size) if cb[c] < 0 and c < len(feat.categories)]
        if lost and mb < 0:
            raise PmmlMappingError(
                f"node {i}: the categories {[feat.categories[c] for c in lost]} of {name!r} have no "
                "branch and would be shared out like a missing value; PMML has no such rule"
            )
        out = []
        for b, codes in enumerate(branch_codes(tree, i)):
            members = [feat.categories[c] for c in codes if c < len(feat.categories)]
            if b == mb:
                members += [feat.categories[c] for c in lost]
            out.append(_category_predicate(name, members))
        return out
    cuts = tree.cuts_of(i)
    mb = int(tree.missing_branch[i])
    out = []
    for b in range(nb):
        parts: list[ET.Element] = []
        known = True  # can a known value take branch b (False: only missing values can)
        for op, k in (("greaterThan", b - 1), ("lessOrEqual", b)):
            if not 0 <= k < cuts.size:
                continue
            t = float(cuts[k])
            if np.isfinite(t):
                parts.append(_simple(name, op, fmt_num(t)))
            elif (op == "lessOrEqual") != (t > 0):  # x ≤ -inf or x > +inf: no known value
                known = False
        # a cut at ±inf (CART: known values on one side, missing ones on the other) is
        # written as isMissing / isNotMissing, so no infinity is spelled in the file
        if not known:
            out.append(_simple_missing(name, "isMissing") if b == mb else ET.Element("False"))
        elif not parts:
            out.append(ET.Element("True") if b == mb else _simple_missing(name, "isNotMissing"))
        elif len(parts) == 1:
            out.append(parts[0])
        else:
            both = ET.Element("CompoundPredicate", {"booleanOperator": "and"})
            both.extend(parts)
            out.append(both)
    return out


def _simple_missing(name: str, operator: str) -> ET.Element:
    return ET.Element("SimplePredicate", {"field": name, "operator": operator})


def _simple(name: str, operator: str, value: str) -> ET.Element:
    return ET.Element("SimplePredicate", {"field": name, "operator": operator, "value": value})


def _category_predicate(name: str, members: Sequence[str]) -> ET.Element:
    """``equal`` for one category, ``isIn`` over an ``Array`` for several; a set holding a label
    with ``"`` or ``\\`` is an ``or`` of ``equal`` tests instead (the same truth, UNKNOWN for a
    missing value alike), since engines differ on escapes inside an ``Array`` (PMML4S reads
    neither ``\\"`` nor ``\\\\``)."""
    if not members:
        return ET.Element("False")
    if len(members) == 1:
        return _simple(name, "equal", members[0])
    if any('"' in m or "\\" in m for m in members):
        pred = ET.Element("CompoundPredicate", {"booleanOperator": "or"})
        pred.extend(_simple(name, "equal", m) for m in members)
        return pred
    pred = ET.Element("SimpleSetPredicate", {"field": name, "booleanOperator": "isIn"})
    arr = ET.SubElement(pred, "Array", {"n": str(len(members)), "type": "string"})
    arr.text = _array(members)
    return pred
