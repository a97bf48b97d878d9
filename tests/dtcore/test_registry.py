"""dtcore's registries: algorithms/criteria/UI parameters (dtcore.estimators) and pruning methods
(dtcore.pruning.methods) agree with the classes and with what the app shows."""

import pytest

from dtcore import estimators as reg
from dtcore.pruning import METHODS
from dtcore.pruning import methods as pm


@pytest.mark.parametrize("algorithm", sorted(reg.ALGORITHMS))
def test_every_declared_criterion_and_param_is_accepted_by_the_class(algorithm):
    for task in reg.tasks_of(algorithm):
        cls = reg.estimator_class(algorithm, task)
        names = set(cls._param_names())
        crits = reg.criteria(algorithm, task)
        assert crits and crits[0] == cls().criterion  # the default first
        for c in crits:
            cls(criterion=c)._validate_params()
        for p in reg.ui_params(algorithm):
            assert p.name in names, (algorithm, p.name)
            if p.kind == "select":
                assert p.default in p.options
            elif p.kind in ("int", "float"):
                assert p.lo <= p.default <= p.hi


def test_tasks_and_algorithms():
    assert reg.algorithms_for("classification") == ("c45", "cart", "id3")
    assert reg.algorithms_for("regression") == ("cart",)
    assert reg.criteria("id3", "regression") == () and reg.criteria("nope", "classification") == ()
    assert reg.ui_params("nope") == ()


def test_cli_prune_offers_the_registry_methods():
    from dtcore.cli import build_parser

    args = build_parser().parse_args(["prune", "m.json", "--method", "ebp"])
    assert args.method == "ebp"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["prune", "m.json", "--method", "nope"])


def test_the_regression_methods_are_the_ones_prune_accepts_for_a_regression_tree():
    import numpy as np

    from dtcore.cart.estimator import CARTRegressor
    from dtcore.pruning import prune

    X = np.arange(20.0).reshape(-1, 1)
    y = X[:, 0] ** 2
    tree = CARTRegressor(max_depth=3).fit(X, y).tree_
    data = dict(X_train=X, y_train=y, X_valid=X, y_valid=y, alpha=0.0)
    for method in METHODS:
        if method in pm.methods_for("regression"):
            assert prune(tree, method, **data)[0].node_count >= 1
        else:
            with pytest.raises(ValueError):
                prune(tree, method, **data)
