"""``train`` and ``predict`` (``show`` is in ``dtcore.cli.show``, ``export`` in
``dtcore.cli.export``): the flags that describe a training run, the table → roles → estimator
steps they share (``ui.report`` reuses them), and the two commands."""

from __future__ import annotations

import argparse
import csv
import io
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dtcore.cli import show
from dtcore.cli.common import (
    add_limits_arg,
    add_tree_arg,
    check_out,
    int_or_float,
    parse_option,
    read_limits,
    read_model,
    stdout,
    warn,
)
from dtcore.cli.engines import TrainRun, add_engine_args, dispatch
from dtcore.cli.pictures import add_node_charts_arg, add_picture_args, chart_options, dot_options
from dtcore.data import roles as R
from dtcore.data.readers import Table, read_table
from dtcore.estimators import ALGORITHMS, estimator_class
from dtcore.export import tree_summary, write_tree_file
from dtcore.export.files import refuse_input_as_output, write_atomic
from dtcore.numbers import fmt_num
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, check_columns, lacking_columns

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

#: ``prepare_training``'s result: (X raw, y raw, feature names, kinds by name, categories by name,
#: classes or None, task)
Prepared = tuple[
    np.ndarray, np.ndarray, list[str], dict[str, str], dict[str, tuple[str, ...]], tuple[str, ...] | None, str
]

# =============================================================================================
# roles: which columns are features, of which kind, and which task


@dataclass(frozen=True)
class RolePlan:
    """The CLI's flags applied to ``dtcore.data.roles``: every column's role, the task, and the
    issues (columns the rules ignored) that become notes on stderr."""

    roles: dict
    task: str
    issues: tuple = ()
    task_inferred: bool = False
    profiles: dict = field(default_factory=dict)  # column → dtcore.data.roles.ColumnProfile


def plan_roles(
    table: Table,
    target: str,
    *,
    ignore: Collection[str] = (),
    categorical: Collection[str] = (),
    continuous: Collection[str] = (),
    keep: Collection[str] = (),
    task: str | None = None,
) -> RolePlan:
    """Roles as the app infers them (``dtcore.data.roles``), then the flags: ``ignore`` drops columns,
    ``categorical``/``continuous`` set a kind (and use the column even if it looks like an ID),
    ``keep`` uses an identifier-like or constant column with its natural kind."""
    check_columns(table.names, [target], "--target")
    check_columns(table.names, ignore, "--ignore")
    check_columns(table.names, categorical, "--categorical")
    check_columns(table.names, continuous, "--continuous")
    check_columns(table.names, keep, "--keep")
    both = sorted(set(categorical) & set(continuous))
    if both:
        raise DataError(f"columns {both} are given as both --categorical and --continuous")
    if target in ignore or target in categorical or target in continuous or target in keep:
        raise DataError(f"the target {target!r} cannot also be ignored, kept or given a feature kind")
    ignore = set(ignore)
    explicit = {n: CATEGORICAL for n in categorical if n not in ignore}
    explicit.update({n: CONTINUOUS for n in continuous if n not in ignore})
    profiles = R.profile_columns((n, table.column(n)) for n in table.names)
    declared = dict(table.kinds or {})
    roles = R.infer_roles(profiles, target, ignore, declared, keep=set(keep) | set(explicit))
    roles.update(explicit)
    issues = tuple(R.ignored_issues(profiles, roles, ignore))
    inferred = task is None
    if task is None:
        task = R.infer_task(profiles[target], declared.get(target))
    return RolePlan(roles, task, issues, inferred, profiles)


