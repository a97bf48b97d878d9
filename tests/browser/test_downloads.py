"""The Train page's downloads in the page's language, as the tree on the page reads: a 中文
page's SVG and HTML page say 样本数 and 类别 (they said "samples" and "class" whatever the
language), and the HTML page's own words are 中文 too. English downloads are what ``dtcore
export`` writes (tests/ui/test_download_words.py)."""

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
    path = tmp_path / "tree.html"
    html = downloaded(page, "HTML 网页", path)
    assert "样本数" in html and "samples =" not in html
    # the page's own words in 中文 too: a traced sample reads 预测类别 …；经过节点 …
    viewer = page.context.new_page()
    viewer.goto(path.as_uri())
    viewer.wait_for_selector("body[data-ready='1']", timeout=15_000)
    viewer.locator("#dt-form button[type=submit]").click()
    traced = viewer.inner_text("#dt-result")
    assert traced.startswith("预测类别 ") and "；经过节点 0，1" in traced and ", " not in traced, traced
    assert viewer.inner_text("h2") == "追踪一条样本" and viewer.get_attribute("html", "lang") == "zh"
