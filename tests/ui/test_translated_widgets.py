"""Every selection widget with option labels keeps a language-independent value (issue 27, item 1).

The browser reports a selection by the label it drew; after a language switch that label is no
longer one of the new run's labels, and Streamlit hands it back as the value (``KeyError:
'training'``). A label table from ``state.fixed_labels(..., key=<the widget's key>)`` writes the
value back when its labels change, while the old labels still decode it; the URL-bound keys are
written back by ``state.on_language_change``. This test reads the source: each widget that has a
``format_func`` is one or the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ui.state.url import url_defaults

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = {"selectbox", "radio", "segmented_control", "pills", "multiselect", "select_slider"}
SOURCES = [*sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py")), ROOT / "app.py"]


def widget_calls(tree: ast.AST):
    """(widget name, keywords) of each direct call (``st.selectbox(...)``) and of each call
    through a wrapper that takes the widget first (``report_mode.control(st.radio, ...)``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in WIDGETS:
            yield func.attr, node.keywords, node.lineno
        elif node.args and isinstance(node.args[0], ast.Attribute) and node.args[0].attr in WIDGETS:
            yield node.args[0].attr, node.keywords, node.lineno


def keyword(keywords, name):
    return next((k.value for k in keywords if k.arg == name), None)


def test_the_source_has_translated_widgets_to_check():
    found = [c for path in SOURCES for c in widget_calls(ast.parse(path.read_text()))]
    assert len(found) >= 25  # the walk sees the pages' widgets (a broken walk would pass below)


def test_each_widget_with_labels_keeps_its_value_across_a_language_switch():
    kept_by_url = set(url_defaults())
    wrong = []
    for path in SOURCES:
        for name, keywords, line in widget_calls(ast.parse(path.read_text())):
            fmt = keyword(keywords, "format_func")
            if fmt is None:
                continue
            key = keyword(keywords, "key")
            where = f"{path.relative_to(ROOT)}:{line} ({name})"
            if key is None:
                wrong.append(f"{where}: no key")
                continue
            if isinstance(key, ast.Constant) and key.value in kept_by_url:
                continue
            labels_key = (
                keyword(fmt.keywords, "key")
                if isinstance(fmt, ast.Call)
                and getattr(fmt.func, "attr", getattr(fmt.func, "id", "")) == "fixed_labels"
                else None
            )
            if labels_key is None or ast.dump(labels_key) != ast.dump(key):
                wrong.append(f"{where}: format_func is not fixed_labels(..., key=<its key>)")
    assert not wrong, "\n".join(wrong)