def _note_roles(plan: RolePlan, target: str) -> None:
    """The CLI's words for what the rules decided on their own (stderr, training goes on)."""
    for issue in plan.issues:
        n = issue.column
        if issue.code == "identifier":
            warn(
                f"column {n!r} looks like an identifier (a different value in every row), so it "
                f"is ignored: a test on an ID fits the training rows perfectly and predicts "
                f"nothing. Add --keep {n} (or --categorical/--continuous {n}) to use it anyway"
            )
        elif issue.code == "all_missing":
            warn(f"column {n!r} is missing in every row, so it is ignored: it holds no value")
        elif issue.code == "constant":
            warn(
                f"column {n!r} holds {'no value' if issue.count == 0 else 'a single value'}, so it "
                f"is ignored (--keep {n} uses it anyway)"
            )
    for issue in R.role_warnings(plan.profiles, plan.roles):
        if issue.code == "decimal_comma":
            warn(
                f"column {issue.column!r} looks like numbers with decimal commas (1,5), so it is "
                "read as labels; save the file with decimal points to use it as a number"
            )
        elif issue.code == "all_missing" and plan.roles.get(issue.column or "") != R.IGNORE:
            warn(f"column {issue.column!r} is missing in every row: it cannot split anything")
    p = plan.profiles[target]
    if plan.task_inferred and p.numeric and p.n_distinct <= R.CLASS_LIKE_MAX:
        if plan.task == R.CLASSIFICATION:
            warn(
                f"target {target!r} holds a few recurring whole numbers, so this is a "
                "classification tree; use --task regression if they are quantities"
            )
        else:
            warn(
                f"target {target!r} is numeric, so this is a regression tree; "
                "use --task classification if its values are classes"
            )


def prepare_training(
    table: Table,
    target: str,
    *,
    ignore: Collection[str] = (),
    categorical: Collection[str] = (),
    continuous: Collection[str] = (),
    task: str | None = None,
    keep: Collection[str] = (),
) -> Prepared:
    """(X raw object array, y raw, feature names, kinds dict, categories dict, classes, task).

    The roles are the app's (``dtcore.data.roles``): identifier columns (a different label in every
    row, or an ID-like name with all values distinct) and constant columns are ignored with a
    note on stderr, unless ``keep`` names them or ``categorical``/``continuous`` give their kind:
    an ID fits the training data perfectly and predicts nothing, so it must never be used
    silently (SPEC §1).
    """
    plan = plan_roles(
        table, target, ignore=ignore, categorical=categorical, continuous=continuous, keep=keep, task=task
    )
    features = R.features_of(plan.roles)
    if not features:
        if any(r == R.IGNORE for r in plan.roles.values()):
            raise DataError(
                "no feature columns are left: ignore fewer columns"
                + (" (or --keep the ones ignored as identifiers or constants)" if plan.issues else "")
            )
        raise DataError(
            f"no feature columns: the table has only the target column {target!r} "
            "(a single column: wrong delimiter?)"
        )
    target_profile = plan.profiles[target]
    if target_profile.n_distinct < 2 and target_profile.n_missing < target_profile.n_rows:
        raise DataError(
            f"target {target!r} has only {target_profile.n_distinct} distinct value: there is nothing "
            "to learn (the app refuses it too)"
        )
    _note_roles(plan, target)
    task = plan.task
    declared = dict(table.kinds or {})
    kinds = {n: declared[n] for n in features if n in declared}
    kinds.update({n: CATEGORICAL for n in categorical if n in features})
    kinds.update({n: CONTINUOUS for n in continuous if n in features})
    y = table.column(target)
    idx = [table.column_index(n) for n in features]
    X = table.rows[:, idx]
    categories = {n: c for n, c in (table.categories or {}).items() if n in features}
    classes = (table.classes or {}).get(target)
    if classes is None and table.categories and target in table.categories and task == "classification":
        classes = table.categories[target]
    return X, y, features, kinds, categories, classes, task


# =============================================================================================
# shared steps and flags

_PARAM_FLAGS = (
    "criterion",
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "min_impurity_decrease",
    "max_leaf_nodes",
)


