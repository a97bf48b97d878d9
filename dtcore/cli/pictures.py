"""The picture flags of ``train`` and ``export`` (``--precision``, ``--rankdir``,
``--show-depth``; ``train``'s ``--node-charts``) and the ``to_dot`` options they give."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import numpy as np

from dtcore.cli.common import positive_int
from dtcore.export.node_charts import node_charts
from dtcore.schema import encode_target

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator


def dot_options(args: argparse.Namespace) -> dict:
    opts = {"precision": args.precision, "rankdir": args.rankdir}
    if args.show_depth is not None:
        opts["max_depth"] = args.show_depth
    return opts


def add_picture_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--precision", type=positive_int, default=3, help="significant digits in pictures")
    p.add_argument("--rankdir", default="TB", choices=("TB", "LR", "BT", "RL"), help="Graphviz's rankdir")
    p.add_argument(
        "--show-depth", type=int, metavar="N", help="draw N levels; deeper subtrees become summary boxes"
    )


def add_node_charts_arg(p: argparse.ArgumentParser) -> None:
    """``train`` only: the charts need the rows the tree was fitted on."""
    p.add_argument(
        "--node-charts",
        action="store_true",
        help="draw the split feature's histogram of the training rows inside each test and each "
        "leaf's bar sized by its samples (.dot/.svg/.png/.pdf; docs/node-charts.md)",
    )


def chart_options(
    args: argparse.Namespace, est: BaseTreeEstimator, X: np.ndarray, y: np.ndarray, w: np.ndarray | None
) -> dict:
    """``to_dot``'s ``charts`` from the raw training rows when ``--node-charts`` asks, else {}."""
    if not args.node_charts:
        return {}
    return {"charts": node_charts(est, est.encode(X), encode_target(est.schema_, y), w)}
