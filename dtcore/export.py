"""A fitted tree out of Python: versioned JSON models, Graphviz DOT, text rules, and rendering.

Every output is deterministic (pre-order node ids, fixed number formats), so the same model gives
byte-identical files, and every piece of user text (column names, category labels, class names)
is escaped for the format it lands in: models are JSON, never pickle.
"""
from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from dataclasses import dataclass

import numpy as np

from .schema import Schema
from .tree import Tree

FORMAT = "dtcore-model"
VERSION = 1

#: First choice renders Chinese with the installed fonts-noto-cjk; the rest are fallbacks for
#: other systems (a comma list works for pango/fontconfig and as a CSS font-family in SVG).
FONTNAME = ("Noto Sans CJK SC,Noto Sans CJK JP,Source Han Sans SC,Microsoft YaHei,PingFang SC,"
            "WenQuanYi Micro Hei,Noto Sans,DejaVu Sans,sans-serif")

#: Fixed class palette (Tableau 10): class k gets colour k, so pictures are stable across runs.
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
           "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac")
REGRESSION_COLOR = "#e58139"

_IMPURITY_NAMES = {"gini": "gini", "entropy": "entropy", "log_loss": "entropy",
                   "gain_ratio": "entropy", "gain": "entropy", "information_gain": "entropy",
                   "squared_error": "squared_error", "friedman_mse": "friedman_mse",
                   "absolute_error": "absolute_error", "poisson": "poisson"}


class GraphvizMissing(RuntimeError):
    """The Graphviz ``dot`` program is not installed (or not on PATH)."""


class GraphvizError(RuntimeError):
    """``dot`` ran but failed; the message carries its error output."""


# =============================================================================================
# numbers and user text

def fmt_num(x: float, precision: int | None = None) -> str:
    """A number for people: ``%.{precision}g`` without exponents for large values; exact when
    precision is None (shortest repr that round-trips, ``3`` for 3.0)."""
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if precision is None:
        s = repr(x)
        return s[:-2] if s.endswith(".0") else s
    if x != 0 and abs(x) >= 10 ** precision and abs(x) < 1e16:
        return f"{x:.0f}"
    s = f"{x:.{precision}g}"
    return "0" if s == "-0" else s


def fmt_weight(w: float) -> str:
    """Sample weights: whole numbers as integers, fractional ones (C4.5) with 2 decimals."""
    w = float(w)
    r = round(w)
    return str(int(r)) if abs(w - r) < 1e-9 else f"{w:.2f}"


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HTML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
                 "[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;", "|": "&#124;",
                 "\\": "&#92;"}
_HTML_RE = re.compile("[" + re.escape("".join(_HTML_ESCAPES)) + "]")


def html_escape(text) -> str:
    """Text safe inside a Graphviz HTML-like label: markup characters become entities, and so do
    the record/escString characters ``[ ] { } | \\``; control characters become spaces."""
    text = _CONTROL.sub(" ", str(text))
    return _HTML_RE.sub(lambda m: _HTML_ESCAPES[m.group(0)], text)


def plain_text(text) -> str:
    """User text on one line (text rules): newlines and control characters become spaces."""
    return _CONTROL.sub(" ", str(text))


# =============================================================================================
# what each node tests, shared by JSON, DOT and text

@dataclass(frozen=True)
class Branch:
    """One outgoing branch: ``op`` is le/gt/interval/eq/in, ``operand`` plain (unescaped) text."""

    index: int
    child: int
    op: str
    operand: str
    values: tuple  # the cut(s) or category labels, exact, for JSON
    missing: bool  # missing values (and categories without a branch) go this way
    also: tuple = ()  # categories with no branch of their own, routed here like missing values


_SYMBOLS = {"le": "≤", "gt": ">", "interval": "∈", "eq": "=", "in": "∈",
            "known": "is known", "missing": "is missing"}
_ASCII = {"le": "<=", "gt": "> ", "interval": "in", "eq": "=", "in": "in",
          "known": "is known", "missing": "is missing"}


