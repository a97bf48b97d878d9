"""The app's numbers come from dtcore.numbers: a score that rounds to zero prints "0.000" on the
growth page (its copy had no −0.000 guard) and the metrics use the one 4-digit format."""

from types import SimpleNamespace

from dtcore.numbers import fmt_score
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
