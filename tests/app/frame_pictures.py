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


#: the overview map's frames (``ui.sections.navigation.overview_key``)
OVERVIEW_PREFIX = "tree_overview_"


def tree_frames(at) -> list:
    """The pan/zoom frames of a run that show the tree (not the what-if section's path, not the
    overview map)."""
    return [
        c
        for c in all_frames(at)
        if c.key != WHATIF_FRAME and not str(c.key or "").startswith(OVERVIEW_PREFIX)
    ]


def overview_frame(at):
    """The overview map's frame, or None."""
    return next((c for c in all_frames(at) if str(c.key or "").startswith(OVERVIEW_PREFIX)), None)


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


def tree_svgs(at) -> list[str]:
    """The SVG of every tree picture of a run, in page order (the server lays every tree out)."""
    return [frame_data(f)["svg"] for f in tree_frames(at)]


def svg_of(dot: str) -> str:
    """What the page shows for ``dot``: the server's ``dot -Tsvg`` of it (deterministic, so two
    pictures are the same picture exactly when their SVGs are equal)."""
    from dtcore import export

    return export.render(dot, "svg").decode("utf-8")


def svg_node(svg: str, node: int) -> str:
    """The SVG group that draws box ``node`` (``id="dtnode{node}"`` in the DOT): its shapes and text."""
    import re

    m = re.search(rf'<g id="dtnode{node}" class="node">(.*?)(?:<!-- |</svg>)', svg, re.S)
    assert m, f"node {node} is not drawn"
    return m.group(1)


def svg_text(svg: str) -> str:
    """The text a picture shows, its entities decoded, one ``<text>`` element per line."""
    import html
    import re

    return "\n".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))


def tree_svg(at) -> str:
    """The SVG of the run's (first) tree picture."""
    pictures = tree_svgs(at)
    assert pictures, "no tree drawn"
    return pictures[0]


def styled_lines(svg: str, style: str) -> list[str]:
    """The text of every line drawn with ``style`` (``font-weight="bold"``: ``<B>`` in the DOT's
    labels, ``font-style="italic"``: ``<I>``), its entities decoded."""
    import html
    import re

    return [html.unescape(t) for t in re.findall(rf"<text [^>]*{re.escape(style)}[^>]*>([^<]*)</text>", svg)]


BOLD = 'font-weight="bold"'
ITALIC = 'font-style="italic"'


def heavy_nodes(svg: str) -> list[int]:
    """The boxes drawn with a heavier outline than the default (``penwidth`` above 1 in the DOT:
    the selected node, a compared tree's first disagreement), by node id."""
    import re

    heavy = []
    for node in sorted(int(n) for n in re.findall(r'<g id="dtnode(\d+)" class="node">', svg)):
        widths = [float(w) for w in re.findall(r'stroke-width="([\d.]+)"', svg_node(svg, node))]
        if widths and max(widths) > 1:
            heavy.append(node)
    return heavy


def node_ids(svg: str) -> list[int]:
    """The node ids whose boxes a picture draws (``id="dtnode{i}"``), in drawing order."""
    import re

    return [int(n) for n in re.findall(r'<g id="dtnode(\d+)" class="node">', svg)]


def node_xy(svg: str, node: int) -> tuple[float, float]:
    """Where box ``node``'s first line of text sits (SVG units; y grows downwards)."""
    import re

    m = re.search(r'<text [^>]*x="([-\d.]+)" y="([-\d.]+)"', svg_node(svg, node))
    assert m, f"node {node} has no text"
    return float(m.group(1)), float(m.group(2))


def drawn_text(at) -> str:
    """The text the run's (first) tree picture shows, one line per ``<text>`` element."""
    return svg_text(tree_svg(at))


def html_tables(at) -> list[list[list[str]]]:
    """The run's HTML tables (``ui.views.text.table_html``) as the browser shows them: rows of
    cell texts, header first."""
    import html
    import re

    out = []
    for m in at.markdown:
        found = re.search(r'<table class="dt-table".*?</table>', m.value, re.S)
        if found:
            rows = re.findall(r"<tr>(.*?)</tr>", found.group(0))
            out.append(
                [[html.unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", r)] for r in rows]
            )
    return out
