"""How big a tree picture opens (issue 27): fitted to its frame's width, with the node text no
smaller than ``MIN_TEXT_PX`` and no larger than ``MAX_TEXT_PX`` on screen; a picture too big for
that scrolls (or pans) inside its frame instead of shrinking below readable. Pairs that are read
side by side (Pruning's before and after) share one scale; pictures that follow each other
(Growth's steps) keep one fixed scale, so a step does not rescale the tree.

The browser applies the bounds (``dtcore/export/assets/scale.js``, ``fit.js``, ``frame.js``):
only it knows the frame's width and the laid-out picture's size. It measures the node text in the SVG itself (the most
common font size of the node labels, in the picture's own units), so the same bounds hold for
the server's ``dot`` (points) and the browser's Graphviz (pixels).
"""

from __future__ import annotations

from dataclasses import dataclass

#: smallest and largest node text a picture opens with, in CSS pixels
MIN_TEXT_PX = 10.0
MAX_TEXT_PX = 14.0
#: the one text size of pictures drawn at a fixed scale (Growth's steps)
STEADY_TEXT_PX = 12.0
#: the tallest a fitted picture's frame grows before it scrolls, in CSS pixels
MAX_FRAME_HEIGHT = 720


@dataclass(frozen=True)
class TextBounds:
    """Node text size bounds, in CSS pixels, for one picture (``low == high``: a fixed scale)."""

    low: float = MIN_TEXT_PX
    high: float = MAX_TEXT_PX
    max_height: int = MAX_FRAME_HEIGHT

    def as_data(self) -> dict[str, float]:
        """What the browser side reads."""
        return {"low": float(self.low), "high": float(self.high), "max_height": int(self.max_height)}


FITTED = TextBounds()
STEADY = TextBounds(STEADY_TEXT_PX, STEADY_TEXT_PX)
