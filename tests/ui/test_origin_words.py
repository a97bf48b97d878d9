"""The catalogue words every clause an importer can write into an origin note (dtcore's
``NOTE_CLAUSES``), its English the same as dtcore's word for word."""

from __future__ import annotations

from dtcore.export.origin import NOTE_CLAUSES
from ui import i18n


def test_every_note_clause_has_its_words_and_no_other():
    words = {k.removeprefix("origin."): v for k, v in i18n.CATALOGUE.items() if k.startswith("origin.")}
    assert set(words) - {"join"} == set(NOTE_CLAUSES)
    for key, english in NOTE_CLAUSES.items():
        assert words[key][0] == english, key
