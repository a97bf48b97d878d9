"""Crafted links: a URL value out of range or of the wrong type falls back to the setting's
default with a notice that names it, and no page raises (issue: hostile links)."""

import pytest

from tests.app.apptest import start

BAD_LINKS = [
    ("pages/train.py", {"seed": "-1"}),
    ("pages/splits.py", {"seed": "-1"}),
    ("pages/prune.py", {"seed": "-1"}),
    ("pages/data.py", {"valid": "99", "test": "99"}),
    ("pages/data.py", {"valid": "-10"}),
    ("pages/prune.py", {"prune_cf": "9"}),
    ("pages/prune.py", {"prune_cf": "0"}),
    ("pages/prune.py", {"prune_cf": "nan", "prune_alpha": "-1"}),
    ("pages/train.py", {"cart_max_depth": "100000", "algo": "cart"}),
    ("pages/train.py", {"c45_confidence_factor": "7"}),
    ("pages/train.py", {"lang": "xx"}),
]


@pytest.mark.parametrize(("page", "query"), BAD_LINKS, ids=lambda v: str(v))
def test_a_bad_value_falls_back_to_its_default_with_a_notice(page, query):
    at = start(page, direct=True, **query)
    assert not at.exception, [e.value for e in at.exception]
    notices = " ".join(w.value for w in at.warning).replace("\\", "")  # Markdown escapes
    for key, value in query.items():
        if key == "algo":
            continue
        assert f"{key}={value}" in notices, notices
        assert key not in at.session_state or str(at.session_state[key]) != value


def test_a_good_link_gives_no_notice():
    at = start("pages/data.py", direct=True, valid="20", test="10", seed="7")
    assert not at.exception
    assert not [w for w in at.warning if "=" in w.value]
    assert (at.session_state["valid"], at.session_state["test"], at.session_state["seed"]) == (20, 10, 7)
