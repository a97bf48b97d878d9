"""The Pruning page's before/after pictures: both drawn by the server's ``dot`` in the pan frame
at one common, readable scale that fits them where it can (``ui.views.prune_pair``), side by side or one above the other;
a picture past the server's node limit is refused (``ui.views.focus``)."""

from __future__ import annotations

import streamlit as st

from dtcore import export
from ui.state.state import t
from ui.views import focus
from ui.views.prune_pair import PAIR_BOUNDS, arrangement, pair_basis, svg_size

from .tree_frame import svg_of, tree_frame


def _size(dot: str, tree, depth: int | None):
    if focus.whole_tree_mode(tree, depth) == "refuse":
        return None
    try:
        return svg_size(svg_of(dot))
    except export.GraphvizMissing:  # tree_frame falls back to the browser or refuses
        return None


def draw_pair(pictures, depth: int | None, arrange: str) -> None:
    """``pictures``: (title markdown, DOT, tree, key) for before and after; ``arrange``: "auto",
    "side" or "stacked"."""
    sizes = [_size(dot, tree, depth) for _, dot, tree, _ in pictures]
    arrange = arrangement(arrange, sizes)
    basis = pair_basis(sizes)
    if arrange == "side":
        # bottom-aligned: a title that wraps to two lines does not push its frame below the other
        places = st.columns(len(pictures), gap="medium", border=True, vertical_alignment="bottom")
    else:
        places = [st.container(border=True) for _ in pictures]
    for place, (title, dot, tree, key) in zip(places, pictures):
        with place:
            st.markdown(title)
            if focus.whole_tree_mode(tree, depth) == "refuse":
                st.warning(
                    t("prune.refuse", nodes=focus.shown_nodes(tree, depth), limit=focus.SERVER_NODE_LIMIT)
                )
                continue
            tree_frame(
                dot,
                key=key,
                bounds=PAIR_BOUNDS,
                fixed=True,
                basis=basis,
                same_height=arrange == "side",
            )
    st.caption(t("prune.scale_note"))
