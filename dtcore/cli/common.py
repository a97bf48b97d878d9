"""What every command shares: UTF-8 output, one-line warnings, option parsing, output suffixes,
the size limits data files are read with."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dtcore.base import BaseTreeEstimator
from dtcore.data.limits import NO_LIMITS, SizeLimits, configured
from dtcore.importers import load_model

EXIT_USER_ERROR = 2
OUTPUT_SUFFIXES = (".json", ".dot", ".gv", ".txt", ".svg", ".png", ".pdf", ".py", ".sql", ".pmml", ".html")


def stdout(text: str) -> None:
    """UTF-8 on stdout whatever the locale (labels are often Chinese)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def warn(text: str) -> None:
    sys.stderr.buffer.write(f"dtcore: {text}\n".encode())
    sys.stderr.buffer.flush()


def print_json(data: object) -> None:
    stdout(json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n")


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` with VALUE read as JSON when it is JSON (numbers, true, null), else a string."""
    if "=" not in text:
        raise ValueError(f"--option {text!r} must look like KEY=VALUE")
    key, raw = text.split("=", 1)
    key = key.strip().replace("-", "_")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def int_or_float(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def positive_int(text: str) -> int:
    """An argparse type: a whole number ≥ 1 (digits, depths)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, not {text!r}")
    return value


def check_out(path: str) -> None:
    if Path(path).suffix.lower() not in OUTPUT_SUFFIXES:
        raise ValueError(f"--out {path!r}: the suffix must be one of {', '.join(OUTPUT_SUFFIXES)}")


def add_limits_arg(p: argparse.ArgumentParser) -> None:
    """``--no-limits`` on a command that reads data files (docs/operators.md, "Limits")."""
    p.add_argument(
        "--no-limits",
        action="store_true",
        help="read data files of any size (default: the DTREE_MAX_* size limits, as in the app)",
    )


def read_limits(args: argparse.Namespace) -> SizeLimits:
    """The size limits a command reads its data files with: the configured ones, or none."""
    return NO_LIMITS if getattr(args, "no_limits", False) else configured()


def add_tree_arg(p: argparse.ArgumentParser) -> None:
    """``--tree I`` on a command that reads a MODEL: the member of an imported ensemble."""
    p.add_argument(
        "--tree",
        type=int,
        default=None,
        metavar="I",
        help="MODEL may also be an XGBoost JSON model, a LightGBM model (dump_model JSON or text) "
        "or a PMML TreeModel, told apart by content; --tree picks the member tree (default 0)",
    )


def read_model(args: argparse.Namespace) -> BaseTreeEstimator:
    """The command's MODEL file in any format ``dtcore.importers.load_model`` reads, member
    ``--tree``."""
    return load_model(args.model, tree=getattr(args, "tree", None))
