"""``export``: a saved model converted to the format its ``--out`` suffix or ``--format`` names
(pictures, rules, code, PMML, the standalone HTML page with ``--sample``'s path)."""

from __future__ import annotations

import argparse
import json

from dtcore.cli.common import add_tree_arg, check_out, read_model
from dtcore.cli.pictures import add_picture_args, dot_options
from dtcore.export import write_tree_file
from dtcore.export.files import refuse_input_as_output
from dtcore.export.render import FORMATS


def cmd_export(args: argparse.Namespace) -> int:
    if args.format is None:  # the suffix names the format; with --format any name will do
        check_out(args.out)
    refuse_input_as_output(args.out, [args.model])
    est = read_model(args)
    sample = None
    if args.sample is not None:
        if args.format != "html" and not str(args.out).lower().endswith(".html"):
            raise ValueError("--sample is shown by the HTML page only: use --format html or an .html --out")
        sample = read_sample(args.sample)
    write_tree_file(est, args.out, args.format, sample=sample, **dot_options(args))
    return 0


def read_sample(text: str) -> dict[str, object]:
    """``--sample``: a JSON object of column → value (a column left out, or null, is missing)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--sample must be a JSON object such as '{{\"x\": 1.5}}': {exc}") from None
    if not isinstance(value, dict):
        raise ValueError("--sample must be a JSON object of column → value, such as '{\"x\": 1.5}'")
    return {str(k): v for k, v in value.items()}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``export`` on the CLI's subparsers."""
    p = sub.add_parser(
        "export",
        help="convert a saved model to .dot .txt .svg .png .pdf, a .py predict(row) function, .sql query, "
        ".pmml PMML 4.4 or a standalone .html page",
        description="The --out suffix (or --format) picks the format: .dot Graphviz source, .txt rules, "
        ".svg/.png/.pdf picture (needs Graphviz), .py a dependency-free predict(row) function (C4.5's "
        "missing-value rule included), .sql a SELECT with CASE WHEN per class (NULL = missing; see "
        "dtcore/export/sql.py for how C4.5's shared-out NULLs are written), .pmml a PMML 4.4 TreeModel "
        "(dtcore/export/pmml.py says how missing values map), .html one self-contained page with the "
        "pan/zoom tree, collapse, search and a sample's path (needs Graphviz; no network).",
    )
    p.add_argument("model")
    add_tree_arg(p)
    p.add_argument("--out", required=True)
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="the output format (default: from the --out suffix)",
    )
    p.add_argument(
        "--sample",
        metavar="JSON",
        help="HTML only: a row to trace, as a JSON object of column → value, e.g. '{\"x\": 1.5}'",
    )
    add_picture_args(p)
    p.set_defaults(func=cmd_export)
