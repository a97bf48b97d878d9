"""What a pan/zoom frame (``ui/sections/tree_frame.py``) shows in an AppTest run: its data, with
the SVG filled in where the session sent only the digest of a picture it sent before (issue 26)."""

from __future__ import annotations

import json

#: every picture a frame was sent whole in this test process, by digest
SENT: dict[str, str] = {}


def tree_frames(at) -> list:
    """The pan/zoom frames of a run (not the script that fits a browser-drawn picture)."""
    return [c for c in at.get("bidi_component") if not str(c.key or "").startswith("dtfitjs_")]


def remember_pictures(at) -> None:
    """Note every picture the last run of ``at`` sent whole (called after each run by
    ``tests.app.apptest.PageTest``)."""
    for element in tree_frames(at):
        data = json.loads(element.proto.json)
        if data.get("svg") is not None and data.get("digest") is not None:
            SENT[data["digest"]] = data["svg"]


def frame_data(element) -> dict:
    """The frame's data; ``svg`` is the picture shown (sent now or, by digest, in an earlier run:
    a digest never sent whole before is a KeyError, the page would have no picture to show)."""
    data = json.loads(element.proto.json)
    if data.get("svg") is not None:
        SENT[data["digest"]] = data["svg"]
    else:
        data["svg"] = SENT[data["digest"]]
    return data
