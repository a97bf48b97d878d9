"""Issue 24: an XGBoost tree opened in the app. The Data page's "Open a model" takes the JSON
file in a real browser, and the Train & tree page draws the file's tree (its feature names) and
says its leaves are raw scores, not probabilities."""

from __future__ import annotations

import pytest
import xgboost as xgb
from sklearn.datasets import load_iris

from tests.browser.test_screenshots import open_page, script_done

pytestmark = pytest.mark.browser


def test_an_opened_xgboost_tree_is_drawn_on_the_train_page(page, app_url, tmp_path):
    X, y = load_iris(return_X_y=True, as_frame=True)
    X.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    model_file = tmp_path / "iris-xgb.json"
    xgb.XGBClassifier(n_estimators=2, max_depth=2, n_jobs=1).fit(X, y).save_model(model_file)
    open_page(page, app_url, "data", lang="en")
    script_done(page, timeout=60_000)
    page.get_by_text("Open a model").first.click()
    page.locator(".st-key-open_model_0 input[type=file]").set_input_files(str(model_file))
    page.get_by_text("XGBoost JSON model, tree 0 of 6").first.wait_for(timeout=60_000)
    script_done(page, timeout=60_000)
    page.locator("[data-testid=stMain]").get_by_role("link", name="Train & tree").first.click()
    chart = page.locator('[data-testid="stGraphVizChart"] svg').first
    chart.wait_for(timeout=60_000)
    script_done(page, timeout=60_000)
    drawn = chart.text_content() or ""
    assert "petal_length" in drawn or "petal_width" in drawn
    assert page.get_by_text("not a probability").count() >= 1
    assert page.get_by_text("It scores class 0").count() >= 1
    page.screenshot(path=str(tmp_path / "open-model.png"), full_page=True)
