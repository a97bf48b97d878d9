"""The textbook's own validation rows (issue 16, item 14): a column can name each row's set, and
the bundled watermelon 2.0 sample carries Zhou's training / validation split (section 4.3)."""

from __future__ import annotations

import numpy as np
import pytest

from dtcore.data.rowsplit import rows_from_marks
from tests.app.apptest import start

TEXTBOOK_TRAIN = [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]
TEXTBOOK_VALID = [4, 5, 8, 9, 11, 12, 13]


def test_the_textbook_sample_trains_on_its_training_rows_and_prunes_on_its_validation_rows():
    at = start(sample="watermelon_2.0_split", algo="id3")
    assert not at.exception and not at.error
    res = at.session_state["result"]
    ids = at.session_state["data"].df["编号"].to_numpy()
    assert sorted(ids[res.rows["train"]]) == TEXTBOOK_TRAIN
    assert sorted(ids[res.rows["valid"]]) == TEXTBOOK_VALID
    assert "集合" not in res.features  # the split column is no feature
    at.switch_page("pages/prune.py").run()
    at.selectbox(key="prune_method").select("rep").run()  # REP needs the validation rows
    assert not at.exception and not at.error


def test_the_data_page_offers_the_column_and_hides_the_percentages():
    at = start(sample="watermelon_2.0_split")
    at.switch_page("pages/data.py").run()
    assert not at.exception
    assert at.selectbox(key="split_column").value == "集合"
    assert not [s for s in at.slider if s.key in ("valid", "test")]
    at.selectbox(key="split_column").set_value("").run()  # back to the seeded random split
    assert [s.key for s in at.slider] == ["valid", "test"]


def test_marks_in_english_and_chinese_and_a_clear_error_otherwise():
    marks = np.array(["train", " Valid ", "测试", "训练集", "validation"], dtype=object)
    rows = rows_from_marks(np.arange(5), marks)
    assert (
        rows["train"].tolist() == [0, 3] and rows["valid"].tolist() == [1, 4] and rows["test"].tolist() == [2]
    )
    with pytest.raises(ValueError, match="holds 'maybe'"):
        rows_from_marks(np.arange(2), np.array(["train", "maybe"], dtype=object), "set")
