"""The before/after pictures of the Pruning page at one common scale.

Both trees are drawn by the server's ``dot`` (SVG, 1 unit = 1 pt) and shown at the same number
of pixels per unit (issue 16.6: each fitted to half a column on its own, a 33-node tree's text
was 2-3 px and the two halves were at different scales). The scale fits the wider picture to
its frame, with the node text between ``MIN_TEXT_PX`` and ``READABLE_PX`` (issue 27: a fixed
12 px cut 6- to 16-node trees at the frame's edge); a pair too wide for that scrolls inside its
frames. The browser picks the scale (only it knows the frames' width) from the size both frames are
told to fit, their *basis*: the larger width and the larger height of the two; side by side
both frames are as tall as the taller picture.
"""

from __future__ import annotations

import re

from .picture_scale import MIN_TEXT_PX, TextBounds

#: the largest node text of the pair, in CSS pixels
READABLE_PX = 12.0
#: the tallest a frame grows before its picture scrolls
MAX_HEIGHT = 560
#: the node text bounds of both pictures
PAIR_BOUNDS = TextBounds(MIN_TEXT_PX, READABLE_PX, MAX_HEIGHT)
#: node text size in the DOT (``dtcore.export.dot``: ``node [fontsize=11]``), in SVG units (pt)
NODE_FONT_PT = 11.0
#: the inner width of a half-page frame on a 1400 px wide window (the sidebar open), in CSS px
HALF_FRAME_PX = 540.0

_VIEWBOX = re.compile(r'viewBox="\s*([-\d.eE]+)[\s,]+([-\d.eE]+)[\s,]+([-\d.eE]+)[\s,]+([-\d.eE]+)\s*"')


def svg_size(svg: str) -> tuple[float, float]:
    """Width and height of a Graphviz SVG in its own units (pt), from its viewBox."""
    m = _VIEWBOX.search(svg[:2000])
    if m is None:
        raise ValueError("not a Graphviz SVG: no viewBox")
    return float(m.group(3)), float(m.group(4))


def arrangement(choice: str, sizes: list[tuple[float, float] | None]) -> str:
    """``"side"`` or ``"stacked"``: the user's choice, or for ``"auto"`` side by side when the wider
    picture fits a half-page frame with its text at ``MIN_TEXT_PX`` (else it would be cut at the
    frame's edge: one above the other, each as wide as the page)."""
    if choice != "auto":
        return choice
    widths = [s[0] for s in sizes if s is not None]
    fits = not widths or max(widths) * MIN_TEXT_PX / NODE_FONT_PT <= HALF_FRAME_PX
    return "side" if fits else "stacked"


def pair_basis(sizes: list[tuple[float, float] | None]) -> tuple[float, float] | None:
    """The size both frames fit their scale to: the widest and the tallest picture's (one scale
    in frames of one width); None when no picture has a size (no ``dot``, or refused)."""
    known = [s for s in sizes if s is not None]
    if not known:
        return None
    return max(w for w, _ in known), max(h for _, h in known)
