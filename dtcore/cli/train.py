"""``train``, ``predict``, ``show`` and ``export``: the flags that describe a training run, the
table → roles → estimator steps they share (``ui.report`` reuses them), and the four commands."""
from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path

import numpy as np

from ..estimators import ALGORITHMS, estimator_class
from ..export import fmt_num, load_model, to_text, tree_summary, write_tree_file
from ..readers import Table, read_table
from ..schema import (CATEGORICAL, CONTINUOUS, MISSING_TOKENS, DataError, check_columns,
                      identifier_like, infer_kind, is_missing, label_of, lacking_columns)
from .common import check_out, int_or_float, parse_option, stdout, warn


def _check_columns(table: Table, names, what: str) -> None:
    check_columns(table.names, names, what)


# =============================================================================================
# roles: which columns are features, of which kind, and which task

#: Column names that mean "row identifier" (compared case-insensitively, outer blanks dropped).
_ID_NAME = re.compile(r"^(id|rid|uid|key|index|idx|row|row_?id|no\.?|nr|#|编号|序号|学号|工号|id号)$|[_ ]id$",
                      re.IGNORECASE)


def id_named_distinct(name: str, column, tokens) -> bool:
    """A column named like an identifier (ID, RID, 编号, …) whose values are all different.

    Catches numeric IDs (编号 = 1..17 is numbers, so the schema's categorical rule misses it)
    without flagging real numeric features that happen to be distinct (x = 1..5).
    """
    if not _ID_NAME.search(name.strip()):
        return False
    values = [label_of(v) for v in column if not is_missing(v, tokens)]
    return len(values) > 2 and len(set(values)) == len(values)


def prepare_training(table: Table, target: str, *, ignore=(), categorical=(), continuous=(),
                     task: str | None = None):
    """(X raw object array, y raw, feature names, kinds dict, categories dict, classes, task).

    Identifier columns (one distinct label per row, or an ID-like name with all values distinct)
    are refused unless
    the user names them with --categorical/--continuous: an ID fits the training data perfectly
    and predicts nothing, so it must never be used silently (SPEC §1).
    """
    _check_columns(table, [target], "--target")
    _check_columns(table, ignore, "--ignore")
    _check_columns(table, categorical, "--categorical")
    _check_columns(table, continuous, "--continuous")
    both = sorted(set(categorical) & set(continuous))
    if both:
        raise DataError(f"columns {both} are given as both --categorical and --continuous")
    if target in ignore or target in categorical or target in continuous:
        raise DataError(f"the target {target!r} cannot also be ignored or given a feature kind")
    features = [n for n in table.names if n != target and n not in set(ignore)]
    if not features:
        raise DataError("no feature columns are left: ignore fewer columns")
    declared = dict(table.kinds or {})
    kinds = {n: declared[n] for n in features if n in declared}
    kinds.update({n: CATEGORICAL for n in categorical})
    kinds.update({n: CONTINUOUS for n in continuous})
    tokens = MISSING_TOKENS
    explicit = set(categorical) | set(continuous)
    suspects = []
    for n in features:
        if n in explicit:
            continue
        col = table.column(n)
        kind = kinds.get(n) or infer_kind(col, tokens)
        if (kind == CATEGORICAL and identifier_like(col, tokens)) or id_named_distinct(n, col, tokens):
            suspects.append(n)
    if suspects:
        flags = " ".join(f"--ignore {n}" for n in suspects)
        raise DataError(
            f"column(s) {suspects} look like identifiers (a different value in every row); a test on "
            f"an ID fits the training rows perfectly and predicts nothing. Add {flags} "
            "(or name the column with --categorical/--continuous to use it anyway)")
    y = table.column(target)
    if task is None:
        declared_target = declared.get(target)
        if declared_target is None:
            declared_target = infer_kind(y, tokens)
        task = "classification" if declared_target == CATEGORICAL else "regression"
        if task == "regression":
            distinct = {str(v).strip() for v in y}
            if len(distinct) <= 10:
                warn(f"target {target!r} is numeric, so this is a regression tree; "
                      "use --task classification if its values are classes")
    idx = [table.column_index(n) for n in features]
    X = table.rows[:, idx]
    categories = {n: c for n, c in (table.categories or {}).items() if n in features}
    classes = (table.classes or {}).get(target)
    if classes is None and table.categories and target in table.categories and task == "classification":
        classes = table.categories[target]
    return X, y, features, kinds, categories, classes, task


# =============================================================================================
# shared steps and flags

_PARAM_FLAGS = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf",
                "min_impurity_decrease", "max_leaf_nodes")


def read_training(args):
    """The table, the roles from the flags, and the sample weights (a --weight column is
    never a feature)."""
    table = read_table(args.data)
    ignore = list(args.ignore)
    if args.weight:
        _check_columns(table, [args.weight], "--weight")
        if args.weight == args.target:
            raise DataError(f"the weight column {args.weight!r} cannot be the target")
        ignore.append(args.weight)
    prepared = prepare_training(table, args.target, ignore=ignore, categorical=args.categorical,
                                continuous=args.continuous, task=args.task)
    weight = None
    if args.weight:
        try:
            weight = np.array([float(v) for v in table.column(args.weight)])
        except (TypeError, ValueError):
            raise DataError(f"weight column {args.weight!r} must hold a number in every row") from None
    return prepared, weight


def fit_from_args(args):
    (X, y, features, kinds, categories, classes, task), weight = read_training(args)
    params = {k: getattr(args, k) for k in _PARAM_FLAGS if getattr(args, k) is not None}
    params.update(parse_option(o) for o in args.option)
    est = estimator_class(args.algorithm, task)()
    est.set_params(**params)
    est.fit(X, y, weight, feature_names=features, feature_kinds=kinds or None,
            categories=categories or None, classes=classes, target_name=args.target)
    return est


