"""The standalone HTML page (``dtcore export m.json --out tree.html``) opened from disk in
Chromium with the network off (offline, and a route that fails any request not for a file):
it draws the tree, pans and zooms, folds a subtree on a click and unfolds it, finds nodes by
feature or label, and shows a sample's path as dtcore routes it (a missing value down every
branch for C4.5); user text with markup stays text."""

from __future__ import annotations

import json

import pytest

from dtcore import C45Classifier
from dtcore.export import save_model
from dtcore.export.html import page_data, sample_path
from tests.cli_runner import run_cli
from tests.dtcore.whatif_models import fitted


@pytest.fixture
def offline(browser):
    """A page with the network off; every request that is not for a file is recorded and fails."""
    ctx = browser.new_context(viewport={"width": 1300, "height": 950}, device_scale_factor=1, locale="en-US")
    ctx.set_offline(True)
    seen: list[str] = []

    def gate(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            seen.append(route.request.url)
            route.abort()

    ctx.route("**/*", gate)
    page = ctx.new_page()
    page.on("pageerror", lambda exc: seen.append(f"pageerror {exc}"))
    page.on("dialog", lambda d: (seen.append(f"dialog {d.message}"), d.dismiss()))
    page.on("console", lambda m: seen.append(f"console {m.text}") if m.type == "error" else None)
    page.seen = seen  # type: ignore[attr-defined]
    yield page
    ctx.close()


def export_page(tmp_path, est, sample=None, name="tree.html"):
    model, out = tmp_path / "m.json", tmp_path / name
    save_model(est, model)
    args = ["export", str(model), "--out", str(out)]
    if sample is not None:
        args += ["--sample", json.dumps(sample, ensure_ascii=False)]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return out


def open_page(page, path):
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=15000)


def view_box(page):
    return [float(v) for v in page.get_attribute("#dt-tree .dt-stage svg", "viewBox").split()]


def classes_of(page, cls):
    ids = page.eval_on_selector_all(f"#dt-tree g.node[id^=dtnode].{cls}", "els => els.map(e => e.id)")
    return sorted(int(i[len("dtnode") :]) for i in ids)


def test_page_from_disk_pans_folds_searches_and_traces_offline(offline, tmp_path):
    est = fitted("watermelon_3.0", "cart")[0]
    names = est.schema_.names
    sample = {n: v for n, v in zip(names, fitted("watermelon_3.0", "cart")[1][4].tolist())}
    sample[names[0]] = None  # one missing value: CART's learned direction
    path = export_page(tmp_path, est, sample)
    text = path.read_text(encoding="utf-8")
    assert "<script src" not in text and "<link" not in text and "@import" not in text
    open_page(offline, path)
    t = est.tree_
    assert offline.locator('#dt-tree g[id="dtnode0"]').count() == 1
    assert offline.locator("#dt-tree g.node[id^=dtnode]").count() == t.node_count

    # pan (drag) and zoom (wheel) move the view box
    before = view_box(offline)
    box = offline.locator("#dt-tree .dt-frame").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    offline.mouse.move(cx, cy)
    offline.mouse.down()
    offline.mouse.move(cx + 150, cy + 60, steps=6)
    offline.mouse.up()
    panned = view_box(offline)
    assert panned[0] < before[0] and panned[1] < before[1] and panned[2:] == before[2:]
    offline.mouse.wheel(0, 300)
    assert view_box(offline)[2] > panned[2]
    offline.click("#dt-tree .dt-fit")
    # "fit" shows the whole picture (the frame opens at a readable scale, issue 27, which for a
    # picture wider than the frame is a window around the root)
    whole = offline.locator("#dt-tree .dt-stage svg").evaluate(
        "(s) => { const b = s.querySelector('g').getBBox(); return [b.width, b.height]; }"
    )
    shown = view_box(offline)
    assert shown[2] >= whole[0] - 1 and shown[3] >= whole[1] - 1

    # the sample's path is dtcore's
    want = sample_path(est, sample)
    assert offline.get_attribute("#dt-result", "data-path") == ",".join(map(str, want))
    assert classes_of(offline, "dt-path") == want
    assert "predicted class" in offline.inner_text("#dt-result")

    # a click on an internal node folds its subtree, a second one unfolds it
    node = int(next(n for n in range(1, t.node_count) if t.feature[n] >= 0))
    below = t.subtree(node)[1:].tolist()
    offline.locator(f'#dt-tree g[id="dtnode{node}"]').click()
    assert classes_of(offline, "dt-hidden") == below
    assert all(not offline.locator(f'#dt-tree g[id="dtnode{k}"]').is_visible() for k in below)
    assert offline.locator(f'#dt-tree g[id="dtedge{node}_{below[0]}"]').is_hidden()
    assert offline.locator("#dt-tree text.dt-badge").text_content() == f"+{len(below)} folded"
    offline.locator(f'#dt-tree g[id="dtnode{node}"]').click()
    assert classes_of(offline, "dt-hidden") == []

    # search by feature name and by label
    feature = names[int(t.feature[0])]
    offline.fill("#dt-search", feature)
    found = classes_of(offline, "dt-match")
    assert set(found) >= {int(n) for n in (t.feature == t.feature[0]).nonzero()[0]}
    assert found == [i for i, r in enumerate(page_data(est)["nodes"]) if feature.lower() in r["search"]]
    assert offline.inner_text("#dt-search-count").startswith(f"{len(found)} node(s) match")
    label = est.schema_.classes[1]
    offline.fill("#dt-search", label)
    assert classes_of(offline, "dt-match") == [
        i for i, r in enumerate(page_data(est)["nodes"]) if label.lower() in r["search"]
    ]
    offline.fill("#dt-search", "")
    assert classes_of(offline, "dt-match") == []

    # the form traces another sample: a number typed in (the root's, across its cut), then cleared
    j = int(next(k for k, f in enumerate(est.schema_.features) if not f.is_categorical))
    typed = dict(sample, **{names[j]: 0.9})
    offline.fill(f'#dt-fields input[data-feature="{j}"]', "0.9")
    offline.click("#dt-form button[type=submit]")
    assert offline.get_attribute("#dt-result", "data-path") == ",".join(map(str, sample_path(est, typed)))
    offline.click("#dt-clear")
    assert offline.get_attribute("#dt-result", "data-path") is None
    assert not offline.seen, offline.seen


