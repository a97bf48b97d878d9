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
        assert crits and crits[0] == cls().criterion          # the default first
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


def test_pruning_methods_registry_matches_the_app():
    from ui import pruning_views as pv
    assert tuple(pm.PRUNING_METHODS) == METHODS == pv.METHODS
    assert pm.CLASSIFICATION_ONLY == pv.CLASSIFICATION_ONLY
    for task in ("classification", "regression"):
        assert pm.methods_for(task) == pv.methods_for(task)
        for algo in ("cart", "c45", "id3"):
            assert pm.natural_method(algo, task) == pv.natural_method(algo, task)


def test_cli_prune_offers_the_registry_methods():
    from dtcore.cli import build_parser
    args = build_parser().parse_args(["prune", "m.json", "--method", "ebp"])
    assert args.method == "ebp"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["prune", "m.json", "--method", "nope"])
