"""``python -m dtcore prune``: prune a saved model on data files, or print its α path.

    python -m dtcore prune MODEL.json DATA.csv --method rep|pep|ebp|ccp
        [--alpha A | --cf CF | --cv K] [--validation VALID.csv] [--test TEST.csv]
        [--rep-ties prune|keep] --out PRUNED.json
    python -m dtcore prune MODEL.json --path

DATA.csv is the training data (PEP ignores it, EBP re-fits raised branches to it, ``--cv``
re-grows on its folds).  The pruned model is written to ``--out`` and the report printed as JSON.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dtcore.cli.common import add_limits_arg, add_tree_arg, read_limits, read_model
from dtcore.cli.common import print_json as _print_json
from dtcore.data.limits import NO_LIMITS, SizeLimits
from dtcore.pruning.alpha_selection import estimator_grower
from dtcore.pruning.ccp import cost_complexity_path
from dtcore.pruning.interface import prune
from dtcore.pruning.methods import PRUNING_METHODS
from dtcore.pruning.rep import TIE_RULES

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register the ``prune`` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "prune", help="post-prune a saved model (REP, PEP, C4.5 EBP, CART CCP); prints the report as JSON"
    )
    p.add_argument("model", help="model JSON written by train")
    add_tree_arg(p)
    p.add_argument("data", nargs="?", help="the training data (CSV/TSV/ARFF with the model's columns)")
    p.add_argument(
        "--method",
        choices=tuple(PRUNING_METHODS),
        help="rep: reduced-error (needs --validation), pep: pessimistic, ebp: C4.5 error-based, "
        "ccp: cost-complexity",
    )
    p.add_argument(
        "--alpha", type=float, help="ccp: prune at this α (else chosen by --cv or on --validation)"
    )
    p.add_argument("--cv", type=int, metavar="K", help="ccp: choose α by K-fold cross-validation")
    p.add_argument("--one-se", action="store_true", help="ccp: choose α by the 1-SE rule")
    p.add_argument("--seed", type=int, default=0, help="ccp --cv: fold shuffling seed")
    p.add_argument("--cf", type=_cf_arg, default=0.25, help="ebp: confidence factor in (0, 1) (default 0.25)")
    p.add_argument(
        "--z",
        type=_z_arg,
        help="ebp: c45 (release 8's table, default), normal (Weka's exact quantile) or a number",
    )
    p.add_argument("--no-subtree-raising", action="store_true", help="ebp: collapse only")
    p.add_argument(
        "--rep-ties",
        choices=TIE_RULES,
        default=TIE_RULES[0],
        help="rep: when the validation error is unchanged, prune (Occam's razor, the default) or "
        "keep the subtree (Zhou's figure 4.7)",
    )
    p.add_argument("--validation", metavar="VALID.csv", help="validation data (rep; ccp α choice)")
    p.add_argument("--test", metavar="TEST.csv", help="test data, for errors in the report only")
    p.add_argument("--weight", metavar="COL", help="a column of sample weights in the data files")
    p.add_argument(
        "--path",
        action="store_true",
        help="print the cost-complexity path (ccp_alphas, impurities, n_leaves) and stop",
    )
    p.add_argument("--out", help="where to write the pruned model JSON")
    add_limits_arg(p)
    p.set_defaults(func=cmd_prune)
    return p


def _z_arg(text: str) -> str | float:
    if text in ("c45", "normal"):
        return text
    try:
        z = float(text)
    except ValueError:
        z = math.nan
    if not (math.isfinite(z) and z >= 0):
        raise argparse.ArgumentTypeError(f"--z must be c45, normal or a number ≥ 0, not {text!r}")
    return z


def _cf_arg(text: str) -> float:
    try:
        cf = float(text)
    except ValueError:
        cf = math.nan
    if not 0 < cf < 1:
        raise argparse.ArgumentTypeError(
            f"--cf must be a number between 0 and 1 (C4.5's default 0.25), not {text!r}"
        )
    return cf


def encoded_rows(
    est: BaseTreeEstimator,
    path: str | Path,
    weight_column: str | None = None,
    limits: SizeLimits = NO_LIMITS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(X, y, w) of a data file, encoded against the model's schema (columns matched by name)."""
    from dtcore.data.readers import read_table
    from dtcore.schema import DataError, encode_target, lacking_columns

    table = read_table(path, limits=limits)
    schema = est.schema_
    needed = schema.names + [schema.target]
    missing = lacking_columns(table.names, needed)
    if missing:
        raise DataError(
            f"{Path(path).name} lacks the column(s) {missing} that the model was "
            f"trained on (it needs {needed})"
        )
    X = est.encode(table.rows[:, [table.column_index(n) for n in schema.names]])
    y = encode_target(schema, table.column(schema.target))
    w = None
    if weight_column:
        try:
            w = np.array([float(v) for v in table.column(weight_column)])
        except ValueError:
            raise DataError(f"weight column {weight_column!r} must hold numbers") from None
    return X, y, w


def cmd_prune(args: argparse.Namespace) -> int:
    from dtcore.export import impurity_name, save_model
    from dtcore.export.files import refuse_input_as_output

    est = read_model(args)
    if args.path:
        _print_json(cost_complexity_path(est.tree_).to_dict())
        return 0
    if args.method is None:
        raise ValueError("prune needs --method rep|pep|ebp|ccp (or --path)")
    if not args.out:
        raise ValueError("prune needs --out PRUNED.json for the pruned model")
    if Path(args.out).suffix.lower() != ".json":
        raise ValueError(f"--out {args.out!r}: the pruned model is written as .json")
    refuse_input_as_output(args.out, [args.model, args.data, args.validation, args.test])
    sets = {}
    for name, path in (("train", args.data), ("valid", args.validation), ("test", args.test)):
        X, y, w = encoded_rows(est, path, args.weight, read_limits(args)) if path else (None, None, None)
        sets.update({f"X_{name}": X, f"y_{name}": y, f"w_{name}": w})
    if not args.data and (args.method == "ebp" or (args.method == "ccp" and args.cv)):
        raise ValueError(f"--method {args.method} needs the training data file (DATA.csv)")
    pruned, report = prune(
        est.tree_,
        args.method,
        alpha=args.alpha,
        cv=args.cv,
        one_se=args.one_se,
        seed=args.seed,
        grow=estimator_grower(est, est.schema_),
        cf=args.cf,
        z=args.z,
        subtree_raising=not args.no_subtree_raising,
        impurity=impurity_name(est) if args.method == "ebp" else "entropy",
        on_tie=args.rep_ties,
        **sets,
    )
    est.tree_ = pruned
    report_json = report.to_dict()  # the report is built before anything is written
    save_model(est, args.out)
    _print_json(report_json)
    return 0
