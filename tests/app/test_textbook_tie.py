"""Issue 27 item 7: where the root's test won a tie by column order, the tree's caption (Train)
and the Splits page say so, in both languages."""

from __future__ import annotations

from tests.app.apptest import start

TIE_EN = "脐部 and 色泽 tie at information gain 0.2755; the first column wins (脐部)."


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_the_textbook_sample_says_its_root_tie_on_train_and_splits():
    at = start(sample="watermelon_2.0_split", algo="id3")
    assert not at.exception and not at.error
    assert TIE_EN in captions(at)
    at.switch_page("pages/splits.py").run()
    assert not at.exception and not at.error
    assert TIE_EN in captions(at)


def test_the_tie_in_chinese():
    at = start(sample="watermelon_2.0_split", algo="id3", lang="zh")
    assert not at.exception
    assert "脐部与色泽的信息增益相同（0.2755），取排在最前的列（脐部）。" in captions(at)


def test_no_tie_note_where_the_root_wins_outright():
    at = start(sample="watermelon_3.0", algo="id3")
    assert not at.exception
    assert not [c for c in captions(at) if "tie at" in c]