def read_training(args: argparse.Namespace) -> tuple[Prepared, np.ndarray | None]:
    """The table, the roles from the flags, and the sample weights (a --weight column is
    never a feature)."""
    table = read_table(args.data, limits=read_limits(args))
    ignore = list(args.ignore)
    if args.weight:
        check_columns(table.names, [args.weight], "--weight")
        if args.weight == args.target:
            raise DataError(f"the weight column {args.weight!r} cannot be the target")
        ignore.append(args.weight)
    prepared = prepare_training(
        table,
        args.target,
        ignore=ignore,
        categorical=args.categorical,
        continuous=args.continuous,
        task=args.task,
        keep=getattr(args, "keep", ()),
    )
    weight = None
    if args.weight:
        try:
            weight = np.array([float(v) for v in table.column(args.weight)])
        except (TypeError, ValueError):
            raise DataError(f"weight column {args.weight!r} must hold a number in every row") from None
    return prepared, weight


def params_from_args(args: argparse.Namespace) -> dict:
    """The estimator parameters the flags give (``--max-depth`` …, then each ``--option``)."""
    params = {k: getattr(args, k) for k in _PARAM_FLAGS if getattr(args, k) is not None}
    params.update(parse_option(o) for o in args.option)
    return params


def fit_from_args(args: argparse.Namespace) -> BaseTreeEstimator:
    """The estimator the flags describe, fitted on the data file they name."""
    return fit_prepared(args, *read_training(args))


def fit_prepared(
    args: argparse.Namespace, prepared: Prepared, weight: np.ndarray | None = None
) -> BaseTreeEstimator:
    """``fit_from_args`` on a ``read_training`` result already at hand."""
    X, y, features, kinds, categories, classes, task = prepared
    est = estimator_class(args.algorithm, task)()
    est.set_params(**params_from_args(args))
    est.fit(
        X,
        y,
        weight,
        feature_names=features,
        feature_kinds=kinds or None,
        categories=categories or None,
        classes=classes,
        target_name=args.target,
    )
    return est


def train_run(args: argparse.Namespace) -> TrainRun:
    """The ``train`` flags as a ``TrainRun``."""
    return TrainRun(
        sources=(args.data, *getattr(args, "more_data", [])),
        target=args.target,
        out=args.out,
        algorithm=args.algorithm,
        task=args.task,
        ignore=tuple(args.ignore),
        keep=tuple(getattr(args, "keep", ())),
        categorical=tuple(args.categorical),
        continuous=tuple(args.continuous),
        weight=args.weight,
        params=params_from_args(args),
        picture=dot_options(args),
        scheduler=getattr(args, "scheduler", None),
        limits=read_limits(args),
    )


def cmd_train(args: argparse.Namespace) -> int:
    check_out(args.out)
    code = dispatch(args, lambda: train_run(args))  # --engine dask, or the in-memory engine's size check
    if code is not None:
        return code
    refuse_input_as_output(args.out, [args.data])
    prepared, weight = read_training(args)
    est = fit_prepared(args, prepared, weight)
    write_tree_file(est, args.out, **dot_options(args), **chart_options(args, est, *prepared[:2], weight))
    s = tree_summary(est.tree_)
    warn(
        f"trained {est.algorithm} ({est._task}): {s['n_nodes']} nodes, {s['n_leaves']} leaves, "
        f"depth {s['depth']} → {args.out}"
    )
    return 0


def cmd_predict(args: argparse.Namespace) -> int:
    refuse_input_as_output(args.out, [args.model, args.data])
    est = read_model(args)
    table = read_table(args.data, limits=read_limits(args))
    names = est.schema_.names
    missing = lacking_columns(table.names, names)
    if missing:
        raise DataError(
            f"{Path(args.data).name} lacks the column(s) {missing} that the model was "
            f"trained on (it needs {names})"
        )
    X = table.rows[:, [table.column_index(n) for n in names]]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    classifier = est.schema_.is_classifier
    header = ["prediction"]
    if args.proba:
        if not classifier:
            raise ValueError("--proba needs a classification model; this one is a regression tree")
        header += [f"proba_{c}" for c in est.schema_.classes or ()]  # a classifier: classes set
    w.writerow(header)
    Xe = est.encode(X)
    if classifier:
        proba = est.tree_.predict_proba(Xe)
        pred = np.asarray(est.schema_.classes, dtype=object)[np.argmax(proba, axis=1)]
        for i in range(len(pred)):
            row = [pred[i]]
            if args.proba:
                row += [fmt_num(p) for p in proba[i]]
            w.writerow(row)
    else:
        for v in est.tree_.predict_value(Xe):
            w.writerow([fmt_num(v)])
    text = buf.getvalue()
    if args.out in (None, "-"):
        stdout(text)
    else:
        write_atomic(args.out, text)
    return 0


