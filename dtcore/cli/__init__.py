"""The command line: ``python -m dtcore train|predict|show|export|splits|prune|explain-prediction|compare``.

It runs the same code as the app (readers → schema → estimator → export), so scripts and CI see
exactly what the dashboard shows. Every user error ends with one line on stderr and exit code 2,
never a traceback. This package only parses flags and calls dtcore: one module per command group
(``train`` for train/predict, ``show``, ``export``, ``splits``, ``prune``, ``explain``), shared bits in ``common``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dtcore import __version__
from dtcore.cli import compare, explain, export, prune, splits, train
from dtcore.cli.common import EXIT_USER_ERROR, OUTPUT_SUFFIXES, warn
from dtcore.cli.pictures import add_picture_args, dot_options
from dtcore.cli.train import (
    RolePlan,
    add_training_args,
    fit_from_args,
    fit_prepared,
    params_from_args,
    plan_roles,
    prepare_training,
    read_training,
)
from dtcore.data.limits import ENV, LimitError
from dtcore.explain.summary import node_splits
from dtcore.export import GraphvizError, GraphvizMissing
from dtcore.schema import DataError

__all__ = [
    "EXIT_USER_ERROR",
    "OUTPUT_SUFFIXES",
    "RolePlan",
    "add_picture_args",
    "add_training_args",
    "build_parser",
    "dot_options",
    "fit_from_args",
    "fit_prepared",
    "main",
    "node_splits",
    "params_from_args",
    "plan_roles",
    "prepare_training",
    "read_training",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dtcore", description="Grow, inspect and draw decision trees (ID3, C4.5, CART)."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    train.add_parsers(sub)
    export.add_parser(sub)
    splits.add_parser(sub)
    prune.add_parser(sub)
    explain.add_parser(sub)
    compare.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except FileNotFoundError as exc:
        warn(f"error: no such file: {exc.filename}")
    except IsADirectoryError as exc:
        warn(f"error: {exc.filename} is a directory, not a file")
    except PermissionError as exc:
        warn(f"error: permission denied: {exc.filename}")
    except LimitError as exc:
        warn(f"error: {exc} (set {ENV[exc.what]} higher, or pass --no-limits)")
    except (DataError, ValueError, GraphvizMissing, GraphvizError) as exc:
        warn(f"error: {exc}")
    except MemoryError:
        warn(
            "error: out of memory: the data is too large to read or train here "
            "(fewer rows, columns or categories)"
        )
    return EXIT_USER_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
