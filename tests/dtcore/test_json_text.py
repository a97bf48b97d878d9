"""``dtcore.export.json_text.dumps_indented`` writes what ``json.dumps(..., ensure_ascii=False,
indent=1, allow_nan=False)`` writes, byte for byte, and refuses what it refuses."""

import json
import math

import numpy as np
import pytest

from dtcore.cart.estimator import CARTClassifier
from dtcore.export import dumps_model
from dtcore.export.json_text import dumps_indented
from dtcore.export.model_json import model_to_dict
from dtcore.id3 import ID3Classifier


def reference(value):
    return json.dumps(value, ensure_ascii=False, indent=1, allow_nan=False)


VALUES = [
    None,
    True,
    0,
    -0.0,
    1e-7,
    1e300,
    2**70,
    'a"b\\c\n\t\u2028中文\x00\x1f',
    [],
    {},
    [1, 2, 3],
    [1.5, 2.0, -0.0, 1e16, 0.1],
    ["x", "中", ""],
    [True, False, None],
    [1, 2.0, "3", None, [], {}],
    (1, (2.5, "t")),
    {"a": [], "b": {}, "c": [{"d": [1, [2, []]]}], "中": {"e": (None, True)}},
    [[1, 2], [3.5], ["s"], [[], [[]]]],
    {"": 1, 'k"': [2**63, -1]},
    [np.float64(0.25), np.float64(1e-300)],  # float subclasses: float's own text, as json writes
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_the_text_is_json_dumps_indent_1(value):
    assert dumps_indented(value) == reference(value)


def test_a_model_is_written_as_json_dumps_wrote_it():
    rng = np.random.default_rng(0)
    X = np.c_[rng.normal(size=(400, 3)), rng.choice(["红", "蓝", 'x"y'], size=(400, 1))].astype(object)
    X[rng.random(400) < 0.05, 0] = np.nan
    y = rng.choice(["是", "否"], size=400)
    for est in (CARTClassifier(max_depth=5), ID3Classifier()):
        est.fit(X if isinstance(est, CARTClassifier) else X[:, 3:], y)
        d = model_to_dict(est)
        assert dumps_model(est) == reference(d) + "\n"


@pytest.mark.parametrize("bad", [math.nan, [1.0, math.inf], {"x": -math.inf}, [1, math.nan]])
def test_numbers_json_cannot_hold_are_refused(bad):
    with pytest.raises(ValueError):
        reference(bad)
    with pytest.raises(ValueError):
        dumps_indented(bad)


@pytest.mark.parametrize("bad", [{1: "a"}, [object()], {"a": np.int64(3)}, {1, 2}])
def test_other_types_are_refused(bad):
    with pytest.raises(TypeError):
        dumps_indented(bad)