def branches(tree: Tree, schema: Schema, node: int, precision: int | None = None) -> list[Branch]:
    """The branches of an internal node, with conditions written at ``precision``."""
    kids = tree.children_of(node)
    mb = int(tree.missing_branch[node])
    out = []
    if tree.is_categorical_test(node):
        cats = schema.features[int(tree.feature[node])].categories
        cb = tree.cat_branch_of(node)
        orphans = unassigned_categories(tree, schema, node) if mb >= 0 else ()
        for k, child in enumerate(kids):
            labels = tuple(cats[c] if c < len(cats) else f"#{c}" for c in np.nonzero(cb == k)[0])
            if len(labels) == 1:
                op, operand = "eq", labels[0]
            else:
                op, operand = "in", "{" + ", ".join(labels) + "}"
            out.append(Branch(k, int(child), op, operand, labels, mb == k, orphans if mb == k else ()))
        return out
    cuts = tree.cuts_of(node)
    if len(cuts) == 1 and cuts[0] == np.inf and len(kids) == 2:
        # CART's "missing values alone" split: every known value left, missing ones right
        return [Branch(0, int(kids[0]), "known", "", (np.inf,), mb == 0),
                Branch(1, int(kids[1]), "missing", "", (np.inf,), mb == 1)]
    s = [fmt_num(c, precision) for c in cuts]
    for k, child in enumerate(kids):
        if k == 0:
            op, operand, vals = "le", s[0], (float(cuts[0]),)
        elif k == len(cuts):
            op, operand, vals = "gt", s[-1], (float(cuts[-1]),)
        else:
            op, operand, vals = "interval", f"({s[k - 1]}, {s[k]}]", (float(cuts[k - 1]), float(cuts[k]))
        out.append(Branch(k, int(child), op, operand, vals, mb == k))
    return out


def condition_text(b: Branch, ascii_ops: bool = False) -> str:
    return f"{(_ASCII if ascii_ops else _SYMBOLS)[b.op]} {b.operand}".rstrip()


def unassigned_categories(tree: Tree, schema: Schema, node: int) -> tuple[str, ...]:
    """Categories with no branch at a categorical test (they are routed like missing values)."""
    if not tree.is_categorical_test(node):
        return ()
    cats = schema.features[int(tree.feature[node])].categories
    cb = tree.cat_branch_of(node)
    return tuple(cats[c] for c in np.nonzero(cb < 0)[0] if c < len(cats))


def node_prediction_index(tree: Tree, node: int) -> int:
    """Majority class of a node (ties: the class declared first); an empty node (weight 0)
    predicts its nearest non-empty ancestor's majority, as ID3/C4.5 label empty branches."""
    i = node
    while tree.value[i].sum() <= 0 and tree.parent[i] >= 0:
        i = int(tree.parent[i])
    return int(np.argmax(tree.value[i]))


def is_empty(tree: Tree, node: int) -> bool:
    return bool(tree.weighted_n[node] <= 0)


def _unwrap(model, schema):
    """(tree, schema, estimator or None) from an estimator or a bare Tree plus its Schema."""
    if isinstance(model, Tree):
        if schema is None:
            raise ValueError("a bare Tree needs its Schema: pass schema=...")
        return model, schema, None
    if not hasattr(model, "tree_"):
        raise ValueError(f"{type(model).__name__} is not fitted: call fit first")
    return model.tree_, schema or model.schema_, model


def impurity_name(estimator=None, criterion: str | None = None) -> str:
    """The name to print next to node impurity (the criterion the node impurity is measured by)."""
    if criterion is None and estimator is not None:
        criterion = estimator.get_params().get("criterion")
        if criterion is None and getattr(estimator, "algorithm", "") in ("id3", "c45"):
            criterion = "entropy"
    if criterion is None:
        return "impurity"
    return _IMPURITY_NAMES.get(str(criterion), str(criterion))


# =============================================================================================
# JSON model

def tree_summary(tree: Tree) -> dict:
    return {"n_nodes": tree.node_count, "n_leaves": tree.get_n_leaves(), "depth": tree.get_depth()}


