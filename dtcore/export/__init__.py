"""A fitted tree out of Python, one module per format: the versioned JSON model (``model_json``),
Graphviz DOT (``dot``), text rules (``rules_text``), J48's text form (``j48``), a Python
``predict(row)`` function (``python_code``), an SQL query (``sql``), PMML 4.4 (``pmml``), the
standalone HTML page (``html``) and its notebook view (``notebook``), and pictures through Graphviz
(``render``); ``labels`` holds what every format says about a node.

Every output is deterministic (pre-order node ids, fixed number formats), so the same model gives
byte-identical files, and every piece of user text (column names, category labels, class names)
is escaped for the format it lands in: models are JSON, never pickle.
"""

from __future__ import annotations

from dtcore.export.dot import DOT_WORDS, FONTNAME, PALETTE, REGRESSION_COLOR, class_palette, to_dot
from dtcore.export.html import PAGE_WORDS, to_html
from dtcore.export.labels import (
    Branch,
    branches,
    condition_text,
    html_escape,
    impurity_name,
    is_empty,
    node_prediction_index,
    node_prediction_indices,
    plain_text,
    unassigned_categories,
)
from dtcore.export.model_json import (
    FORMAT,
    VERSION,
    describe_nodes,
    dumps_model,
    load_model,
    model_from_dict,
    model_to_dict,
    save_model,
    tree_summary,
)
from dtcore.export.pmml import PmmlMappingError, to_pmml
from dtcore.export.python_code import to_python
from dtcore.export.render import GraphvizError, GraphvizMissing, render, write_tree_file
from dtcore.export.rules_text import to_text
from dtcore.export.sql import to_sql
from dtcore.numbers import fmt_num, fmt_weight

__all__ = [
    "Branch",
    "DOT_WORDS",
    "PAGE_WORDS",
    "FONTNAME",
    "FORMAT",
    "GraphvizError",
    "GraphvizMissing",
    "PALETTE",
    "PmmlMappingError",
    "REGRESSION_COLOR",
    "VERSION",
    "branches",
    "class_palette",
    "condition_text",
    "describe_nodes",
    "dumps_model",
    "fmt_num",
    "fmt_weight",
    "html_escape",
    "impurity_name",
    "is_empty",
    "load_model",
    "model_from_dict",
    "model_to_dict",
    "node_prediction_index",
    "node_prediction_indices",
    "plain_text",
    "render",
    "save_model",
    "tree_summary",
    "to_dot",
    "to_html",
    "to_pmml",
    "to_python",
    "to_sql",
    "to_text",
    "unassigned_categories",
    "write_tree_file",
]
