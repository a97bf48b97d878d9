"""The PMML export's file, without an engine (tests/dtcore/test_pmml_engine.py scores it): what
PMML 4.4 requires of its structure (header, DataDictionary, MiningSchema, TreeModel and each
Node's predicate), deterministic bytes, thresholds that parse back to the stored doubles, the
missing-value strategy per algorithm, the trees refused with a message, and the CLI."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dtcore.export.pmml import NAMESPACE, PmmlMappingError, to_pmml
from dtcore.routing import DISTRIBUTE
from tests.cli_runner import run_cli
from tests.datasets import DATA
from tests.dtcore.whatif_models import cases, fitted

NS = {"p": NAMESPACE}
PREDICATES = {"SimplePredicate", "CompoundPredicate", "SimpleSetPredicate", "True", "False"}
OPERATORS = {
    "equal",
    "notEqual",
    "lessThan",
    "lessOrEqual",
    "greaterThan",
    "greaterOrEqual",
    "isMissing",
    "isNotMissing",
}


def local(el: ET.Element) -> str:
    return el.tag.split("}", 1)[1]


def check_structure(text: str, est) -> ET.Element:
    """PMML 4.4's requirements on the parts a TreeModel needs; returns the root."""
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{{{NAMESPACE}}}PMML" and root.get("version") == "4.4"
    kids = [local(c) for c in root]
    assert kids == ["Header", "DataDictionary", "TreeModel"]  # Header first, then the dictionary
    dd = root.find("p:DataDictionary", NS)
    fields = {f.get("name"): f for f in dd.findall("p:DataField", NS)}
    assert int(dd.get("numberOfFields")) == len(fields) == len(est.schema_.features) + 1
    for f in fields.values():
        assert f.get("optype") in {"categorical", "continuous"}
        assert f.get("dataType") == ("string" if f.get("optype") == "categorical" else "double")
    for feat in est.schema_.features:
        values = [v.get("value") for v in fields[feat.name].findall("p:Value", NS)]
        assert values == (list(feat.categories) if feat.is_categorical else [])
    tm = root.find("p:TreeModel", NS)
    assert tm.get("functionName") == ("classification" if est.schema_.is_classifier else "regression")
    assert tm.get("missingValueStrategy") in {"defaultChild", "weightedConfidence", "none"}
    assert tm.get("splitCharacteristic") in {"binarySplit", "multiSplit"}
    assert [local(c) for c in tm] == ["MiningSchema", "Node"]
    mining = tm.find("p:MiningSchema", NS).findall("p:MiningField", NS)
    assert {m.get("name") for m in mining} == set(fields)  # every field used, none unknown
    assert [m.get("name") for m in mining if m.get("usageType") == "target"] == [est.schema_.target]
    targets = [v.get("value") for v in fields[est.schema_.target].findall("p:Value", NS)]
    nodes = list(tm.iter(f"{{{NAMESPACE}}}Node"))
    assert [int(n.get("id")) for n in nodes] == list(range(est.tree_.node_count))  # pre-order
    for node in nodes:
        parts = [local(c) for c in node]
        assert parts[0] in PREDICATES and not PREDICATES & set(parts[1:])  # exactly one, first
        rest = parts[1:]
        assert rest == sorted(rest, key=lambda p: p == "Node")  # ScoreDistribution before Node
        children = node.findall("p:Node", NS)
        if node.get("defaultChild") is not None:
            assert node.get("defaultChild") in {c.get("id") for c in children}
        if tm.get("splitCharacteristic") == "binarySplit":
            assert len(children) in (0, 2)
        for pred in node.iter():
            if local(pred) in ("SimplePredicate", "SimpleSetPredicate"):
                assert pred.get("field") in fields and pred.get("field") != est.schema_.target
            if local(pred) == "SimplePredicate":
                assert pred.get("operator") in OPERATORS
                assert (pred.get("value") is None) == (pred.get("operator") in ("isMissing", "isNotMissing"))
            if local(pred) == "Array":
                assert pred.get("type") == "string" and int(pred.get("n")) == len(pred.text.split('" "'))
        dists = node.findall("p:ScoreDistribution", NS)
        if est.schema_.is_classifier:
            assert [d.get("value") for d in dists] == targets and node.get("score") in targets
            assert abs(sum(float(d.get("probability")) for d in dists) - 1) < 1e-12
        else:
            assert not dists and float(node.get("score")) == est.tree_.value[int(node.get("id")), 0]
    assert nodes[0][0].tag == f"{{{NAMESPACE}}}True"
    return root