def dot_options(args) -> dict:
    opts = {"precision": args.precision, "rankdir": args.rankdir}
    if args.show_depth is not None:
        opts["max_depth"] = args.show_depth
    return opts


def cmd_train(args) -> int:
    check_out(args.out)
    est = fit_from_args(args)
    write_tree_file(est, args.out, **dot_options(args))
    s = tree_summary(est.tree_)
    warn(f"trained {est.algorithm} ({est._task}): {s['n_nodes']} nodes, {s['n_leaves']} leaves, "
          f"depth {s['depth']} → {args.out}")
    return 0


def cmd_export(args) -> int:
    check_out(args.out)
    est = load_model(args.model)
    write_tree_file(est, args.out, **dot_options(args))
    return 0


def cmd_predict(args) -> int:
    est = load_model(args.model)
    table = read_table(args.data)
    names = est.schema_.names
    missing = lacking_columns(table.names, names)
    if missing:
        raise DataError(f"{Path(args.data).name} lacks the column(s) {missing} that the model was "
                        f"trained on (it needs {names})")
    X = table.rows[:, [table.column_index(n) for n in names]]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    classifier = est.schema_.is_classifier
    header = ["prediction"]
    if args.proba:
        if not classifier:
            raise ValueError("--proba needs a classification model; this one is a regression tree")
        header += [f"proba_{c}" for c in est.schema_.classes]
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
        with open(args.out, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return 0


def cmd_show(args) -> int:
    est = load_model(args.model)
    if args.format == "text":
        stdout(to_text(est, precision=args.precision))
        return 0
    if args.format == "j48":
        if est.algorithm != "c45":
            raise ValueError(f"--format j48 is Weka's J48 print-out of C4.5 trees; this model is "
                             f"{est.algorithm}: use --format text")
        from ..c45 import to_j48_text
        stdout(to_j48_text(est))
        return 0
    s = est.schema_
    summary = tree_summary(est.tree_)
    info = {
        "algorithm": est.algorithm,
        "task": est._task,
        "target": s.target,
        "nodes": summary["n_nodes"],
        "leaves": summary["n_leaves"],
        "depth": summary["depth"],
        "features": [f.to_dict() for f in s.features],
        "classes": None if s.classes is None else list(s.classes),
        "params": est.get_params(),
    }
    stdout(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
    return 0


# =============================================================================================
# parser

def add_training_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", help="CSV/TSV (UTF-8 or GBK) or ARFF file with a header row")
    p.add_argument("--target", required=True, help="the column to predict")
    p.add_argument("--algorithm", default="cart", choices=sorted(ALGORITHMS))
    p.add_argument("--task", choices=("classification", "regression"),
                   help="default: regression when the target is numeric, else classification")
    p.add_argument("--criterion", help="e.g. gini, entropy, squared_error (algorithm dependent)")
    p.add_argument("--ignore", nargs="+", default=[], metavar="COL", help="columns not to use")
    p.add_argument("--categorical", nargs="+", default=[], metavar="COL",
                   help="treat these columns as categorical (labels)")
    p.add_argument("--continuous", nargs="+", default=[], metavar="COL",
                   help="treat these columns as continuous (numbers)")
    p.add_argument("--weight", metavar="COL", help="a column of sample weights (not used as a feature)")
    p.add_argument("--max-depth", type=int)
    p.add_argument("--min-samples-split", type=int_or_float)
    p.add_argument("--min-samples-leaf", type=int_or_float)
    p.add_argument("--min-impurity-decrease", type=float)
    p.add_argument("--max-leaf-nodes", type=int)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other estimator parameter (repeatable), value read as JSON if it is")


def add_picture_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--precision", type=int, default=3, help="significant digits in pictures")
    p.add_argument("--rankdir", default="TB", choices=("TB", "LR", "BT", "RL"))
    p.add_argument("--show-depth", type=int, metavar="N",
                   help="draw N levels; deeper subtrees become summary boxes")


def add_parsers(sub) -> None:
    """Register ``train``, ``predict``, ``show`` and ``export`` on the CLI's subparsers."""
    p = sub.add_parser(
        "train", help="fit a tree and write it (.json .dot .txt .svg .png .pdf)",
        description="Fit a tree and write it; the --out suffix picks the format: .json model "
                    "(docs/model-json.md), .dot Graphviz source, .txt rules, .svg/.png/.pdf picture "
                    "(needs Graphviz). Identifier columns (a different label in every row, or an "
                    "ID-like name such as ID, RID or 编号 with all values distinct) are refused: "
                    "--ignore them, or name them with --categorical/--continuous to use them. "
                    "The task is regression when the target is numeric, unless --task says otherwise.")
    add_training_args(p)
    p.add_argument("--out", required=True, help="output file; its suffix picks the format")
    add_picture_args(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("predict", help="predict with a saved model")
    p.add_argument("model", help="model JSON written by train")
    p.add_argument("data", help="data file with the model's feature columns (matched by name)")
    p.add_argument("--proba", action="store_true", help="add one probability column per class")
    p.add_argument("--out", help="output CSV (default: stdout)")
    p.set_defaults(func=cmd_predict)

    p = sub.add_parser("show", help="print a saved model")
    p.add_argument("model")
    p.add_argument("--format", choices=("text", "json", "j48"), default="text",
                   help="text rules, a JSON summary (nodes, leaves, depth, features, classes), or "
                        "Weka's J48 print-out (C4.5 models)")
    p.add_argument("--precision", type=int, default=4)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("export", help="convert a saved model to .dot .txt .svg .png .pdf")
    p.add_argument("model")
    p.add_argument("--out", required=True)
    add_picture_args(p)
    p.set_defaults(func=cmd_export)
