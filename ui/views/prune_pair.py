"""The before/after pictures of the Pruning page at one common scale.

Both trees are drawn by the server's ``dot`` (SVG, 1 unit = 1 pt) and shown at the same number
of pixels per unit, chosen so that the node text (11 pt in ``dtcore.export.to_dot``) is
``READABLE_PX`` tall: a tree wider or taller than its frame scrolls inside it, and neither is
shrunk to fit on its own (each fitted to half a column, a 33-node tree's text was 2-3 px and the
two halves were at different scales). Each frame is as tall as its picture, up to
``MAX_HEIGHT``; side by side both frames take the taller one's height.
"""

from __future__ import annotations

import math
import re

#: node text size in the DOT (``dtcore.export.dot``: ``node [fontsize=11]``), in SVG units (pt)
NODE_FONT_PT = 11.0
#: how tall that text is drawn, in CSS pixels
READABLE_PX = 12.0
#: the most and fewest pixels a frame is tall; a frame's room beyond its picture
MAX_HEIGHT = 560
MIN_HEIGHT = 120
PAD = 24

_VIEWBOX = re.compile(r'viewBox="\s*([-\d.eE]+)[\s,]+([-\d.eE]+)[\s,]+([-\d.eE]+)[\s,]+([-\d.eE]+)\s*"')


def common_scale() -> float:
    """Pixels per SVG unit of both pictures."""
    return READABLE_PX / NODE_FONT_PT


def svg_size(svg: str) -> tuple[float, float]:
    """Width and height of a Graphviz SVG in its own units (pt), from its viewBox."""
    m = _VIEWBOX.search(svg[:2000])
    if m is None:
        raise ValueError("not a Graphviz SVG: no viewBox")
    return float(m.group(3)), float(m.group(4))


def frame_height(size: tuple[float, float] | None, scale: float) -> int:
    """A frame's height for a picture of ``size`` units at ``scale`` px per unit."""
    if size is None:
        return MIN_HEIGHT
    return int(min(MAX_HEIGHT, max(MIN_HEIGHT, math.ceil(size[1] * scale) + PAD)))


def pair_frames(sizes: list[tuple[float, float] | None], same_height: bool) -> tuple[float, list[int]]:
    """The common scale and each frame's height (``same_height``: side by side, both the taller)."""
    scale = common_scale()
    heights = [frame_height(s, scale) for s in sizes]
    if same_height and heights:
        heights = [max(heights)] * len(heights)
    return scale, heights
