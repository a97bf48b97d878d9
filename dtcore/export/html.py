"""The standalone HTML page of a fitted tree: one file that opens from disk with no network (every
script and style inlined), showing the Graphviz picture in the app's pan/zoom frame
(``assets/frame.js``, whose SVG sanitiser runs on the picture before it is shown), with
fold/unfold of a subtree on click, search by feature or label, and a sample's path, traced by a
small form (pre-filled from ``sample``).

The page's script routes the form's sample with dtcore's rule (``Tree.route``: a known value
takes its branch, a missing value or a label without a branch takes the learned branch, or every
branch with its share of the node's training weight), from the tree's own arrays, which the page
carries as JSON. User text (column names, labels, classes) reaches the page only as escaped
HTML or as JSON read by the script and set as text, never as markup.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from dtcore.export.labels import branches, condition_text, html_escape, node_prediction_indices
from dtcore.export.words import complete_words
from dtcore.numbers import fmt_num
from dtcore.schema import is_missing, label_of, to_float

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

ASSETS = Path(__file__).with_name("assets")
#: frame.js is written as the Streamlit component's module (an anonymous default export); the
#: page inlines the same text with that one line renamed, so both run one script
_FRAME_EXPORT = "export default function (component)"
_FRAME_NAME = "function dtFrame(component)"
#: the frame's markup (``ui/sections/tree_frame.py`` builds the same for the app)
_FRAME_HTML = (
    '<div class="dt-frame"><div class="dt-hint"></div><button class="dt-fit" type="button">fit</button>'
    '<div class="dt-stage"></div></div>'
)
FRAME_HEIGHT = 560

#: The page's own words, English; pass ``words=`` to :func:`to_html` for another language (every
#: key is needed; the ``{fields}`` are filled in): the markup's, then page.js's.
_MARKUP_WORDS = {
    "heading": "{target}: {algorithm} {task} tree",
    "meta": "{nodes} nodes · {leaves} leaves · depth {depth} · {features} features",
    "search": "Search",
    "search_placeholder": "feature or label",
    "unfold_all": "unfold all",
    "trace": "Trace a sample",
    "show_path": "show path",
    "clear": "clear",
}
_SCRIPT_WORDS = {
    "missing": "(missing)",
    "fit": "fit",
    "hint": "drag to pan · wheel to zoom · click a node to fold or unfold it",
    "folded_badge": "+{n} folded",
    "folds": "{n} subtree(s) folded",
    "matches": "{n} node(s) match",
    "matches_inside": ", {n} in folded subtrees",
    "predicted_class": "predicted class {label} ({shares})",
    "list_sep": ", ",  # between the classes' shares, and between the nodes of a path
    "predicted_value": "predicted value {value}",
    "raw_score": "raw score of this tree {value}",  # a boosted member's leaf: no prediction
    "path": "{prediction}; path through node(s) {nodes}",
    "shared": " (a missing value went down every branch, weighted by training share)",
}
PAGE_WORDS = {**_MARKUP_WORDS, **_SCRIPT_WORDS}


def page_words(words: Mapping[str, str] | None) -> dict[str, str]:
    """PAGE_WORDS, or the caller's words for every key (each with the same fields)."""
    return complete_words(PAGE_WORDS, words)


def asset_text(name: str) -> str:
    """One of the frame's files (``frame.js``, ``scale.js``, ``frame.css``, ``page.js``, ``page.css``)."""
    return (ASSETS / name).read_text(encoding="utf-8")


#: frame.js and fit.js import the opening scale as a module: the app's server serves the files
_SCALE_IMPORT = 'import { nodeFont, openingScale } from "./scale.js";\n'


