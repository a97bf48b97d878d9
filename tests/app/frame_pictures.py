"""What a pan/zoom frame (``ui/sections/tree_frame.py``) shows in an AppTest run: its data, with
the SVG filled in where the session sent only the digest of a picture it sent before (issue 26)."""

from __future__ import annotations

import json

#: every picture a frame was sent whole in this test process, by digest
SENT: dict[str, str] = {}


def frame_data(element) -> dict:
    """The frame's data; ``svg`` is the picture shown (sent now or, by digest, in an earlier run:
    a digest never sent whole before is a KeyError, the page would have no picture to show)."""
    data = json.loads(element.proto.json)
    if data.get("svg") is not None:
        SENT[data["digest"]] = data["svg"]
    else:
        data["svg"] = SENT[data["digest"]]
    return data
