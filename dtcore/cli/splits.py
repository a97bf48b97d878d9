"""``splits``: the best test per feature at one node, as JSON (``dtcore.explain.summary``)."""

from __future__ import annotations

import argparse
import json

from dtcore.cli.common import stdout
from dtcore.cli.train import add_training_args, fit_prepared, params_from_args, read_training
from dtcore.estimators import estimator_class
from dtcore.explain.summary import node_splits


def cmd_splits(args: argparse.Namespace) -> int:
    prepared, weight = read_training(args)
    X, y, features, kinds, categories, classes, task = prepared
    if args.node != 0:  # node ids refer to the tree these settings grow
        est = fit_prepared(args, prepared, weight)
    else:  # the root needs no tree: an unfitted estimator with these settings
        params = params_from_args(args)
        est = estimator_class(args.algorithm, task)()
        if args.algorithm == "id3" and "continuous" not in params:
            params["continuous"] = "threshold"  # binary cuts at the root (SPEC §4), not intervals
        est.set_params(**params)
    report = node_splits(
        X,
        y,
        features,
        kinds,
        categories,
        classes,
        task,
        args.target,
        algorithm=args.algorithm,
        criterion=args.criterion,
        node=args.node,
        estimator=est,
        min_samples_leaf=args.min_samples_leaf or 1,
        sample_weight=weight,
    )
    stdout(json.dumps(report, ensure_ascii=False, indent=1, allow_nan=False) + "\n")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("splits", help="best test per feature at a node, as JSON")
    add_training_args(p)
    p.add_argument("--node", type=int, default=0, help="node id (pre-order, as the pictures show)")
    p.set_defaults(func=cmd_splits)
