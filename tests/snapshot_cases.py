"""The data and settings every snapshot layer uses: each algorithm on the SPEC data sets.

A case is the argument list of ``python -m dtcore train`` (minus ``--out``), so the in-process
snapshots and the cross-process determinism test fit exactly the same model through the same code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assets" / "samples"

_MELON = ["--target", "好瓜", "--ignore", "编号"]
_BUYS = ["--target", "buys_computer", "--ignore", "RID"]
_TOY = ["--target", "y", "--task", "regression"]

#: case id → (data file, dtcore train flags)
CASES: dict[str, tuple[str, list[str]]] = {
    "watermelon2-id3": ("watermelon_2.0.csv", _MELON + ["--algorithm", "id3"]),
    "watermelon2-c45": ("watermelon_2.0.csv", _MELON + ["--algorithm", "c45"]),
    "watermelon2-cart": ("watermelon_2.0.csv", _MELON + ["--algorithm", "cart", "--criterion", "gini"]),
    "watermelon3-id3": (
        "watermelon_3.0.csv",
        _MELON + ["--algorithm", "id3", "--option", 'continuous="threshold"'],
    ),
    "watermelon3-c45": ("watermelon_3.0.csv", _MELON + ["--algorithm", "c45"]),
    "watermelon3-cart": ("watermelon_3.0.csv", _MELON + ["--algorithm", "cart", "--criterion", "gini"]),
    "watermelon2missing-c45": ("watermelon_2.0_missing.csv", _MELON + ["--algorithm", "c45"]),
    "watermelon2missing-cart": (
        "watermelon_2.0_missing.csv",
        _MELON + ["--algorithm", "cart", "--criterion", "gini"],
    ),
    "buys_computer-id3": ("buys_computer.csv", _BUYS + ["--algorithm", "id3"]),
    "buys_computer-c45": ("buys_computer.csv", _BUYS + ["--algorithm", "c45"]),
    "buys_computer-cart": ("buys_computer.csv", _BUYS + ["--algorithm", "cart", "--criterion", "gini"]),
    "toy5-cart-regression": ("regression_toy5.csv", _TOY + ["--algorithm", "cart"]),
    "toy10-cart-regression": ("regression_toy10.csv", _TOY + ["--algorithm", "cart"]),
}


def train_argv(case: str, out: str) -> list[str]:
    data, flags = CASES[case]
    return ["train", str(SAMPLES / data), *flags, "--out", out]


def fit_case(case: str):
    """The estimator ``python -m dtcore train`` fits for this case (same parser, same code)."""
    from dtcore.cli import build_parser, fit_from_args

    return fit_from_args(build_parser().parse_args(train_argv(case, "unused.json")))


# ---------------------------------------------------------------------------------------------
# normalisation for stored snapshots (the determinism test compares raw bytes instead)

_GEOMETRY = re.compile(r'\b(x|y|width|height|viewBox|points|d|transform)="[^"]*"')


def normalise_svg(svg: bytes | str) -> str:
    """Graphviz SVG without geometry: the structure, ids, classes, texts, fonts, fills and strokes.

    Why: every coordinate follows from text widths, i.e. from whichever font fontconfig picks for
    "Noto Sans CJK SC,…" on that machine and from the Graphviz version's layout rounding. Keeping
    them would make the stored snapshot machine-specific. What the snapshot still catches: any
    change of a label, a colour, a style, the node/edge set or order, the font list. Geometry is
    covered by the byte-identity test (same machine, two processes) and by the screenshot layer.
    """
    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    return _GEOMETRY.sub(lambda m: f'{m.group(1)}="…"', text)


def _round_floats(obj, digits: int = 12):
    if isinstance(obj, float):
        return float(f"{obj:.{digits}g}")
    if isinstance(obj, list):
        return [_round_floats(v, digits) for v in obj]
    if isinstance(obj, dict):
        return {k: _round_floats(v, digits) for k, v in obj.items()}
    return obj


def normalise_json(text: str) -> str:
    """Model JSON with floats at 12 significant digits (numpy's SIMD log/exp may differ in the
    last bit between CPUs; 12 digits is far above every printed precision and far below noise)."""
    return json.dumps(_round_floats(json.loads(text)), ensure_ascii=False, indent=1) + "\n"


def _decode_typed_arrays(obj):
    """Plotly ≥ 6 writes numpy arrays as ``{"dtype", "bdata"[, "shape"]}``: back to lists, so
    a snapshot diff shows numbers."""
    import base64

    import numpy as np

    if isinstance(obj, dict):
        if "bdata" in obj and "dtype" in obj:
            arr = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
            if "shape" in obj:
                shape = obj["shape"]
                arr = arr.reshape(
                    [int(s) for s in str(shape).split(",")] if isinstance(shape, str) else shape
                )
            return arr.tolist()
        return {k: _decode_typed_arrays(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode_typed_arrays(v) for v in obj]
    return obj


def figure_json(fig) -> str:
    """A Plotly figure as readable, stable JSON: its own ``to_json`` (what the browser receives),
    minus the default template (Plotly's, not ours: it changes with Plotly releases), typed arrays
    decoded, floats at 12 significant digits, keys sorted."""
    d = json.loads(fig.to_json())
    d.get("layout", {}).pop("template", None)
    return (
        json.dumps(_round_floats(_decode_typed_arrays(d)), ensure_ascii=False, indent=1, sort_keys=True)
        + "\n"
    )


# ---------------------------------------------------------------------------------------------
# Plotly figures: the split explorer's gain curves and the pruning charts

#: case → language of the chart labels (one Chinese set of labels, the rest English)
GAIN_CASES = {
    "watermelon3-id3": "zh",
    "watermelon3-c45": "zh",
    "watermelon3-cart": "en",
    "buys_computer-id3": "en",
    "toy10-cart-regression": "en",
}


def training_table(case: str):
    """(raw X, raw y) as ``python -m dtcore train`` reads them for this case."""
    from dtcore.cli import build_parser, read_training

    (X, y, *_), _w = read_training(build_parser().parse_args(train_argv(case, "unused.json")))
    return X, y


def gain_figures(case: str) -> dict:
    """feature name → the Splits page's chart of it at the root (``ui.commands.report.curve_figures``)."""
    from ui.commands.report import curve_figures

    X, y = training_table(case)
    return curve_figures(fit_case(case), X, y, node=0, lang=GAIN_CASES[case])


def _sample_result(sample_id: str, algo: str, criterion: str, **values):
    from ui.services import roles as R
    from ui.services.loading import load_sample, sample_catalogue
    from ui.services.training import Split, train

    s = sample_catalogue()[sample_id]
    d = load_sample(sample_id)
    roles = R.infer_roles(d.df, s.target, s.ignore, d.declared_kinds)
    res = train(d.df, roles, R.infer_task(d.df, s.target), algo, criterion, values, Split(s.valid, s.test, 0))
    return res, d.df


def pruning_figures(lang: str = "en") -> dict:
    """name → static SVG chart: the α charts of CART on breast cancer (5-fold CV, 1-SE rule, α of the CV
    choice) and the CF chart of C4.5 on watermelon 2.0 (CF 0.25), labelled as the Pruning page does."""
    from ui.figures import pruning as pf
    from ui.i18n import translate
    from ui.services import pruning as pv

    def t(key, **kw):
        return translate(key, lang, **kw)

    out = {}
    res, df = _sample_result("breast_cancer", "cart", "gini")
    curves = pv.alpha_curves(res, pv.encoded_sets(res, df), cv_folds=5, one_se=True)
    labels = {s: t("metrics." + s) for s in pv.SETS}
    labels.update({k: t("prune.label." + k) for k in ("band", "rule", "alpha", "chosen", "leaves")})
    labels["cv"] = t("prune.label.cv", k=5)
    labels["error"] = t("prune.error_rate" if curves.metric == "error_rate" else "prune.mse")
    alpha = curves.cv.alpha
    out["alpha-error-breast_cancer-cart"] = pf.alpha_error_svg(curves, alpha, labels)
    out["leaves-alpha-breast_cancer-cart"] = pf.leaves_alpha_svg(curves, alpha, labels)
    res, df = _sample_result("watermelon_2.0", "c45", "gain_ratio", prune=False)
    curves = pv.cf_curves(res, pv.encoded_sets(res, df))
    labels = {k: t("prune.label." + k) for k in ("nodes", "leaves", "size", "estimate", "cf", "chosen")}
    out["cf-watermelon2-c45"] = pf.cf_svg(curves, 0.25, labels)
    return out


# ---------------------------------------------------------------------------------------------
# everything at once, for the cross-process determinism test

RAW_SUFFIXES = (".json", ".dot", ".txt", ".svg")


def write_all_outputs(out_dir) -> None:
    """Write every case's model/DOT/rules/SVG through the CLI's own ``main`` and every figure's
    raw ``to_json()`` into ``out_dir`` (run in a fresh process by tests/test_determinism.py)."""
    from dtcore.cli import main

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        for suffix in RAW_SUFFIXES:
            if main(train_argv(case, str(out / f"{case}{suffix}"))) != 0:
                raise RuntimeError(f"dtcore train failed for {case}{suffix}")
    for case in GAIN_CASES:
        for k, fig in enumerate(gain_figures(case).values()):
            (out / f"gain-{case}-{k}.plotly.json").write_text(fig.to_json(), encoding="utf-8")
    for name, svg in pruning_figures("zh").items():
        (out / f"{name}.chart.svg").write_text(svg, encoding="utf-8")


if __name__ == "__main__":  # python -m tests.snapshot_cases OUT_DIR
    import sys

    write_all_outputs(sys.argv[1])
