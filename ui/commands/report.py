"""Report pictures from the command line: the tree (DOT, SVG, PNG) and the split explorer's gain
curves (PNG) for given data and settings, the same pictures the app draws, for people's own
screenshot tests and documents.

    python -m ui.commands.report DATA.csv --target COL --algorithm c45 --out-dir DIR [--node N] [--lang zh]

writes ``DIR/tree.dot``, ``tree.svg``, ``tree.png`` (Graphviz), ``rules.txt`` and
``curves/<feature>.png``: one chart per feature at the node (a score curve over the thresholds of
a continuous feature, CART's subset bars, or the class counts per value of a multiway test), drawn
by ``ui.figures.splits`` and exported by Plotly's Kaleido through the system Chromium
(``BROWSER_PATH``, default /usr/bin/chromium). It lives in ``ui`` because dtcore imports numpy
only; the data flags and the fitting are ``python -m dtcore train``'s own.
Same data and settings → byte-identical DOT, SVG and rules (the tests check it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from pathlib import Path

from dtcore import explain, export
from dtcore.cli import add_picture_args, add_training_args, dot_options, fit_prepared, read_training
from dtcore.schema import DataError, encode_target
from ui.figures import splits as sf
from ui.i18n import LANGS

CHROMIUM = "/usr/bin/chromium"
CURVE_WIDTH = 900
EXIT_USER_ERROR = 2


def use_system_chromium() -> None:
    """Kaleido ≥ 1 drives a Chrome it finds through BROWSER_PATH: point it at the system
    Chromium unless the caller chose one."""
    if not os.environ.get("BROWSER_PATH"):
        exe = shutil.which("chromium") or (CHROMIUM if Path(CHROMIUM).exists() else None)
        if exe:
            os.environ["BROWSER_PATH"] = exe


def file_stem(name: str, taken: set) -> str:
    """A feature name as a file name: path separators, control and shell-hostile characters
    become ``_`` (Chinese stays); duplicates after that get ``-2``, ``-3``…"""
    stem = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]', "_", str(name)).strip().lstrip(".") or "feature"
    out, k = stem, 2
    while out.lower() in taken:
        out, k = f"{stem}-{k}", k + 1
    taken.add(out.lower())
    return out


def node_report(est, X_raw, y_raw, node: int = 0):
    """(NodeData, split report) at ``node`` of a fitted estimator, from the raw training table."""
    s = est.schema_
    X = est.encode(X_raw)
    y = encode_target(s, y_raw)
    nd = explain.explainer_data(est, X, y, None, node)
    return nd, explain.report_for(nd)


def curve_figures(est, X_raw, y_raw, node: int = 0, lang: str = "en") -> dict:
    """feature name → figure, in the schema's feature order (features without a chart left out)."""
    nd, rep = node_report(est, X_raw, y_raw, node)
    out = {}
    for j, rec in enumerate(rep.features):
        fig = sf.feature_figure(nd, rep, j, lang)
        if fig is not None:
            out[rec.name] = fig
    return out


def write_report(args) -> list[Path]:
    out = Path(args.out_dir)
    prepared, weight = read_training(args)
    if weight is not None:
        raise DataError("--weight is not supported by the report (the curves use unit weights)")
    est = fit_prepared(args, prepared, weight)
    X, y = prepared[0], prepared[1]
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def put(name, data: bytes | str):
        p = out / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            p.write_text(data, encoding="utf-8", newline="\n")
        else:
            p.write_bytes(data)
        written.append(p)

    dot = export.to_dot(est, **dot_options(args))
    put("tree.dot", dot)
    put("rules.txt", export.to_text(est))
    put("tree.svg", export.render(dot, "svg"))
    put("tree.png", export.render(dot, "png", dpi=args.dpi))
    if args.no_curves:
        return written
    if not 0 <= args.node < est.tree_.node_count:
        raise ValueError(f"--node {args.node}: the tree has nodes 0..{est.tree_.node_count - 1}")
    figs = curve_figures(est, X, y, args.node, args.lang)
    if figs:
        use_system_chromium()
        import plotly.io as pio

        taken: set = set()
        paths = [out / "curves" / f"{file_stem(name, taken)}.png" for name in figs]
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        try:
            pio.write_images(list(figs.values()), paths, format="png", width=args.width, scale=args.scale)
        except Exception as exc:  # kaleido reports a missing browser in several ways
            raise RuntimeError(
                f"Plotly could not export PNG through Chromium ({exc}); install chromium "
                "or set BROWSER_PATH to a Chrome/Chromium binary"
            ) from None
        written += paths
    return written


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ui.commands.report",
        description="Write the tree (DOT/SVG/PNG, rules) and the gain curves (PNG) "
        "for given data and settings.",
    )
    add_training_args(p)
    add_picture_args(p)
    p.add_argument("--out-dir", required=True, help="folder for tree.* and curves/<feature>.png")
    p.add_argument(
        "--node", type=int, default=0, help="node whose candidate splits are charted (pre-order id)"
    )
    p.add_argument("--lang", default="en", choices=LANGS, help="language of the chart labels")
    p.add_argument("--dpi", type=int, default=96, help="resolution of tree.png")
    p.add_argument("--width", type=int, default=CURVE_WIDTH, help="width of the curve PNGs in CSS pixels")
    p.add_argument("--scale", type=float, default=1.0, help="pixel ratio of the curve PNGs")
    p.add_argument("--no-curves", action="store_true", help="tree only (no Chromium needed)")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        written = write_report(args)
    except FileNotFoundError as exc:
        print(f"ui.commands.report: error: no such file: {exc.filename}", file=sys.stderr)
        return EXIT_USER_ERROR
    except (DataError, ValueError, RuntimeError, export.GraphvizMissing, export.GraphvizError) as exc:
        print(f"ui.commands.report: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    for p in written:
        print(p)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
