"""dtcore.numbers is the one home of the number formats: each behaviour has one name, every
module calls it, and export.labels / export.thresholds no longer import each other."""

import ast
from pathlib import Path

import numpy as np
import pytest

from dtcore import numbers
from dtcore.numbers import fmt_fixed, fmt_metric, fmt_num, fmt_pct, fmt_score, fmt_weight
from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[2]
FORMATS = {"fmt_num", "fmt_weight", "fmt_fixed", "fmt_score", "fmt_metric", "fmt_pct"}


def test_formats():
    assert fmt_num(3.0) == "3" and fmt_num(0.1 + 0.2) == "0.30000000000000004"
    assert fmt_num(123456.7, 4) == "123457" and fmt_num(-0.00001, 1) == "-1e-05"
    assert fmt_num(-1e-300, 2) == "-1e-300" and fmt_num(float("nan"), 3) == "nan"
    assert fmt_weight(3.0) == "3" and fmt_weight(2.5) == "2.50"
    assert fmt_score(0.2625) == "0.263" and fmt_score(None) == "–" and fmt_score(np.inf) == "–"
    assert fmt_fixed(-0.25, 2) == "-0.25" and fmt_fixed(2, 1) == "2.0"
    assert fmt_metric(12345.678) == "1.235e+04" and fmt_metric(None) == "–" and fmt_metric(np.nan) == "–"
    assert fmt_pct(0.8125) == "81.2%" and fmt_pct(None) == "–"


@pytest.mark.parametrize("v", [-1e-17, -0.0, -0.0004, np.float64(-1e-9)])
def test_a_score_that_rounds_to_zero_prints_unsigned(v):
    assert fmt_score(v) == "0.000"
    assert fmt_fixed(v, 3) == "0.000" and fmt_fixed(-1e-17, 4) == "0.0000"


def _defs(folders=("dtcore", "ui", "pages")):
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(parsed(path)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield path.relative_to(ROOT).as_posix(), node


def test_number_formats_are_defined_once():
    """No module but dtcore/numbers.py defines a function named like one of its formats (there
    were two different ``fmt_num``: export.labels' and ui.views.text's)."""
    homes = {(rel, fn.name) for rel, fn in _defs() if fn.name in FORMATS}
    assert homes == {("dtcore/numbers.py", name) for name in FORMATS}, homes


def test_three_decimal_scores_have_one_home():
    """The 3-decimal score format (f"{x:.3f}" with or without a -0.000 guard) was written in
    analysis.disagreement.fmt, ui.views.growth._num and ui.views.splits.num: only numbers has it."""
    found = []
    for rel, fn in _defs():
        for node in ast.walk(fn):
            if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
                spec = ast.unparse(node.format_spec)
                if ".3f" in spec or "digits" in spec:
                    found.append((rel, fn.name))
    lonely = {f for f in found if f[0] != "dtcore/numbers.py"}
    # a weighted count is not a score
    assert lonely <= {("ui/views/splits.py", "count")}, lonely
    for gone in (("dtcore/analysis/disagreement.py", "fmt"), ("ui/views/growth.py", "_num")):
        assert gone not in {(rel, fn.name) for rel, fn in _defs()}, gone


def _imports(rel: str) -> set[str]:
    """Every dtcore module a file imports, at module level or inside functions."""
    out = set()
    for node in ast.walk(parsed(ROOT / rel)):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def test_labels_and_thresholds_do_not_import_each_other_both_ways():
    labels = _imports("dtcore/export/labels.py")
    thresholds = _imports("dtcore/export/thresholds.py")
    assert not ("dtcore.export.thresholds" in labels and "dtcore.export.labels" in thresholds)
    assert "dtcore.export.labels" not in thresholds and "dtcore.numbers" in thresholds


def test_numbers_imports_the_standard_library_only():
    roots = {name.split(".")[0] for name in _imports("dtcore/numbers.py")}
    assert roots <= {"__future__", "math", "typing", "numpy"}, roots
    assert numbers.fmt_num is __import__("dtcore.export", fromlist=["fmt_num"]).fmt_num
