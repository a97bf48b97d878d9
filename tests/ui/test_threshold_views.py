"""The split explorer prints C4.5's stored threshold with the midpoint beside it where they
differ (watermelon 3.0: 密度 ≤ 0.36 (midpoint 0.3815), in both languages), and never rounds a
threshold across a training value of its node (issue 16 item 4)."""

import numpy as np
import pandas as pd

from dtcore import explain
from dtcore.estimators import make_estimator
from tests.dtcore.test_explain import fit
from ui import i18n
from ui.views.splits import candidate_label, describe_test, ranking_rows


def tr_in(lang):
    return lambda key, **values: i18n.translate(key, lang, **values)


def test_c45_explorer_shows_release_8_threshold_and_the_midpoint():
    est, X, y = fit("watermelon_3.0", "c45")
    rep = explain.split_report(est, X, y, None, 0)
    j = est.schema_.index("密度")
    test = rep.features[j].test
    assert test.cuts == (0.36,) and test.midpoint == 0.3815
    s = est.schema_
    assert describe_test(s, test, t=tr_in("en")) == "密度 ≤ 0.36 (midpoint 0.3815)"
    assert describe_test(s, test, t=tr_in("zh")) == "密度 ≤ 0.36（中点 0.3815）"
    assert describe_test(s, test) == "密度 ≤ 0.36"  # without a language: the test alone
    rows = ranking_rows(rep, s, tr_in("en"))
    col = i18n.translate("splits.col.test", "en")
    assert "密度 ≤ 0.36 (midpoint 0.3815)" in [r[col] for r in rows]
    # the candidate the preview starts from is the same test, with its midpoint
    k = int(rep.features[j].best)
    nd = explain.explainer_data(est, X, y, None, 0)
    cand = explain.candidate_test(nd, rep, j, k)
    assert describe_test(s, cand, t=tr_in("zh")) == "密度 ≤ 0.36（中点 0.3815）"
    # the tree's own test at the node below 纹理 = 清晰
    node = int(np.flatnonzero(est.tree_.feature == j)[0])
    below = explain.split_report(est, X, y, None, node)
    assert describe_test(s, below.tree_test, t=tr_in("en")) == "密度 ≤ 0.36 (midpoint 0.3815)"


def test_cart_and_id3_show_the_midpoint_alone():
    for algo in ("cart", "id3"):
        est, X, y = fit("watermelon_3.0", algo, **({"continuous": "threshold"} if algo == "id3" else {}))
        rep = explain.split_report(est, X, y, None, 0)
        test = rep.features[est.schema_.index("密度")].test
        assert test.midpoint is None
        assert describe_test(est.schema_, test, t=tr_in("en")) == "密度 ≤ 0.3815"


def test_explorer_never_rounds_across_a_training_value():
    x = np.array([0.10, 0.11, 0.12, 0.12341, 0.12343, 0.13, 0.14, 0.15])
    y = np.array(["a"] * 4 + ["b"] * 4)
    est = make_estimator("cart").fit(pd.DataFrame({"x": x}), y)
    Xe = est.encode(pd.DataFrame({"x": x}).to_numpy(dtype=object))
    yc = np.searchsorted(est.classes_, y)
    rep = explain.split_report(est, Xe, yc, None, 0)
    rec = rep.features[0]
    # four significant digits would print 0.1234, below the value 0.12341 that goes left
    assert describe_test(est.schema_, rec.test) == "x ≤ 0.12342"
    assert describe_test(est.schema_, rep.tree_test) == "x ≤ 0.12342"
    c45 = make_estimator("c45", min_cases=1).fit(pd.DataFrame({"x": x}), y)
    rep = explain.split_report(c45, Xe, yc, None, 0)
    k = int(rep.features[0].best)
    assert candidate_label(rep.features[0], k, c45.schema_, "c45").startswith("≤ 0.12342 ·")
    assert describe_test(c45.schema_, rep.features[0].test, t=tr_in("en")) == "x ≤ 0.12341 (midpoint 0.12342)"