@pytest.mark.parametrize(("sample", "algo"), cases())
def test_every_tree_is_a_well_formed_pmml_4_4_tree_model(sample, algo):
    got = fitted(sample, algo)
    if got is None:
        pytest.skip("regression sample: CART only")
    est = got[0]
    text = to_pmml(est)
    assert text == to_pmml(est)  # deterministic
    root = check_structure(text, est)
    strategy = root.find("p:TreeModel", NS).get("missingValueStrategy")
    assert strategy == ("defaultChild" if algo == "cart" else "weightedConfidence")
    # thresholds are the stored doubles, exactly (repr: Java's parseDouble reads the same)
    written = sorted(
        float(p.get("value"))
        for p in root.iter(f"{{{NAMESPACE}}}SimplePredicate")
        if p.get("operator") == "lessOrEqual"
    )
    t = est.tree_
    stored = sorted(
        float(c) for n in np.flatnonzero(t.feature >= 0) if not t.is_categorical_test(n) for c in t.cuts_of(n)
    )
    assert written == [c for c in stored if np.isfinite(c)]


def test_multiway_and_subset_tests_name_their_categories():
    root = ET.fromstring(to_pmml(fitted("watermelon_2.0", "c45")[0]).encode())
    first = root.find("p:TreeModel/p:Node", NS).findall("p:Node", NS)
    assert [(c[0].get("field"), c[0].get("operator"), c[0].get("value")) for c in first] == [
        ("纹理", "equal", "清晰"),
        ("纹理", "equal", "稍糊"),
        ("纹理", "equal", "模糊"),
    ]
    cart = fitted("watermelon_2.0", "cart")[0]
    sets = list(ET.fromstring(to_pmml(cart).encode()).iter(f"{{{NAMESPACE}}}SimpleSetPredicate"))
    assert sets and all(s.get("booleanOperator") == "isIn" for s in sets)


def test_a_cut_at_infinity_is_written_as_a_missing_test():
    """CART's "missing values alone" split (cut +inf): isNotMissing / isMissing, no infinity."""
    est = fitted("penguins", "cart")[0]
    t = est.tree_
    assert np.isinf(t.cuts).any()
    text = to_pmml(est)
    assert "inf" not in text.lower().replace("invalidvaluetreatment", "")
    assert 'operator="isMissing"' in text and 'operator="isNotMissing"' in text


def test_labels_with_quotes_and_markup_are_escaped_xml():
    from dtcore import CARTClassifier

    X = np.array([['a "b"'], ["<c>&"], ["d\\e"], ["f"]] * 5, dtype=object)
    y = ["p", "p", "q", "q"] * 5
    est = CARTClassifier().fit(X, y, feature_names=["na<me"], feature_kinds=["categorical"])
    text = to_pmml(est)
    check_structure(text, est)
    assert "<c>" not in text and "&lt;c&gt;&amp;" in text


def test_trees_pmml_cannot_hold_are_refused_with_the_node():
    c45 = fitted("watermelon_3.0", "c45")[0]
    mixed = c45.tree_.copy()
    tests = np.flatnonzero(mixed.feature >= 0)
    mixed.missing_branch[tests[-1]] = 0
    est = type(c45)()
    est.__dict__.update(c45.__dict__)
    est.tree_ = mixed
    with pytest.raises(
        PmmlMappingError, match=f"node {tests[0]} shares missing values out.*node {tests[-1]}"
    ):
        to_pmml(est)
    reg = fitted("regression_toy10", "cart")[0]
    shared = reg.tree_.copy()
    shared.missing_branch[shared.feature >= 0] = DISTRIBUTE
    est = type(reg)()
    est.__dict__.update(reg.__dict__)
    est.tree_ = shared
    with pytest.raises(PmmlMappingError, match="regression tree shares missing values"):
        to_pmml(est)


def test_cli_writes_pmml_by_suffix_or_format(tmp_path):
    model = tmp_path / "m.json"
    melon = DATA / "watermelon_2.0_missing.csv"
    assert (
        run_cli("train", str(melon), "--target", "好瓜", "--algorithm", "c45", "--out", str(model)).returncode
        == 0
    )
    by_suffix, by_flag = tmp_path / "a.pmml", tmp_path / "b.xml"
    done = run_cli("export", str(model), "--out", str(by_suffix))
    assert done.returncode == 0, done.stderr
    done = run_cli("export", str(model), "--format", "pmml", "--out", str(by_flag))
    assert done.returncode == 0, done.stderr
    assert by_suffix.read_bytes() == by_flag.read_bytes()
    from dtcore.export import load_model

    assert by_suffix.read_text(encoding="utf-8") == to_pmml(load_model(model))
    bad = run_cli("export", str(model), "--out", str(tmp_path / "c.xml"))
    assert bad.returncode != 0 and ".pmml" in bad.stderr and ".html" in bad.stderr
