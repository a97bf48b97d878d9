"""The estimators' numpydoc docstrings: every constructor parameter is documented, and the
Examples run and print what they say."""

import doctest
import importlib
import inspect

import pytest

from dtcore import estimators

ESTIMATORS = [
    estimators.estimator_class(a, t) for a in sorted(estimators.ALGORITHMS) for t in estimators.tasks_of(a)
]


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_every_parameter_is_documented(cls):
    doc = inspect.getdoc(cls)
    for section in ("Parameters\n----------", "Attributes\n----------", "Examples\n--------"):
        assert section in doc, f"{cls.__name__} lacks {section.splitlines()[0]}"
    params = doc.split("Parameters\n----------")[1].split("Attributes\n----------")[0]
    for name in inspect.signature(cls.__init__).parameters:
        if name != "self":
            assert f"\n{name} : " in "\n" + params, f"{cls.__name__}: {name} is not documented"


@pytest.mark.parametrize("module", sorted({c.__module__ for c in ESTIMATORS}))
def test_examples_run(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