def inline_script(name: str) -> str:
    """``frame.js`` or ``fit.js`` as one text that imports nothing (for a page or a component
    that holds its script inline): scale.js's functions, not exported, in place of the import."""
    text = asset_text(name)
    if _SCALE_IMPORT not in text:
        raise RuntimeError(f"assets/{name} no longer imports the opening scale as {_SCALE_IMPORT!r}")
    scale = asset_text("scale.js").replace("export function ", "function ")
    return scale + text.replace(_SCALE_IMPORT, "", 1)


def _json_for_script(value: object) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment (``<``, ``>``, ``&`` and
    the two JavaScript line separators as escapes)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for ch, esc in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return text


def _cut(value: float) -> float | str:
    """A cut for JSON: finite as itself (exact: JSON floats round-trip), ±inf as text."""
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def page_data(
    model: BaseTreeEstimator,
    sample: Mapping[str, object] | None = None,
    words: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the page's script reads: the tree's arrays per node, the features, the classes, a
    search text per node, the sample (column → value, text or number, None = missing) and the
    script's words (``words``: as :func:`to_html` takes them)."""
    tree, schema = model.tree_, model.schema_
    classes = schema.classes
    dist = tree.leaf_distribution()
    nodes = []
    predicted = node_prediction_indices(tree)
    for i in range(tree.node_count):
        j = int(tree.feature[i])
        rec: dict[str, Any] = {
            "parent": int(tree.parent[i]),
            "children": tree.children_of(i).tolist(),
            "feature": j,
            "weight": float(tree.weighted_n[i]),
            "missing_branch": int(tree.missing_branch[i]),
        }
        if classes is not None:
            rec["label"] = classes[predicted[i]]
            rec["dist"] = [float(p) for p in dist[i]]
        else:
            rec["label"] = fmt_num(tree.value[i, 0], 4)
            v = float(tree.value[i, 0])
            rec["value"] = v if math.isfinite(v) else None  # JSON has no NaN (an imported empty leaf)
        terms = [rec["label"]]
        if j >= 0:
            if tree.is_categorical_test(i):
                rec["cat_branch"] = tree.cat_branch_of(i).tolist()
            else:
                rec["cuts"] = [_cut(float(c)) for c in tree.cuts_of(i)]
            terms.append(schema.features[j].name)
            rec["conditions"] = [condition_text(b) for b in branches(tree, schema, i)]
            terms += [str(v) for b in branches(tree, schema, i) for v in b.values if isinstance(v, str)]
        rec["search"] = "\n".join(terms).lower()  # as JavaScript's toLowerCase
        nodes.append(rec)
    features = [
        {"name": f.name, "kind": f.kind, "categories": list(f.categories) if f.is_categorical else None}
        for f in schema.features
    ]
    origin = getattr(model, "origin_", None)
    return {
        "nodes": nodes,
        "features": features,
        "classes": None if classes is None else list(classes),
        # a traced sample's leaf value: a boosted member's raw score is no prediction
        "raw_score": origin is not None and origin.is_raw_score,
        "words": {k: v for k, v in page_words(words).items() if k in _SCRIPT_WORDS},
        "sample": None if sample is None else sample_values(model, sample),
        "fit_height": FRAME_HEIGHT,
    }


def sample_values(model: BaseTreeEstimator, sample: Mapping[str, object]) -> dict[str, Any]:
    """The sample as the form shows it: a label as text, a number as a float, missing as None;
    a column the model does not have is refused (a typo would silently trace a missing value)."""
    names = model.schema_.names
    unknown = [k for k in sample if k not in names]
    if unknown:
        raise ValueError(f"the sample names column(s) {unknown} the model does not have; it has {names}")
    out: dict[str, Any] = {}
    tokens = model.schema_.missing_tokens
    for f in model.schema_.features:
        v = sample.get(f.name)
        if v is None or is_missing(v, tokens):
            out[f.name] = None
        elif f.is_categorical:
            out[f.name] = label_of(v)
        else:
            x = to_float(v)
            if x is None or not math.isfinite(x):
                raise ValueError(f"the sample's {f.name!r} is {v!r}: the column is continuous, give a number")
            out[f.name] = x
    return out


def to_html(
    model: BaseTreeEstimator,
    svg: str,
    *,
    sample: Mapping[str, object] | None = None,
    title: str | None = None,
    about: Sequence[str] | None = None,
    words: Mapping[str, str] | None = None,
    lang: str = "en",
) -> str:
    """The page: ``svg`` is the tree's Graphviz picture (``render(to_dot(model), "svg")``).
    ``title``: the heading (default ``PAGE_WORDS["heading"]``, or an imported tree's source);
    ``about``: lines under it (default: an imported tree's ``ModelOrigin.sentences``);
    ``words``: :data:`PAGE_WORDS` in another language, ``lang`` that language's code."""
    frame_js = inline_script("frame.js")
    if _FRAME_EXPORT not in frame_js:
        raise RuntimeError("assets/frame.js no longer starts its component with " + _FRAME_EXPORT)
    tree, schema = model.tree_, model.schema_
    task = "classification" if schema.is_classifier else "regression"
    w = page_words(words)
    origin = getattr(model, "origin_", None)  # a tree read from another library says which
    if title is not None:
        heading = title
    elif origin is not None:
        heading = f"{schema.target}: {origin.title()}"
    else:
        heading = w["heading"].format(target=schema.target, algorithm=model.algorithm, task=task)
    meta = w["meta"].format(
        nodes=tree.node_count,
        leaves=tree.get_n_leaves(),
        depth=tree.get_depth(),
        features=len(schema.features),
    )
    lines = about if about is not None else origin.sentences() if origin is not None else []
    told = "".join(f'<p class="dt-origin">{html_escape(line)}</p>' for line in lines)
    data = page_data(model, sample, w)
    data["svg"] = svg
    # with scale.js: the frame's opening scale (readable text, fitted), which frame.js calls
    script = frame_js.replace(_FRAME_EXPORT, _FRAME_NAME, 1) + "\n" + asset_text("page.js")
    style = asset_text("frame.css") + "\n" + asset_text("page.css")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html_escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html_escape(heading)}</title>\n<style>\n{style}</style>\n</head>\n<body>\n"
        f'<header class="dt-head"><h1>{html_escape(heading)}</h1><p class="dt-meta">{html_escape(meta)}</p>{told}</header>\n'
        f'<div class="dt-tools"><label>{html_escape(w["search"])} <input id="dt-search" type="search" '
        f'placeholder="{html_escape(w["search_placeholder"])}" autocomplete="off"></label> '
        '<span id="dt-search-count"></span> '
        f'<button id="dt-expand" type="button">{html_escape(w["unfold_all"])}</button></div>\n'
        f'<div id="dt-tree">{_FRAME_HTML}</div>\n'
        f'<section class="dt-sample"><h2>{html_escape(w["trace"])}</h2>'
        '<form id="dt-form"><div id="dt-fields"></div>'
        f'<button type="submit">{html_escape(w["show_path"])}</button> '
        f'<button type="button" id="dt-clear">{html_escape(w["clear"])}</button></form>'
        '<p id="dt-result" aria-live="polite"></p></section>\n'
        f'<script type="application/json" id="dt-data">{_json_for_script(data)}</script>\n'
        f'<script type="module">\n{script}</script>\n'
        "</body>\n</html>\n"
    )


def sample_path(model: BaseTreeEstimator, sample: Mapping[str, object]) -> list[int]:
    """The nodes the sample visits, as ``Tree.route`` sends it (every branch of a shared-out
    missing value), in pre-order: what the page highlights."""
    names = model.schema_.names
    row = np.array([[sample.get(n) for n in names]], dtype=object)
    _, leaves, _ = model.tree_.route(model.encode(row))
    seen: set[int] = set()
    for leaf in leaves.tolist():
        seen.update(model.tree_.path_to(int(leaf)))
    return sorted(seen)
