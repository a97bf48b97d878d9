"""What a pan/zoom frame (``ui/sections/tree_frame.py``) shows in an AppTest run: its data, with
the SVG filled in where the session sent only the digest of a picture it sent before (issue 26)."""

from __future__ import annotations

import json

#: every picture a frame was sent whole in this test process, by digest
SENT: dict[str, str] = {}


#: the what-if section's path picture (a frame too, but not the tree's)
WHATIF_FRAME = "whatif_frame"


def all_frames(at) -> list:
    """Every pan/zoom frame of a run (not the script that fits a browser-drawn picture)."""
    return [c for c in at.get("bidi_component") if not str(c.key or "").startswith("dtfitjs_")]


def tree_frames(at) -> list:
    """The pan/zoom frames of a run that show the tree (not the what-if section's path)."""
    return [c for c in all_frames(at) if c.key != WHATIF_FRAME]


def whatif_frame(at):
    """The what-if section's path picture, or None."""
    return next((c for c in all_frames(at) if c.key == WHATIF_FRAME), None)


def remember_pictures(at) -> None:
    """Note every picture the last run of ``at`` sent whole (called after each run by
    ``tests.app.apptest.PageTest``)."""
    for element in all_frames(at):
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
