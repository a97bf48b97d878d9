"""Builders report their progress to a listener (dtcore.progress), and a listener can stop them."""

import numpy as np
import pytest

from dtcore.c45 import C45Classifier
from dtcore.cart.estimator import CARTClassifier, CARTRegressor
from dtcore.id3.estimator import ID3Classifier
from dtcore.progress import Progress, report, reporting

rng = np.random.default_rng(7)
X = rng.integers(0, 6, size=(3000, 4)).astype(float)
Y = (X[:, 0] + X[:, 1] + rng.integers(0, 3, 3000) > 6).astype(int)

ESTIMATORS = [
    CARTClassifier(),
    CARTClassifier(max_leaf_nodes=20),
    CARTRegressor(max_depth=6),
    C45Classifier(prune=False, collapse=False),
    ID3Classifier(),
    ID3Classifier(max_leaf_nodes=8),
]


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: f"{type(e).__name__}{e.get_params()}")
def test_every_builder_reports_monotone_progress_within_its_total(est):
    seen: list[Progress] = []
    with reporting(seen.append):
        est.fit(X, Y)
    assert len(seen) >= 2
    assert all(p.stage == "grow" and 0 <= p.done <= p.total for p in seen)
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    assert seen[-1].nodes <= est.node_count


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_a_listener_that_raises_stops_the_fit_where_it_stands(est):
    class Stop(Exception):
        pass

    calls = 0

    def stop_on_second(_p):
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Stop

    with pytest.raises(Stop), reporting(stop_on_second):
        est.fit(X, Y)
    assert calls == 2


def test_no_listener_after_the_block_and_the_same_tree_with_or_without_one():
    plain = CARTClassifier().fit(X, Y)
    with reporting(lambda p: None):
        listened = CARTClassifier().fit(X, Y)
    assert plain.tree_.to_dict() == listened.tree_.to_dict()
    report("grow", 1, 2)  # nobody listens: nothing happens
    assert Progress("grow", 3, 4).fraction == 0.75 and Progress("grow", 1, 0).fraction == 0.0
