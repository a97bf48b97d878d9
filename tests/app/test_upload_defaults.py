"""An uploaded table starts with honest defaults (issue 16, items 12–13): held-out validation and
test rows once it has enough rows, test accuracy first, and a depth limit (said next to the tree)
for the algorithms that do not prune by default once it is big."""

from __future__ import annotations

import numpy as np

from tests.app.apptest import start
from ui.services.split import DEFAULT_DEPTH, HOLDOUT_MIN_ROWS, LIMIT_DEPTH_ABOVE_ROWS

DATA, TRAIN = "pages/data.py", "pages/train.py"


def _csv(n: int, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).round(3)
    y = np.where(x[:, 0] + rng.normal(scale=1.0, size=n) > 0, "yes", "no")
    return ("a,b,c,y\n" + "".join(f"{r[0]},{r[1]},{r[2]},{v}\n" for r, v in zip(x, y))).encode()


def _upload(n: int, algo: str = "cart"):
    at = start(algo=algo)
    at.switch_page(DATA).run()
    at.file_uploader(key="upload").set_value((f"t{n}.csv", _csv(n), "text/csv")).run()
    assert not at.exception
    at.switch_page(TRAIN).run()
    assert not at.exception
    return at


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def test_a_big_upload_holds_out_rows_limits_cart_and_says_so():
    n = LIMIT_DEPTH_ABOVE_ROWS + 400
    at = _upload(n)
    assert (at.session_state["valid"], at.session_state["test"]) == (15, 15)
    est = at.session_state["result"].estimator
    assert est.get_params()["max_depth"] == DEFAULT_DEPTH and est.get_depth() <= DEFAULT_DEPTH
    assert f"Grown to depth {DEFAULT_DEPTH}" in _captions(at)
    labels = [m.label for m in at.metric]
    assert labels[:3] == ["Accuracy · test", "Accuracy · validation", "Accuracy · training"]


def test_c45_keeps_its_own_pruning_and_a_small_upload_trains_on_every_row():
    at = _upload(LIMIT_DEPTH_ABOVE_ROWS + 400, algo="c45")
    assert "Grown to depth" not in _captions(at)  # C4.5 prunes: no depth limit set for it
    small = _upload(HOLDOUT_MIN_ROWS - 40)
    assert (small.session_state["valid"], small.session_state["test"]) == (0, 0)
    assert small.session_state["result"].estimator.get_params()["max_depth"] in (None, 0)
    assert "scores on the training rows only" in _captions(small)
