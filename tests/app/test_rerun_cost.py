"""A rerun that does not retrain (a layout change, another depth window) builds no download payload:
the model JSON and the full DOT are written only when their button is clicked."""

from dtcore import export
from tests.app.apptest import start


def test_reruns_build_no_payloads(monkeypatch):
    calls = []
    real_dumps = export.dumps_model
    monkeypatch.setattr(export, "dumps_model", lambda est: calls.append("json") or real_dumps(est))
    at = start(sample="breast_cancer", algo="cart")
    assert not at.exception
    assert at.get("download_button"), "the Train page offers downloads"
    at.selectbox(key="layout").select("LR").run()
    at.selectbox(key="levels").select("all").run()
    assert not at.exception
    assert calls == []