def describe_nodes(tree: Tree, schema: Schema) -> list[dict]:
    """The readable node list of the JSON model (derived from the arrays; ignored when loading)."""
    classes = schema.classes
    out = []
    for i in range(tree.node_count):
        rec = {"id": i, "parent": int(tree.parent[i]), "depth": int(tree.depth[i]),
               "leaf": bool(tree.feature[i] < 0)}
        if tree.feature[i] >= 0:
            j = int(tree.feature[i])
            feat = schema.features[j]
            rec["feature"] = feat.name
            rec["feature_index"] = j
            bs = branches(tree, schema, i)
            if tree.is_categorical_test(i):
                rec["test"] = {"kind": "categorical", "branches": [list(b.values) for b in bs],
                               "no_branch": list(unassigned_categories(tree, schema, i))}
            else:
                rec["test"] = {"kind": "continuous",
                               "cuts": _finite_json([float(c) for c in tree.cuts_of(i)])}
            mb = int(tree.missing_branch[i])
            rec["missing"] = "distribute" if mb < 0 else {"branch": mb}
            rec["children"] = [{"node": b.child, "branch": b.index,
                                "condition": f"{feat.name} {condition_text(b)}"} for b in bs]
        rec["weighted_n"] = float(tree.weighted_n[i])
        rec["n_samples"] = int(tree.n_samples[i])
        rec["impurity"] = _finite_json(float(tree.impurity[i]))
        if classes is not None:
            rec["distribution"] = {c: float(v) for c, v in zip(classes, tree.value[i])}
            rec["prediction"] = classes[node_prediction_index(tree, i)]
            if is_empty(tree, i):
                rec["empty"] = True
        else:
            rec["value"] = [float(v) for v in tree.value[i]]
            rec["prediction"] = float(tree.value[i, 0])
        out.append(rec)
    return out


def _jsonable_param(name, value):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (list, tuple)):
        return [_jsonable_param(name, v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable_param(name, v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"parameter {name}={value!r} is not finite and cannot be saved as JSON")
        return value
    raise ValueError(f"parameter {name}={value!r} ({type(value).__name__}) cannot be saved as JSON")


_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def _finite_json(values):
    """Float lists with ±inf/NaN written as the strings "Infinity", "-Infinity", "NaN" (strict
    JSON has no such numbers; CART's "missing values alone" test stores the cut +inf)."""
    if isinstance(values, list):
        return [_finite_json(v) for v in values]
    if isinstance(values, float) and not math.isfinite(values):
        return "NaN" if math.isnan(values) else ("Infinity" if values > 0 else "-Infinity")
    return values


def _from_finite_json(values):
    if isinstance(values, list):
        return [_from_finite_json(v) for v in values]
    if isinstance(values, str):
        try:
            return _NONFINITE[values]
        except KeyError:
            raise ValueError(f"model file holds {values!r} where a number belongs") from None
    return values


def _tree_json(tree: Tree) -> dict:
    return {k: _finite_json(v) for k, v in tree.to_dict().items()}


def model_to_dict(estimator) -> dict:
    """A fitted estimator as plain JSON data (format ``dtcore-model`` version 1, docs/model-json.md)."""
    tree, schema, _ = _unwrap(estimator, None)
    return {
        "format": FORMAT,
        "version": VERSION,
        "algorithm": getattr(estimator, "algorithm", "?"),
        "task": estimator._task,
        "estimator": type(estimator).__name__,
        "params": {k: _jsonable_param(k, v) for k, v in estimator.get_params().items()},
        "schema": schema.to_dict(),
        "summary": tree_summary(tree),
        "tree": _tree_json(tree),
        "nodes": describe_nodes(tree, schema),
    }


def model_from_dict(d: dict, estimator_class=None):
    """Rebuild a fitted estimator from ``model_to_dict`` output (the ``tree`` arrays are the truth;
    ``nodes`` and ``summary`` are for readers and ignored). ``estimator_class`` overrides the
    class looked up from ``algorithm`` and ``task``."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ValueError("not a dtcore model: the JSON has no \"format\": \"dtcore-model\"")
    version = d.get("version")
    if not isinstance(version, int) or version < 1:
        raise ValueError(f"model file has an invalid version {version!r}")
    if version > VERSION:
        raise ValueError(f"model file has version {version}; this dtcore reads up to version "
                         f"{VERSION}: upgrade dtcore")
    for key in ("algorithm", "task", "params", "schema", "tree"):
        if key not in d:
            raise ValueError(f"model file lacks the {key!r} entry")
    if estimator_class is None:
        from .estimators import estimator_class as lookup
        estimator_class = lookup(d["algorithm"], d["task"])
    est = estimator_class()
    est.set_params(**d["params"])
    schema = Schema.from_dict(d["schema"])
    tree = Tree.from_dict({k: _from_finite_json(v) for k, v in d["tree"].items()})
    if tree.node_count and int(tree.feature.max()) >= len(schema.features):
        raise ValueError("model file is inconsistent: a node tests a feature the schema lacks")
    est._set_schema(schema)
    est.tree_ = tree
    return est


def dumps_model(estimator) -> str:
    """The JSON text of a model (UTF-8, labels kept readable, strict JSON: no NaN)."""
    return json.dumps(model_to_dict(estimator), ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def save_model(estimator, path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(dumps_model(estimator))


def load_model(path, estimator_class=None):
    with open(path, encoding="utf-8") as f:
        try:
            d = json.load(f)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return model_from_dict(d, estimator_class)


# =============================================================================================
# colours

_COLOR_RE = re.compile(r"^(#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$")


def class_palette(classes, class_colors: dict | None = None) -> list[str]:
    """One colour per class: the fixed palette by class index, overridden by ``class_colors``."""
    out = []
    for k, c in enumerate(classes):
        col = (class_colors or {}).get(c, PALETTE[k % len(PALETTE)])
        if not _COLOR_RE.match(str(col)):
            raise ValueError(f"colour {col!r} for class {c!r} must be #rrggbb or a colour name")
        out.append(str(col))
    return out


def _mix_white(color: str, strength: float) -> str:
    """``color`` blended with white (strength 0 = white, 1 = color); needs #rrggbb."""
    if not color.startswith("#"):
        return color
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 + (c - 255) * strength) for c in rgb]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _bar_widths(counts: np.ndarray, total_width: int) -> list[tuple[int, int]]:
    """(class index, width) for the proportional colour bar; widths sum to total_width exactly."""
    pos = [k for k in range(len(counts)) if counts[k] > 0]
    if not pos:
        return []
    share = np.array([counts[k] for k in pos], dtype=float)
    exact = share / share.sum() * total_width
    w = np.maximum(np.floor(exact).astype(int), 1)
    extra = total_width - int(w.sum())
    order = sorted(range(len(pos)), key=lambda i: (-(exact[i] - np.floor(exact[i])), i))
    i = 0
    while extra > 0:
        w[order[i % len(order)]] += 1
        extra -= 1
        i += 1
    while extra < 0:  # minimum widths overshot: take from the widest
        j = int(np.argmax(w))
        w[j] -= 1
        extra += 1
    return [(k, int(x)) for k, x in zip(pos, w)]


