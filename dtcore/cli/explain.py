"""``explain-prediction``: why a saved model predicts what it does for one sample — the path, C4.5's
fractions at missing values, the mixed distribution and the counterfactuals
(``dtcore.explain.prediction``), as text or JSON."""

from __future__ import annotations

import argparse
import json

from dtcore.cli.common import add_tree_arg, positive_int, print_json, read_model, stdout
from dtcore.data.readers import read_table
from dtcore.explain.prediction import explain_prediction, explanation_text
from dtcore.schema import DataError, lacking_columns


def _row(args: argparse.Namespace, names: list[str]) -> dict[str, object]:
    """The sample: ``--row`` JSON object, or row ``--index`` of ``--csv`` (columns matched by name)."""
    if args.row is not None:
        try:
            row = json.loads(args.row)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"--row is not valid JSON ({exc.msg}): give an object like '{{\"a\": 1}}'"
            ) from None
        if not isinstance(row, dict):
            raise ValueError("--row must be a JSON object of feature name → value")
        return row
    table = read_table(args.csv)
    missing = lacking_columns(table.names, names)
    if missing:
        raise DataError(f"{args.csv} lacks the column(s) {missing} that the model was trained on")
    if not 0 <= args.index < table.n_rows:
        raise ValueError(f"--index {args.index}: {args.csv} has data rows 0..{table.n_rows - 1}")
    cells = table.rows[args.index]
    return {n: cells[table.column_index(n)] for n in names}


def cmd_explain_prediction(args: argparse.Namespace) -> int:
    if (args.row is None) == (args.csv is None):
        raise ValueError("give the sample as --row JSON or as --csv FILE --index N")
    est = read_model(args)
    ex = explain_prediction(est, _row(args, est.schema_.names), precision=args.precision)
    if args.format == "json":
        print_json(ex.to_dict())
    else:
        stdout(explanation_text(ex))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "explain-prediction",
        help="why a saved model predicts what it does for one sample",
        description="The path one sample takes through a saved model, the branch shares where a "
        "value is missing (C4.5 sends the sample down every branch; CART follows its learned "
        "direction), every leaf reached with its weight, the mixing of their distributions into "
        "the prediction as arithmetic, and per feature on the path the values that keep the "
        "prediction and the nearest change that flips it.",
    )
    p.add_argument("model", help="model JSON written by train")
    add_tree_arg(p)
    p.add_argument(
        "--row", help='the sample as a JSON object: \'{"色泽": "青绿", "密度": 0.5}\' (absent = missing)'
    )
    p.add_argument("--csv", help="a data file holding the sample (columns matched by name)")
    p.add_argument("--index", type=int, default=0, help="the row of --csv (0 = the first data row)")
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="text for reading, json for scripts"
    )
    p.add_argument("--precision", type=positive_int, default=4, help="significant digits of thresholds")
    p.set_defaults(func=cmd_explain_prediction)
