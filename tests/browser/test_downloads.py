"""The Train page's pictures download in the page's language, as the tree on the page reads: a
中文 page's SVG and HTML page say 样本数 and 类别 (they said "samples" and "class" whatever the
language). English downloads are what ``dtcore export`` writes (tests/ui/test_download_words.py)."""

from __future__ import annotations

from tests.browser.test_screenshots import open_page, script_done


def downloaded(page, label: str, path) -> str:
    with page.expect_download(timeout=60_000) as dl:
        page.get_by_role("button", name=label).first.click()
    dl.value.save_as(path)
    return path.read_text(encoding="utf-8")


def test_a_chinese_pages_pictures_download_in_chinese(page, app_url, tmp_path):
    open_page(page, app_url, "", lang="zh", sample="watermelon_3.0", algo="c45")
    script_done(page, timeout=60_000)
    svg = downloaded(page, "SVG", tmp_path / "tree.svg")
    assert "样本数" in svg and "类别" in svg and "samples" not in svg, svg[:2000]
    html = downloaded(page, "HTML 网页", tmp_path / "tree.html")
    assert "样本数" in html and "samples =" not in html