# =============================================================================================
# DOT

#: The words inside a DOT picture; pass ``words=`` to ``to_dot`` to draw it in another language
#: (every key is needed; ``{n}`` and ``{leaves}`` are filled in for "more").
DOT_WORDS = {
    "samples": "samples", "class": "class", "value": "value", "empty": "empty",
    "parents_majority": "parent's majority", "parents_value": "(parent's)",
    "more": "{n} more nodes<BR/>({leaves} leaves)", "missing": "missing",
}


@dataclass
class _DotStyle:
    precision: int
    impurity: str
    colors: list[str]
    show_ids: bool
    value_range: tuple[float, float]
    words: dict


def to_dot(model, schema: Schema | None = None, *, max_depth: int | None = None,
           collapsed=(), highlight=(), ghost=(), class_colors: dict | None = None,
           rankdir: str = "TB", precision: int = 3, criterion: str | None = None,
           show_ids: bool = True, legend: bool = True, fontname: str = FONTNAME,
           graph_name: str = "tree", words: dict | None = None) -> str:
    """Graphviz DOT of a fitted tree with HTML-like labels.

    ``model`` is a fitted estimator or a ``Tree`` (then ``schema`` is required). ``max_depth``
    shows nodes to that depth and folds each deeper subtree into one summary box, as does
    ``collapsed`` (node ids) below the named nodes; ``ghost`` nodes get a dashed grey outline, a
    grey fill and dashed edges into them (what a pruning removes), ``highlight`` nodes a bold
    outline (new leaves, forced splits).
    ``precision`` is the significant digits of thresholds and impurities; ``words`` replaces
    ``DOT_WORDS`` (the app's language; the words are escaped like user text, except the ``<BR/>``
    of "more").

    The SVG that Graphviz makes from this keeps stable element ids for the app to hook into:
    ``dtnode{i}`` (node i), ``dtedge{i}_{j}`` (edge i → j), ``dtmore{i}`` (the summary box
    below a folded node i) and ``dtlegend``.
    """
    tree, schema, est = _unwrap(model, schema)
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"rankdir must be TB, LR, BT or RL, not {rankdir!r}")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", graph_name):
        raise ValueError(f"graph_name must be a plain identifier, not {graph_name!r}")
    if max_depth is not None and max_depth < 0:
        raise ValueError("max_depth must be ≥ 0")
    collapsed, highlight, ghost = ({int(i) for i in s} for s in (collapsed, highlight, ghost))
    classes = schema.classes
    vals = tree.value[:, 0] if tree.node_count else np.zeros(1)
    style = _DotStyle(
        precision=int(precision),
        impurity=impurity_name(est, criterion),
        colors=class_palette(classes, class_colors) if classes is not None else [],
        show_ids=show_ids,
        value_range=(float(vals.min()), float(vals.max())) if classes is None else (0.0, 0.0),
        words=_dot_words(words),
    )
    font = fontname.replace("\\", "").replace('"', "")
    lines = [
        f"digraph {graph_name} {{",
        f'graph [rankdir={rankdir}, fontname="{font}", bgcolor="white", pad="0.2", '
        'nodesep="0.3", ranksep="0.5", ordering="out"];',
        f'node [shape=box, style="rounded,filled", fontname="{font}", fontsize=11, '
        'color="#555555", penwidth=1, margin="0.06,0.04"];',
        f'edge [fontname="{font}", fontsize=10, color="#666666", fontcolor="#333333", arrowsize=0.7];',
    ]
    if legend and classes is not None and tree.node_count:
        rows = "".join(
            f'<TR><TD WIDTH="12" HEIGHT="12" FIXEDSIZE="TRUE" BGCOLOR="{style.colors[k]}"></TD>'
            f'<TD ALIGN="LEFT">{html_escape(c)}</TD></TR>' for k, c in enumerate(classes))
        lines.append(
            f'legend [id="dtlegend", shape=plaintext, style="", label=<<TABLE BORDER="0" CELLBORDER="0" '
            f'CELLSPACING="2" CELLPADDING="1"><TR><TD COLSPAN="2" ALIGN="LEFT"><B>'
            f'{html_escape(schema.target)}</B></TD></TR>{rows}</TABLE>>];')
        lines.append("{rank=same; legend; node0;}")
    stack = [0] if tree.node_count else []
    while stack:  # pre-order walk (ids ascend) so the output order is fixed
        i = stack.pop()
        folded = tree.feature[i] >= 0 and (i in collapsed or (max_depth is not None
                                                              and tree.depth[i] >= max_depth))
        lines.append(_dot_node(tree, schema, i, style, i in highlight, i in ghost))
        if tree.feature[i] < 0:
            continue
        if folded:
            sub = tree.subtree(i)[1:]
            n_leaves = int(tree.is_leaf[sub].sum())
            lines.append(
                f'node{i}_more [id="dtmore{i}", style="rounded,dashed", fillcolor="white", color="#888888", '
                f'fontcolor="#444444", label=<{style.words["more"].format(n=len(sub), leaves=n_leaves)}>];')
            lines.append(f'node{i} -> node{i}_more [id="dtedge{i}_more", style=dashed];')
            continue
        for b in branches(tree, schema, i, style.precision):
            label = html_escape(condition_text(b))
            if b.missing and b.op != "missing":
                also = "".join(", " + html_escape(c) for c in b.also)
                label += f'<BR/><FONT POINT-SIZE="9"><I>{style.words["missing"]}{also} →</I></FONT>'
            faded = ', style=dashed, color="#9e9e9e", fontcolor="#757575"' if b.child in ghost else ""
            lines.append(f'node{i} -> node{b.child} [id="dtedge{i}_{b.child}"{faded}, label=<{label}>];')
        stack.extend(reversed(tree.children_of(i).tolist()))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_words(words: dict | None) -> dict:
    """DOT_WORDS with the caller's words, escaped (they may come from an editable catalogue)."""
    if words is None:
        return DOT_WORDS
    missing = sorted(set(DOT_WORDS) - set(words))
    if missing:
        raise ValueError(f"words= lacks {missing}")
    out = {k: html_escape(str(words[k])) for k in DOT_WORDS}
    more = "<BR/>".join(html_escape(part) for part in str(words["more"]).split("<BR/>"))
    for key in ("n", "leaves"):  # the placeholders survive escaping
        more = more.replace(f"&#123;{key}&#125;", "{" + key + "}")
    out["more"] = more
    return out


