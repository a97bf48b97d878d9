"""What a shared link carries beyond the settings (issue 16, item 16): the forced splits, a
short exact α, and, for a view built on an uploaded file, a notice for the receiver."""

from __future__ import annotations

import json

from tests.app.apptest import start
from tests.app.frame_pictures import BOLD, styled_lines, svg_node, tree_svg

SPLITS, TRAIN, DATA, PRUNE = "pages/splits.py", "pages/train.py", "pages/data.py", "pages/prune.py"


def _query(at) -> dict[str, str]:
    return {
        k: at.query_params[k][0] if isinstance(at.query_params[k], list) else at.query_params[k]
        for k in at.query_params
    }


def test_forced_splits_travel_in_the_link_and_replay_on_the_receivers_tree():
    at = start(SPLITS, sample="buys_computer", algo="id3")
    next(s for s in at.selectbox if s.label == "Feature").set_value("student").run()
    next(b for b in at.button if b.key == "split_force").click().run()
    assert not at.exception
    query = _query(at)
    ops = json.loads(query["forced"])
    assert ops[0][0] == 0 and ops[0][1]["feature"] == at.session_state["result"].estimator.schema_.index(
        "student"
    )
    sent = at.session_state["forced"]["ops"]
    receiver = start(TRAIN, direct=True, **query)
    assert not receiver.exception
    assert receiver.session_state["forced"]["ops"] == [(n, t) for n, t in sent]
    assert "student" in styled_lines(svg_node(tree_svg(receiver), 0), BOLD)  # the forced root test


def test_a_forced_split_that_does_not_fit_is_left_out_with_a_warning():
    at = start(TRAIN, direct=True, sample="buys_computer", algo="id3", forced='[[7,{"feature":99}]]')
    assert not at.exception
    assert any("do not fit this tree" in w.value for w in at.warning)
    assert "forced" not in _query(at)


def test_a_link_made_on_an_upload_tells_the_receiver():
    at = start()
    at.switch_page(DATA).run()
    csv = "a,b,y\n" + "".join(f"{i},{i % 3},{'xy'[i % 2]}\n" for i in range(30))
    at.file_uploader(key="upload").set_value(("mine.csv", csv.encode(), "text/csv")).run()
    assert _query(at)["upload"] == "mine.csv"
    receiver = start(**_query(at))  # the link opens the app (its frame shows the notice)
    assert not receiver.exception
    assert any("uploaded file, **mine\\.csv**" in i.value for i in receiver.info)  # name escaped
    assert not any("Try next" in i.value for i in receiver.info)  # no newcomer tip instead


def test_alpha_travels_short_and_comes_back_exact():
    from ui.services import pruning as pv

    at = start(PRUNE, sample="breast_cancer", algo="cart", prune_method="ccp")
    assert not at.exception
    path = pv.alpha_values(at.session_state["result"].estimator.tree_)
    alpha = max(path, key=lambda a: len(repr(a)))  # the value with the longest repr
    at = start(PRUNE, sample="breast_cancer", algo="cart", prune_method="ccp", prune_alpha=repr(alpha))
    written = at.query_params.get("prune_alpha")
    assert written == f"{alpha:.9g}" and len(written) < len(repr(alpha))
    back = start(PRUNE, sample="breast_cancer", algo="cart", prune_method="ccp", prune_alpha=written)
    assert back.session_state["prune_alpha"] == alpha  # snapped to the same path value
