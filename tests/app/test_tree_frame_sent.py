"""The frame's record of what the page holds (``ui/sections/tree_frame.py``, issue 26): a picture
counts as sent only once its element has left. A rerun requested while the script runs (a click
during a slow run) stops it at its next session-state read or queued message, which can fall
between deciding the frame's payload and queueing its element; the picture never reached the
page then, so the next run must send it whole, not only its digest (else the frame waits for a
picture it is never sent)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest


def script() -> None:
    import streamlit as st

    from ui.sections.tree_frame import picture_payload, svg_of, tree_frame

    dot = 'digraph { node0 [id="dtnode0" label="root"] }'
    runs = st.session_state.setdefault("runs", [])
    runs.append(len(runs))
    if st.session_state.get("stop_before_sending") and len(runs) == 1:
        picture_payload(svg_of(dot))  # what the frame's call decides first ...
        st.stop()  # ... and the run ends before its element is queued
    tree_frame(dot, key="frame")


def frame_payload(at) -> dict:
    [frame] = at.get("bidi_component")
    return json.loads(frame.proto.json)


def test_a_picture_whose_run_stopped_before_it_left_is_sent_whole_next_run():
    at = AppTest.from_function(script, default_timeout=60)
    at.session_state["stop_before_sending"] = True
    at.run()
    assert not at.get("bidi_component")  # the first run sent no picture
    at.run()
    assert frame_payload(at)["svg"], "the picture never reached the page, yet only its digest was sent"


def test_a_picture_sent_once_is_sent_as_its_digest_after():
    at = AppTest.from_function(script, default_timeout=60)
    at.run()
    first = frame_payload(at)
    assert first["svg"] and first["digest"]
    at.run()
    assert frame_payload(at) == {**first, "svg": None}


def test_a_frame_message_carries_its_data_and_names_its_script():
    """The frame's script is a served file (``tree_frame._serve_assets``): a message holds its
    name, not its 17 KB, so a rerun that changes a frame's data sends that data and the 1 KB
    style only. A second AppTest (a new runtime, a new component registry) serves it too."""
    for _ in range(2):
        at = AppTest.from_function(script, default_timeout=60)
        at.run()
        [frame] = at.get("bidi_component")
        proto = frame.proto
        assert proto.js_source_path == "frame.js" and not proto.js_content
        assert proto.css_content and not proto.css_source_path
        assert len(proto.SerializeToString()) < len(proto.json) + len(proto.html_content) + 1500
