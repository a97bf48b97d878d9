"""The notebook display, run for real: a small notebook executed headless by nbclient on an
ipykernel kernel shows a fitted estimator (its ``_repr_html_``) and ``dtcore.show(model, x=row)``
as the standalone page inside sandboxed iframes, two in one notebook sharing no ids; an unfitted
estimator shows its text repr. And the view itself: x as a mapping, a sequence or a Series."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest

import dtcore
from dtcore.export.html import sample_path
from tests.dtcore.whatif_models import fitted

ROOT = Path(__file__).resolve().parents[2]

CELLS = [
    "import dtcore\n"
    "from dtcore.data.readers import read_table\n"
    "from dtcore.cli import prepare_training\n"
    "X, y, names, kinds, cats, classes, task = prepare_training(\n"
    "    read_table('assets/samples/watermelon_2.0_missing.csv'), '好瓜', ignore=['编号'])\n"
    "est = dtcore.C45Classifier().fit(X, y, feature_names=names, feature_kinds=kinds, categories=cats)",
    "est",
    "row = dict(zip(names, X[0].tolist())); row['纹理'] = None\ndtcore.show(est, x=row)",
    "dtcore.CARTClassifier()",
]


def page_data(page: str) -> dict:
    """The data a standalone page embeds (``dtcore.export.html``'s ``dt-data`` script)."""
    m = re.search(r'<script type="application/json" id="dt-data">(.*?)</script>', page, re.S)
    assert m, page[:200]
    return json.loads(m.group(1))


def srcdoc(html_output: str) -> str:
    m = re.fullmatch(r'<iframe srcdoc="([^"]*)" sandbox="allow-scripts" [^>]*></iframe>', html_output)
    assert m, html_output[:200]
    return html.unescape(m.group(1))


@pytest.mark.slow
def test_a_notebook_run_headless_shows_the_tree_views():
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env_path}" if env_path else str(ROOT)
    try:
        NotebookClient(
            nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
        ).execute()
    finally:
        if env_path:
            os.environ["PYTHONPATH"] = env_path
        else:
            del os.environ["PYTHONPATH"]
    outputs = [cell.outputs for cell in nb.cells]
    assert not any(o.output_type == "error" for out in outputs for o in out)
    fitted_view, shown = (out[0]["data"] for out in outputs[1:3])
    assert fitted_view["text/plain"] == "C45Classifier()"
    pages = [srcdoc(fitted_view["text/html"]), srcdoc(shown["text/html"])]
    for page in pages:
        # the tree's picture, in the page's data (its script's own text names dtnode ids too)
        assert page.startswith("<!DOCTYPE html>") and 'id="dtnode0"' in page_data(page)["svg"]
        assert "纹理" in page and "<script src" not in page
    assert '"sample":null' in pages[0] and '"纹理":null' in pages[1]
    assert "text/html" not in outputs[3][0]["data"]  # unfitted: the text repr only
    assert outputs[3][0]["data"]["text/plain"] == "CARTClassifier()"


def test_show_takes_a_mapping_a_sequence_or_a_series():
    pd = pytest.importorskip("pandas")
    est, X, _ = fitted("watermelon_3.0", "c45")
    names = est.schema_.names
    row = X[3].tolist()
    want = dtcore.show(est, x=dict(zip(names, row))).page
    assert dtcore.show(est, x=row).page == want
    assert dtcore.show(est, x=pd.Series(row, index=names)).page == want
    assert dtcore.show(est, x=pd.DataFrame([row], columns=names)).page == want
    assert sample_path(est, dict(zip(names, row)))[0] == 0
    with pytest.raises(ValueError, match="the model does not have"):
        dtcore.show(est, x={"no such column": 1})
    with pytest.raises(ValueError, match="values; the model has"):
        dtcore.show(est, x=row[:-1])
    with pytest.raises(ValueError, match="not fitted"):
        dtcore.show(dtcore.CARTClassifier())


def test_the_iframe_escapes_the_page_so_markup_cannot_leave_it():
    evil = '"><script>alert(1)</script>'
    est = dtcore.CARTClassifier().fit(
        [[1.0], [2.0], [3.0], [4.0]], [evil, evil, "b", "b"], feature_names=[evil]
    )
    out = est._repr_html_()
    assert out.count("<iframe") == 1 and out.count("<script") == 0 and out.endswith("></iframe>")
    assert evil not in srcdoc(out).split('<script type="application/json"', 1)[1].split("</script>", 1)[0]


def test_the_page_is_deterministic_and_carries_no_outside_reference(tmp_path):
    est = fitted("watermelon_3.0", "cart")[0]
    page = dtcore.show(est).page
    assert page == dtcore.show(est).page
    for outside in ("<script src", "<link", "@import", 'src="http', 'href="http', "url(http"):
        assert outside not in page


def test_cli_sample_flag_is_checked(tmp_path):
    from dtcore.export import save_model
    from tests.cli_runner import run_cli

    model = tmp_path / "m.json"
    save_model(fitted("watermelon_3.0", "cart")[0], model)
    page = tmp_path / "t.html"
    for sample, words in [
        ("{not json", "--sample must be a JSON object"),
        ("[1, 2]", "--sample must be a JSON object"),
        ('{"nope": 1}', "the model does not have"),
        ('{"密度": "heavy"}', "give a number"),
    ]:
        done = run_cli("export", model, "--out", page, "--sample", sample)
        assert done.returncode == 2 and words in done.stderr, done.stderr
    done = run_cli("export", model, "--out", tmp_path / "t.svg", "--sample", "{}")
    assert done.returncode == 2 and "HTML page only" in done.stderr
    done = run_cli(
        "export", model, "--format", "html", "--out", tmp_path / "t.page", "--sample", '{"密度": 0.5}'
    )
    assert done.returncode == 0, done.stderr
    assert '"sample":{' in (tmp_path / "t.page").read_text(encoding="utf-8")
    assert not page.exists()  # a refused sample writes nothing