def _dot_node(tree: Tree, schema: Schema, i: int, s: _DotStyle, bold: bool, ghosted: bool) -> str:
    classes = schema.classes
    rows = []
    prefix = f'<FONT POINT-SIZE="8" COLOR="#555555">#{i}</FONT> ' if s.show_ids else ""
    empty = is_empty(tree, i)
    leaf = tree.feature[i] < 0
    if not leaf:
        title = f"<B>{html_escape(_node_test(tree, schema, i, s.precision))}</B>"
    elif empty:
        title = f"<B><I>{s.words['empty']}</I></B>"
    elif classes is not None:
        title = f"<B>{s.words['class']} = {html_escape(classes[node_prediction_index(tree, i)])}</B>"
    else:
        title = f"<B>{s.words['value']} = {fmt_num(tree.value[i, 0], s.precision)}</B>"
    rows.append(prefix + title)
    if empty:
        if classes is not None:
            rows.append(f"{s.words['parents_majority']}: {html_escape(classes[node_prediction_index(tree, i)])}")
        else:
            rows.append(f"{s.words['value']} = {fmt_num(tree.value[i, 0], s.precision)} {s.words['parents_value']}")
    else:
        rows.append(f"{s.words['samples']} = {fmt_weight(tree.weighted_n[i])}")
        if classes is not None:
            counts = tree.value[i]
            if len(classes) <= 4:
                rows.append(" · ".join(f"{html_escape(c)} {fmt_weight(v)}" for c, v in zip(classes, counts)))
            else:
                rows.append("value = &#91;" + ", ".join(fmt_weight(v) for v in counts) + "&#93;")
            bar = "".join(f'<TD WIDTH="{w}" HEIGHT="6" FIXEDSIZE="TRUE" BGCOLOR="{s.colors[k]}"></TD>'
                          for k, w in _bar_widths(counts, 100))
            rows.append(f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0" '
                        f'FIXEDSIZE="TRUE" WIDTH="100" HEIGHT="6">'
                        f"<TR>{bar}</TR></TABLE>")
        rows.append(f"{html_escape(s.impurity)} = {fmt_num(tree.impurity[i], s.precision)}")
        if not leaf:
            if classes is not None:
                rows.append(f"{s.words['class']} = {html_escape(classes[node_prediction_index(tree, i)])}")
            else:
                rows.append(f"{s.words['value']} = {fmt_num(tree.value[i, 0], s.precision)}")
    body = "".join(f"<TR><TD>{r}</TD></TR>" for r in rows)
    label = f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{body}</TABLE>'
    # a ghost (removed by pruning) keeps its outline but loses its class colour
    fill = "#f7f7f7" if ghosted else _node_fill(tree, i, s, classes)
    attrs = [f'id="dtnode{i}"', f'fillcolor="{fill}"']
    styles = ["rounded", "filled"]
    if ghosted:
        styles.append("dashed")
        attrs += ['color="#9e9e9e"', 'fontcolor="#757575"', "penwidth=1.5"]
    elif empty:
        styles.append("dashed")
    if bold:
        attrs.append("penwidth=3")
        if not ghosted:
            attrs.append('color="#111111"')
    attrs.insert(1, f'style="{",".join(styles)}"')
    return f"node{i} [{', '.join(attrs)}, label=<{label}>];"


