"""A download's words follow the page's language; in English they are dtcore's own, so the
download is byte for byte what ``dtcore export`` writes (words passed to ``to_dot`` are escaped:
an English download wrote "parent&#39;s majority" where the command writes "parent's"). The
catalogue's English for the standalone page is ``PAGE_WORDS``, word for word."""

from __future__ import annotations

import dtcore
from dtcore import ID3Classifier, export
from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from tests.datasets import DATA
from ui import i18n
from ui.sections.downloads import FORMATS, wording
from ui.views.tree import download_words


def labor_id3():
    X, y, names, kinds, cats, _, _ = prepare_training(read_table(DATA / "labor.csv"), "class")
    return ID3Classifier().fit(
        X, y, feature_names=names, feature_kinds=kinds, categories=cats, target_name="class"
    )


def test_english_downloads_are_the_commands_and_chinese_ones_are_chinese():
    est = labor_id3()
    assert download_words("en") is None
    english = FORMATS["dot"].build(est, wording(est, "en"))
    assert english == export.to_dot(est) and "parent's majority" in english  # empty branches
    chinese = FORMATS["dot"].build(est, wording(est, "zh"))
    assert "样本数" in chinese and "父节点多数类" in chinese and "samples" not in chinese


def test_the_html_page_in_chinese_and_english_as_the_command_writes_it():
    est = labor_id3()
    svg = export.render(export.to_dot(est), "svg").decode("utf-8")
    assert FORMATS["html"].build(est, wording(est, "en")) == export.to_html(est, svg)
    page = FORMATS["html"].build(est, wording(est, "zh"))
    assert '<html lang="zh">' in page and "<h1>class：ID3 分类决策树</h1>" in page
    assert "追踪一条样本" in page and "全部展开" in page and "样本数" in page
    assert "Trace a sample" not in page and "samples =" not in page


def test_an_imported_trees_page_in_chinese_says_what_it_is_in_chinese(tmp_path):
    import xgboost as xgb
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    xgb.XGBClassifier(n_estimators=2, max_depth=2, n_jobs=1).fit(X[:, :3], y).save_model(tmp_path / "m.json")
    est = dtcore.load_model(tmp_path / "m.json", tree=1)
    w = wording(est, "zh")
    assert w.title == "margin contribution: XGBoost JSON model, 共 2 棵中的第 1 棵"
    assert w.about is not None and w.about[0] == i18n.translate("opened.raw_score", "zh")
    assert w.about[-1].startswith("来源说明：目标函数 binary:logistic：叶节点保存边际贡献"), w.about


def test_the_catalogue_has_every_page_word_in_dtcores_english():
    words = {
        k.removeprefix("standalone."): v for k, v in i18n.CATALOGUE.items() if k.startswith("standalone.")
    }
    assert set(words) == set(export.PAGE_WORDS)
    for key, english in export.PAGE_WORDS.items():
        assert words[key][0] == english, key