def test_a_missing_value_goes_down_every_branch_as_c45_routes_it(offline, tmp_path):
    est, X, _ = fitted("watermelon_2.0_missing", "c45")
    names = est.schema_.names
    root = names[int(est.tree_.feature[0])]
    sample = dict(zip(names, X[0].tolist()))
    sample[root] = None
    open_page(offline, export_page(tmp_path, est, sample))
    want = sample_path(est, sample)
    assert len(est.tree_.children_of(0)) > 1 and set(est.tree_.children_of(0).tolist()) <= set(want)
    assert offline.get_attribute("#dt-result", "data-path") == ",".join(map(str, want))
    words = offline.inner_text("#dt-result")
    assert "every branch" in words
    proba = est.predict_proba([[sample[n] for n in names]])[0]
    top = est.classes_[int(proba.argmax())]
    assert f"predicted class {top} " in words
    # choose the root's value in the form: one branch only
    offline.select_option(f'#dt-fields select[data-feature="{names.index(root)}"]', index=1)
    offline.click("#dt-form button[type=submit]")
    chosen = dict(sample, **{root: est.schema_.features[names.index(root)].categories[0]})
    assert offline.get_attribute("#dt-result", "data-path") == ",".join(map(str, sample_path(est, chosen)))
    assert not offline.seen, offline.seen


def test_user_text_with_markup_stays_text(offline, tmp_path):
    evil = "<img src=x onerror=alert(1)>"
    end = "</script><script>alert(2)</script>"
    X = [["a", 1.0], ["b", 2.0], ["a", 3.0], ["b", 4.0]] * 3
    y = [end, evil, evil, end] * 3
    est = C45Classifier().fit(X, y, feature_names=[evil, end], feature_kinds=["categorical", "continuous"])
    open_page(offline, export_page(tmp_path, est, {evil: "a", end: 2.5}))
    assert offline.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0
    assert offline.evaluate("document.scripts.length") == 2  # the JSON and the page's module
    assert evil in offline.inner_text("#dt-fields") and end in offline.inner_text("#dt-fields")
    assert offline.inner_text("#dt-result").startswith("predicted class ")
    assert not offline.seen, offline.seen


def test_two_notebook_views_in_one_page_each_work_in_their_iframe(offline):
    """``dtcore.show`` and ``_repr_html_`` as Jupyter puts them: side by side in one document,
    each page in its sandboxed iframe with its own ids, both drawn, one tracing its sample."""
    import dtcore

    c45, X, _ = fitted("watermelon_2.0_missing", "c45")
    cart = fitted("iris", "cart")[0]
    row = dict(zip(c45.schema_.names, X[2].tolist()))
    offline.set_content(
        "<!doctype html><html><body>"
        + dtcore.show(c45, x=row)._repr_html_()
        + cart._repr_html_()
        + "</body></html>"
    )
    frames = [f for f in offline.frames if f != offline.main_frame]
    assert len(frames) == 2
    for f in frames:
        f.wait_for_selector("body[data-ready='1']", timeout=15000)
    sizes = [f.locator("#dt-tree g.node[id^=dtnode]").count() for f in frames]
    assert sizes == [c45.tree_.node_count, cart.tree_.node_count]
    assert frames[0].get_attribute("#dt-result", "data-path") == ",".join(map(str, sample_path(c45, row)))
    assert frames[1].get_attribute("#dt-result", "data-path") is None
    inner = int(next(n for n in range(1, cart.tree_.node_count) if cart.tree_.feature[n] >= 0))
    frames[1].locator(f'#dt-tree g[id="dtnode{inner}"]').click()
    assert frames[1].locator("#dt-tree g.dt-hidden").count() > 0
    assert frames[0].locator("#dt-tree g.dt-hidden").count() == 0  # the other view is untouched
    assert not offline.seen, offline.seen


def test_an_imported_boosted_tree_says_what_it_is_and_traces_a_raw_score(offline, tmp_path):
    """An XGBoost member's page names its source and member (it said "cart regression tree"),
    says its leaves hold a raw score with the file's note, and a traced sample ends on "raw score
    of this tree" (it said "predicted value": the model adds every tree's leaf)."""
    import xgboost as xgb
    from sklearn.datasets import load_breast_cancer

    import dtcore

    X, y = load_breast_cancer(return_X_y=True)
    source = tmp_path / "xgb.json"
    xgb.XGBClassifier(n_estimators=3, max_depth=2, n_jobs=1).fit(X[:, :4], y).save_model(source)
    est = dtcore.load_model(source, tree=1)
    open_page(offline, export_page(tmp_path, est, {"f0": 15.0}))
    head = offline.inner_text("header")
    assert "XGBoost JSON model, tree 1 of 3" in head and "cart" not in head, head
    assert "not a probability" in head and f"Source: {est.origin_.note}." in head, head
    traced = offline.inner_text("#dt-result")
    assert traced.startswith("raw score of this tree "), traced
    leaf = sample_path(est, {"f0": 15.0})[-1]
    assert float(traced.split()[5].rstrip(";")) == pytest.approx(est.tree_.value[leaf, 0], rel=1e-5), traced
    assert not offline.seen, offline.seen
