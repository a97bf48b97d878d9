"""explain_prediction: the path, C4.5's fractions and the mixing equal the model's own
predict_proba / predict_value on the bundled samples (rows with missing values too), the
watermelon 2.0α fractions are the textbook's, and the counterfactuals are what the tree says."""

from fractions import Fraction

import numpy as np
import pytest

from dtcore.explain.prediction import explain_prediction, explanation_text, nice_fraction
from tests.dtcore.whatif_models import cases, fitted, with_holes


@pytest.mark.parametrize(("sample", "algo"), cases())
def test_explanation_equals_the_models_prediction(sample, algo):
    got = fitted(sample, algo)
    if got is None:
        pytest.skip("regression sample: CART only")
    est, _, Xe = got
    rows = with_holes(Xe[:25], seed=len(sample))
    tree = est.tree_
    classifier = est.schema_.is_classifier
    want = tree.predict_proba(rows) if classifier else tree.predict_value(rows)
    for i, x in enumerate(rows):
        ex = explain_prediction(est, x)
        assert sum(r.weight for r in ex.leaves) == pytest.approx(1.0, abs=1e-12)
        if classifier:
            np.testing.assert_allclose(ex.proba, want[i], rtol=0, atol=1e-12)
            assert ex.prediction == est.schema_.classes[int(np.argmax(want[i]))] or np.isclose(
                np.max(want[i]), np.sort(want[i])[-2]
            )
        else:
            assert ex.value == pytest.approx(want[i], rel=1e-12, abs=1e-9)
        # every edge goes from a node to its child, the leaves are the tree's route
        r, leaf, w = tree.route(x[None, :])
        assert sorted(leaf[w > 0].tolist()) == sorted(rr.leaf for rr in ex.leaves)
        for s in ex.steps:
            assert tree.parent[s.child] == s.node


def test_watermelon_missing_fractions_and_mixing():
    est, X, Xe = fitted("watermelon_2.0_missing", "c45")
    x = Xe[7]  # row 8: 纹理 missing
    ex = explain_prediction(est, x)
    assert [s.share_text for s in ex.steps] == ["7/15", "1/3", "1/5"]
    assert all(s.how == "spread" for s in ex.steps)
    assert ex.mixing[:3] == ["w(#1) = 7/15 ≈ 0.4667", "w(#2) = 1/3 ≈ 0.3333", "w(#3) = 1/5 = 0.2"]
    assert ex.mixing[3] == "P(是) = 7/15 × 97/119 + 1/3 × 4/17 + 1/5 × 1/17 = 8/17 ≈ 0.4706"
    assert ex.prediction == "否"
    # the printed sum is exact
    assert Fraction(7, 15) * Fraction(97, 119) + Fraction(1, 3) * Fraction(4, 17) + Fraction(1, 5) * Fraction(
        1, 17
    ) == Fraction(8, 17)
    assert ex.proba[0] == pytest.approx(8 / 17, abs=1e-15)
    text = explanation_text(ex)
    assert "share 7/15" in text and "prediction: 否" in text
    notes = ex.edge_notes()
    assert notes[(0, 1)] == "missing · 7/15"


def test_unpruned_c45_fractions_at_depth():
    """Deeper spreads multiply their shares; the product is the leaf's weight."""
    from dtcore.estimators import make_estimator

    est0, X, _ = fitted("watermelon_2.0_missing", "c45")
    est = make_estimator("c45", "classification", prune=False, min_cases=1)
    est.fit(X, ["是"] * 8 + ["否"] * 9, feature_names=list(est0.schema_.names), target_name="好瓜")
    x = np.full(len(est.schema_.features), np.nan)
    ex = explain_prediction(est, x)
    assert len(ex.leaves) > 3
    for r in ex.leaves:
        shares = [s.share for s in ex.steps if s.child in r.path[1:]]
        assert r.weight == pytest.approx(float(np.prod(shares)))
    np.testing.assert_allclose(ex.proba, est.tree_.predict_proba(x[None, :])[0], atol=1e-12)