# =============================================================================================
# parser


def add_training_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", help="CSV/TSV (UTF-8 or GBK) or ARFF file with a header row")
    p.add_argument("--target", required=True, help="the column to predict")
    p.add_argument("--algorithm", default="cart", choices=sorted(ALGORITHMS), help="c45, id3 or cart")
    p.add_argument(
        "--task",
        choices=("classification", "regression"),
        help="default: classification when the target holds labels or a few recurring "
        "whole numbers, else regression",
    )
    p.add_argument("--criterion", help="e.g. gini, entropy, squared_error (algorithm dependent)")
    p.add_argument("--ignore", nargs="+", default=[], metavar="COL", help="columns not to use")
    p.add_argument(
        "--keep",
        nargs="+",
        default=[],
        metavar="COL",
        help="use these columns as features even if they look like identifiers or "
        "hold a single value (ignored by default, with a note)",
    )
    p.add_argument(
        "--categorical",
        nargs="+",
        default=[],
        metavar="COL",
        help="treat these columns as categorical (labels)",
    )
    p.add_argument(
        "--continuous",
        nargs="+",
        default=[],
        metavar="COL",
        help="treat these columns as continuous (numbers)",
    )
    p.add_argument("--weight", metavar="COL", help="a column of sample weights (not used as a feature)")
    p.add_argument("--max-depth", type=int, help="deepest level a node may sit at (the root is 0)")
    p.add_argument("--min-samples-split", type=int_or_float, help="rows a node needs to split, or a share")
    p.add_argument("--min-samples-leaf", type=int_or_float, help="rows each child keeps, or a share of all")
    p.add_argument("--min-impurity-decrease", type=float, help="least weighted impurity decrease")
    p.add_argument("--max-leaf-nodes", type=int, help="grow best first up to this many leaves")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other estimator parameter (repeatable), value read as JSON if it is",
    )
    add_limits_arg(p)


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``train``, ``predict`` and ``show`` (``dtcore.cli.show``) on the CLI's subparsers."""
    p = sub.add_parser(
        "train",
        help="fit a tree and write it (.json .dot .txt .svg .png .pdf)",
        description="Fit a tree and write it; the --out suffix picks the format: .json model "
        "(docs/model-json.md), .dot Graphviz source, .txt rules, .svg/.png/.pdf picture "
        "(needs Graphviz). Identifier columns (a different label in every row, or an "
        "ID-like name such as ID, RID, idx or 编号 with all values distinct) and "
        "constant columns are ignored with a note, as in the app: --keep them, or name "
        "them with --categorical/--continuous, to use them. The task is classification "
        "when the target holds labels or a few recurring whole numbers, else "
        "regression, unless --task says otherwise.",
    )
    add_training_args(p)
    add_engine_args(p)
    p.add_argument("--out", required=True, help="output file; its suffix picks the format")
    add_picture_args(p)
    add_node_charts_arg(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("predict", help="predict with a saved model")
    p.add_argument("model", help="model JSON written by train")
    add_tree_arg(p)
    p.add_argument("data", help="data file with the model's feature columns (matched by name)")
    p.add_argument("--proba", action="store_true", help="add one probability column per class")
    p.add_argument("--out", help="output CSV (default: stdout)")
    add_limits_arg(p)
    p.set_defaults(func=cmd_predict)

    show.add_parser(sub)
