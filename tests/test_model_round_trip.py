"""The suite-wide round trip (``tests/model_round_trip.py``) reads the document ``dumps_model``
writes: its compact text differs from the model file in whitespace only, for every snapshot case
(ID3, C4.5 and CART; classes and regression)."""

import json

import pytest

from dtcore.export.model_json import dumps_model
from tests.model_round_trip import model_text
from tests.snapshot_cases import CASES, fit_case


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_compact_text_is_the_model_file_without_its_indentation(case):
    est = fit_case(case)
    compact = model_text(est)
    assert "\n" not in compact
    assert json.loads(compact) == json.loads(dumps_model(est))
    # the same bytes once indented as dumps_model indents: nothing but whitespace differs
    again = json.dumps(json.loads(compact), ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    assert again == dumps_model(est)
