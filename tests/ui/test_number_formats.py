"""The app's numbers come from dtcore.numbers: a score that rounds to zero prints "0.000" on the
growth page (its copy had no −0.000 guard) and the metrics use the one 4-digit format."""

from types import SimpleNamespace

from dtcore.numbers import fmt_score, fmt_score_fine
from ui.views import growth


def t(key, **values):
    return key + " " + " ".join(f"{k}={v}" for k, v in sorted(values.items()))


def test_growth_caption_prints_a_tiny_negative_score_as_zero():
    info = SimpleNamespace(
        branch_labels=["= a", "= b"],
        branch_weights=[2.0, 3.0],
        feature="x",
        score_name="gain",
        score=-1e-17,
        runner_up="y",
        runner_up_score=-0.0004,
    )
    text = growth.split_caption(t, 1, 2, info, "root")
    assert "score=0.000" in text and "-0.000" not in text, text
    assert fmt_score(0.2634) in growth.split_caption(
        t, 1, 2, SimpleNamespace(**{**vars(info), "score": 0.2634}), "r"
    )


def test_growth_caption_gives_a_tiny_decrease_its_digits():
    """A deep split's weighted impurity decrease (1 161 rows of 70 000) was printed "0.000", its
    runner-up's too: two significant digits say how small it is and which is larger."""
    info = SimpleNamespace(
        branch_labels=["≤ 0.0097", "> 0.0097"],
        branch_weights=[14.0, 1147.0],
        feature="x3",
        score_name="impurity_decrease",
        score=0.000213,
        runner_up="x12",
        runner_up_score=0.0000387,
    )
    text = growth.split_caption(t, 1617, 1618, info, "root")
    assert "score=0.00021" in text and "score=3.9e-05" in text, text
    assert fmt_score_fine(0.2634) == fmt_score(0.2634) == "0.263"
    assert fmt_score_fine(1e-17) == fmt_score_fine(-0.0004) == fmt_score_fine(0.0) == "0.000"
    assert fmt_score_fine(None) == fmt_score(None)


def test_the_splits_ranking_gives_a_deep_nodes_weighted_decrease_its_digits():
    """At a 40-row node of a tree grown on 80 000 rows every feature's weighted decrease read
    "0.0000" in the Splits page's ranking: two significant digits, each the node's share of the
    rows times its own decrease."""
    import numpy as np

    from dtcore import explain
    from dtcore.cart.estimator import CARTClassifier
    from dtcore.numbers import fmt_fixed_fine
    from ui.views.splits import ranking_rows

    rng = np.random.default_rng(0)
    X = rng.random((80_000, 4))
    y = (X[:, 0] + 0.3 * rng.random(80_000) > 0.6).astype(int)
    est = CARTClassifier(max_depth=14).fit(X, y)
    tree = est.tree_
    node = next(i for i in range(tree.node_count) if tree.feature[i] >= 0 and 20 <= tree.n_samples[i] <= 60)
    rep = explain.report_for(explain.explainer_data(est, X, y, None, node))
    rows = ranking_rows(rep, est.schema_, lambda key, **_: key.rsplit(".", 1)[-1])
    usable = [r for r in rows if r["rank"]]
    assert usable
    share = tree.weighted_n[node] / tree.weighted_n[0]
    for row, j in zip(usable, rep.ranking, strict=False):
        decrease, weighted = rep.features[j].gain, rep.features[j].improvement
        assert 0 < weighted < 0.00005 and row["weighted_decrease"] != "0.0000", row
        assert row["weighted_decrease"] == fmt_fixed_fine(weighted, 4) == f"{weighted:.2g}"
        assert abs(weighted - share * decrease) <= 1e-12 * max(1.0, decrease), (weighted, share, decrease)
    assert fmt_fixed_fine(0.0439, 4) == "0.0439" and fmt_fixed_fine(-2e-5, 4) == "0.0000"
