"""A downloaded picture's words follow the page's language; in English they are dtcore's own, so
the download is byte for byte what ``dtcore export`` writes (words passed to ``to_dot`` are
escaped: an English download wrote "parent&#39;s majority" where the command writes "parent's")."""

from __future__ import annotations

from dtcore import ID3Classifier, export
from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from tests.datasets import DATA
from ui.sections.downloads import FORMATS
from ui.views.tree import download_words


def test_english_downloads_are_the_commands_and_chinese_ones_are_chinese():
    X, y, names, kinds, cats, _, _ = prepare_training(read_table(DATA / "labor.csv"), "class")
    est = ID3Classifier().fit(X, y, feature_names=names, feature_kinds=kinds, categories=cats)
    assert download_words("en") is None
    english = FORMATS["dot"].build(est, download_words("en"))
    assert english == export.to_dot(est) and "parent's majority" in english  # empty branches
    chinese = FORMATS["dot"].build(est, download_words("zh"))
    assert "样本数" in chinese and "父节点多数类" in chinese and "samples" not in chinese