def test_cart_learned_direction_and_row_dict():
    est, _, _ = fitted("watermelon_3.0", "cart")
    ex = explain_prediction(est, {"色泽": "青绿", "密度": 0.5})
    first = ex.steps[0]
    assert first.name == "纹理" and first.how == "missing" and first.value == "missing"
    assert ex.prediction == "是"
    with pytest.raises(ValueError, match="does not use"):
        explain_prediction(est, {"no such column": 1})


@pytest.mark.parametrize(
    ("sample", "algo"), [("watermelon_3.0", "cart"), ("iris", "c45"), ("diabetes", "cart")]
)
def test_counterfactuals_are_what_the_tree_says(sample, algo):
    est, _, Xe = fitted(sample, algo)
    tree = est.tree_
    classifier = est.schema_.is_classifier

    def pred(x):
        return (
            int(np.argmax(tree.predict_proba(x[None, :])[0]))
            if classifier
            else tree.predict_value(x[None, :])[0]
        )

    for x in Xe[:10]:
        ex = explain_prediction(est, x)
        base = pred(x)
        for cf in ex.counterfactuals:
            assert sum(o.current for o in cf.options) == 1
            for o in cf.options:
                y = x.copy()
                if o.text.endswith("missing"):
                    y[cf.feature] = np.nan
                elif cf.kind == "categorical":
                    y[cf.feature] = est.schema_.features[cf.feature].categories.index(
                        o.text.split(" = ", 1)[1]
                    )
                else:
                    y[cf.feature] = o.high if o.high is not None else np.nextafter(o.low, np.inf)
                assert (pred(y) == base) == o.same
            if cf.flip is not None and cf.kind == "continuous" and not np.isnan(x[cf.feature]):
                assert "→" in cf.flip and cf.flip_prediction is not None


def test_nice_fraction():
    assert nice_fraction(7 / 15) == Fraction(7, 15)
    assert nice_fraction(0.1234567891) is None
    assert nice_fraction(float("nan")) is None


def test_dot_draws_the_path_bold_with_fractions_and_fades_the_rest():
    from dtcore.export import to_dot

    est, _, Xe = fitted("watermelon_2.0_missing", "c45")
    ex = explain_prediction(est, Xe[7])
    dot = to_dot(est, path=ex.edge_notes(), highlight=[r.leaf for r in ex.leaves])
    for s in ex.steps:
        line = next(x for x in dot.splitlines() if f'id="dtedge{s.node}_{s.child}"' in x)
        assert "penwidth=2.5" in line and f"<B>missing · {s.share_text}</B>" in line
    assert "<B>missing · 7/15</B>" in dot
    # a path that leaves edges out fades them and the nodes off the path
    est3, _, Xe3 = fitted("watermelon_3.0", "cart")
    ex3 = explain_prediction(est3, Xe3[0])
    dot3 = to_dot(est3, path=ex3.edge_notes())
    off = [i for i in range(est3.tree_.node_count) if i not in ex3.path_nodes]
    assert off and all(
        'fontcolor="#a0a0a0"' in next(x for x in dot3.splitlines() if x.startswith(f"node{i} [")) for i in off
    )
    assert dot3.count("penwidth=2.5") == len(ex3.steps)
    assert to_dot(est3) == to_dot(est3, path=None)  # no path: the picture as before


@pytest.mark.parametrize(("sample", "algo"), [("iris", "id3"), ("diabetes", "cart"), ("labor", "c45")])
def test_json_form_is_strict_json(sample, algo):
    import json

    est, _, Xe = fitted(sample, algo)
    for x in (Xe[0], np.full(Xe.shape[1], np.nan)):
        d = explain_prediction(est, x).to_dict()
        text = json.dumps(d, allow_nan=False, ensure_ascii=False)
        assert json.loads(text)["prediction"] == d["prediction"]