def _node_fill(tree: Tree, i: int, s: _DotStyle, classes) -> str:
    """Majority-class colour, stronger the purer the node (white at a uniform distribution)."""
    if is_empty(tree, i):
        return "#f5f5f5"
    if classes is None:
        lo, hi = s.value_range
        t = 0.5 if hi <= lo else (float(tree.value[i, 0]) - lo) / (hi - lo)
        return _mix_white(REGRESSION_COLOR, 0.08 + 0.6 * t)
    counts = tree.value[i]
    tot = counts.sum()
    k = node_prediction_index(tree, i)
    n = len(classes)
    p = counts[k] / tot if tot > 0 else 1.0 / n
    purity = 1.0 if n <= 1 else max(0.0, (p - 1.0 / n) / (1.0 - 1.0 / n))
    return _mix_white(s.colors[k], 0.1 + 0.55 * purity)


def _node_test(tree: Tree, schema: Schema, i: int, precision: int) -> str:
    """The question a node asks: ``密度 ≤ 0.381`` for a binary test, the feature name otherwise."""
    name = schema.features[int(tree.feature[i])].name
    bs = branches(tree, schema, i, precision)
    if len(bs) == 2 and bs[0].op in ("le", "eq", "in"):
        return f"{name} {condition_text(bs[0])}"
    return name


# =============================================================================================
# text rules

def to_text(model, schema: Schema | None = None, *, max_depth: int = 10, precision: int = 4,
            show_weights: bool = False, spacing: int = 3) -> str:
    """Indented rules in the style of scikit-learn's ``export_text`` (ASCII operators so the
    rules paste into code; numbers at ``precision`` significant digits)."""
    tree, schema, _ = _unwrap(model, schema)
    if spacing < 1:
        raise ValueError("spacing must be ≥ 1")
    classes = schema.classes
    right = "|" + "-" * spacing + " "
    pad = "|" + " " * spacing
    out: list[str] = []

    def leaf_text(i):
        if classes is not None:
            text = f"class: {plain_text(classes[node_prediction_index(tree, i)])}"
            if show_weights:
                text = "weights: [" + ", ".join(fmt_weight(v) for v in tree.value[i]) + "] " + text
        else:
            text = "value: [" + ", ".join(fmt_num(v, precision) for v in tree.value[i]) + "]"
        if is_empty(tree, i):
            text += " (empty: parent's majority)" if classes is not None else " (empty)"
        return text

    def walk(i, level):
        indent = pad * level
        if tree.feature[i] < 0:
            out.append(indent + right + leaf_text(i))
            return
        if level >= max_depth:
            sub = tree.subtree(i)
            depth = int(tree.depth[sub].max() - tree.depth[i])
            out.append(indent + right + f"truncated branch of depth {depth}")
            return
        name = plain_text(schema.features[int(tree.feature[i])].name)
        for b in branches(tree, schema, i, precision):
            line = f"{name} {condition_text(b, ascii_ops=True)}"
            if b.missing and b.op != "missing":
                line += " or missing"
                if b.also:
                    line += " (also " + ", ".join(plain_text(c) for c in b.also) + ")"
            out.append(indent + right + line)
            walk(b.child, level + 1)

    if tree.node_count:
        walk(0, 0)
    return "\n".join(out) + "\n"


# =============================================================================================
# rendering

def render(dot_source: str, fmt: str = "svg", *, dot: str = "dot", dpi: int | None = None,
           timeout: float = 60.0) -> bytes:
    """DOT → SVG/PNG/PDF bytes through the real Graphviz ``dot``.

    SVG output drops graphviz's version comment so that it depends on the input only.
    """
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"format must be svg, png or pdf, not {fmt!r}")
    exe = shutil.which(dot)
    if exe is None:
        raise GraphvizMissing(f"Graphviz '{dot}' was not found: install graphviz "
                              "(apt-get install graphviz) or export .dot/.json instead")
    cmd = [exe, f"-T{fmt}"]
    if dpi is not None:
        cmd.append(f"-Gdpi={int(dpi)}")
    try:
        proc = subprocess.run(cmd, input=dot_source.encode("utf-8"), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise GraphvizError(f"Graphviz took longer than {timeout:g} s; show fewer levels "
                            "(max_depth) or collapse subtrees") from None
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise GraphvizError(f"Graphviz failed (exit {proc.returncode}): {err}")
    out = proc.stdout
    if fmt == "svg":
        out = re.sub(rb"<!-- Generated by graphviz[^>]*-->\n", b"", out)
    return out


def write_tree_file(model, path, **dot_options) -> None:
    """Write the picture or rules a suffix asks for: .dot, .txt, .svg, .png, .pdf (or .json model)."""
    suffix = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if suffix == "json":
        save_model(model, path)
    elif suffix == "txt":
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(to_text(model))
    elif suffix == "dot" or suffix == "gv":
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(to_dot(model, **dot_options))
    elif suffix in ("svg", "png", "pdf"):
        data = render(to_dot(model, **dot_options), suffix)
        with open(path, "wb") as f:
            f.write(data)
    else:
        raise ValueError(f"unknown output type {path!r}: use .json, .dot, .txt, .svg, .png or .pdf")
