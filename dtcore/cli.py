"""The command line: ``python -m dtcore train|predict|show|export|splits``.

It runs the same code as the app (readers → schema → estimator → export), so scripts and CI see
exactly what the dashboard shows. Every user error ends with one line on stderr and exit code 2,
never a traceback.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from pathlib import Path

import numpy as np

from .estimators import ALGORITHMS, estimator_class
from .export import (GraphvizError, GraphvizMissing, fmt_num, load_model, to_text, tree_summary,
                     write_tree_file)
from .readers import Table, read_table
from .schema import (CATEGORICAL, CONTINUOUS, MISSING_TOKENS, DataError, identifier_like, infer_kind,
                     is_missing, label_of)

EXIT_USER_ERROR = 2
OUTPUT_SUFFIXES = (".json", ".dot", ".gv", ".txt", ".svg", ".png", ".pdf")


# =============================================================================================
# helpers

def _stdout(text: str) -> None:
    """UTF-8 on stdout whatever the locale (labels are often Chinese)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def _warn(text: str) -> None:
    sys.stderr.buffer.write(f"dtcore: {text}\n".encode("utf-8"))
    sys.stderr.buffer.flush()


def _parse_option(text: str) -> tuple[str, object]:
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


def _check_columns(table: Table, names, what: str) -> None:
    unknown = [n for n in names if n not in table.names]
    if unknown:
        raise DataError(f"{what}: no column named {', '.join(map(repr, unknown))}; "
                        f"the columns are {table.names}")


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


# =============================================================================================
# roles: which columns are features, of which kind, and which task

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
                _warn(f"target {target!r} is numeric, so this is a regression tree; "
                      "use --task classification if its values are classes")
    idx = [table.column_index(n) for n in features]
    X = table.rows[:, idx]
    categories = {n: c for n, c in (table.categories or {}).items() if n in features}
    classes = (table.classes or {}).get(target)
    if classes is None and table.categories and target in table.categories and task == "classification":
        classes = table.categories[target]
    return X, y, features, kinds, categories, classes, task


# =============================================================================================
# commands

_PARAM_FLAGS = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf",
                "min_impurity_decrease", "max_leaf_nodes")


def _read_training(args):
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


def _fit_from_args(args):
    (X, y, features, kinds, categories, classes, task), weight = _read_training(args)
    params = {k: getattr(args, k) for k in _PARAM_FLAGS if getattr(args, k) is not None}
    params.update(_parse_option(o) for o in args.option)
    est = estimator_class(args.algorithm, task)()
    est.set_params(**params)
    est.fit(X, y, weight, feature_names=features, feature_kinds=kinds or None,
            categories=categories or None, classes=classes, target_name=args.target)
    return est


def _dot_options(args) -> dict:
    opts = {"precision": args.precision, "rankdir": args.rankdir}
    if args.show_depth is not None:
        opts["max_depth"] = args.show_depth
    return opts


def _check_out(path: str) -> None:
    if Path(path).suffix.lower() not in OUTPUT_SUFFIXES:
        raise ValueError(f"--out {path!r}: the suffix must be one of {', '.join(OUTPUT_SUFFIXES)}")


def cmd_train(args) -> int:
    _check_out(args.out)
    est = _fit_from_args(args)
    write_tree_file(est, args.out, **_dot_options(args))
    s = tree_summary(est.tree_)
    _warn(f"trained {est.algorithm} ({est._task}): {s['n_nodes']} nodes, {s['n_leaves']} leaves, "
          f"depth {s['depth']} → {args.out}")
    return 0


def cmd_export(args) -> int:
    _check_out(args.out)
    est = load_model(args.model)
    write_tree_file(est, args.out, **_dot_options(args))
    return 0


def cmd_predict(args) -> int:
    est = load_model(args.model)
    table = read_table(args.data)
    names = est.schema_.names
    missing = [n for n in names if n not in table.names]
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
        _stdout(text)
    else:
        with open(args.out, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return 0


def cmd_show(args) -> int:
    est = load_model(args.model)
    if args.format == "text":
        _stdout(to_text(est, precision=args.precision))
        return 0
    if args.format == "j48":
        if est.algorithm != "c45":
            raise ValueError(f"--format j48 is Weka's J48 print-out of C4.5 trees; this model is "
                             f"{est.algorithm}: use --format text")
        from .c45 import to_j48_text
        _stdout(to_j48_text(est))
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
    _stdout(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
    return 0


def cmd_splits(args) -> int:
    (X, y, features, kinds, categories, classes, task), weight = _read_training(args)
    if args.node != 0:  # node ids refer to the tree these settings grow
        est = _fit_from_args(args)
    else:               # the root needs no tree: an unfitted estimator with these settings
        params = {k: getattr(args, k) for k in _PARAM_FLAGS if getattr(args, k) is not None}
        params.update(_parse_option(o) for o in args.option)
        est = estimator_class(args.algorithm, task)()
        if args.algorithm == "id3" and "continuous" not in params:
            params["continuous"] = "threshold"  # binary cuts at the root (SPEC §4), not intervals
        est.set_params(**params)
    report = node_splits(X, y, features, kinds, categories, classes, task, args.target,
                         algorithm=args.algorithm, criterion=args.criterion, node=args.node,
                         estimator=est, min_samples_leaf=args.min_samples_leaf or 1,
                         sample_weight=weight)
    _stdout(json.dumps(report, ensure_ascii=False, indent=1, allow_nan=False) + "\n")
    return 0


def node_splits(X, y, features, kinds, categories, classes, task, target, *, algorithm="cart",
                criterion=None, node=0, estimator=None, min_samples_leaf=1,
                sample_weight=None) -> dict:
    """Per feature, the best test at one node and its score (what ``splits`` prints): a summary
    of ``dtcore.explain.split_report``, whose numbers are the builder's own.

    CART: the best binary test, scored by the weighted impurity decrease (scikit-learn's
    ``min_impurity_decrease`` scale). ID3/C4.5: the multiway test of a categorical feature or the
    best cut of a continuous one, scored by the information gain the algorithm compares (ρ-weighted,
    SPEC §6; C4.5's after the MDL penalty, ``raw_gain`` before it), with the split information
    and gain ratio the algorithm uses. ``threshold`` is the midpoint cut; C4.5 stores the largest
    training value ≤ it (``stored_threshold``). ``best`` is the feature the algorithm's own rule
    picks (C4.5: best ratio among tests with at least average gain).
    ``estimator``: a fitted one for ``node`` > 0; at the root an unfitted one gives the settings.
    """
    from . import explain
    from .estimators import estimator_class as _cls
    from .schema import Schema, encode_classes, encode_features, encode_regression_target, infer_schema

    if algorithm in ("id3", "c45") and task != "classification":
        raise ValueError(f"{algorithm} builds classification trees only")
    fitted = estimator is not None and hasattr(estimator, "tree_")
    if estimator is None:
        estimator = _cls(algorithm, task)()
        if algorithm == "id3":
            estimator.set_params(continuous="threshold")
        if algorithm == "cart" and criterion:
            estimator.set_params(criterion=criterion)
        if "min_samples_leaf" in estimator.get_params():
            estimator.set_params(min_samples_leaf=min_samples_leaf)
    if fitted:
        schema = estimator.schema_
    else:
        if node != 0:
            raise ValueError("--node needs a trained tree")
        schema = infer_schema(X, features, kinds or None, categories or None, target=target)
    Xe = encode_features(X, schema)
    if task == "classification":
        ye, cls = encode_classes(y, schema.classes if fitted else classes, schema.missing_tokens, target)
        if not fitted:
            schema = Schema(schema.features, target, cls, schema.missing_tokens)
    else:
        ye = encode_regression_target(y, schema.missing_tokens, target)
    if not fitted:
        estimator.schema_ = schema
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    try:
        rep = explain.split_report(estimator, Xe, ye, w, node, tree=estimator.tree_ if fitted else None)
    except ValueError as exc:
        if "node" in str(exc):
            raise ValueError(f"--node {node}: {exc}") from None
        raise
    out = []
    for r in rep["features"]:
        feat = schema.features[r["feature"]]
        rec = {"feature": feat.name, "kind": feat.kind, "test": None, "score": None}
        if "known_share" in r:
            rec["known_share"] = float(r["known_share"])
        test = r.get("test")
        if r.get("usable") and test is not None:
            if algorithm == "cart":
                rec["score"] = float(r["improvement"])
                rec["score_name"] = "impurity_decrease"
                k = r["best"]
                cand = r["candidates"]
                rec["impurity_left"] = _finite(cand["impurity_left"][k])
                rec["impurity_right"] = _finite(cand["impurity_right"][k])
                if feat.is_categorical:
                    left = [feat.categories[i] for i, b in enumerate(test["cat_branch"]) if b == 0]
                    rec["test"] = f"{feat.name} ∈ {{{', '.join(left)}}}"
                    rec["left"] = left
                    rec["missing_left"] = test["missing_branch"] == 0
                else:
                    t = float(test["cuts"][0])
                    rec["test"] = f"{feat.name} ≤ {fmt_num(t, 6)}"
                    rec["threshold"] = t
                    rec["missing_left"] = test["missing_branch"] == 0
            else:
                rec["score"] = float(r["gain"])
                rec["score_name"] = "gain"
                rec["raw_gain"] = float(r["raw_gain"])
                if r["mode"] == "threshold":
                    t = float(r["midpoint"])
                    rec["test"] = f"{feat.name} ≤ {fmt_num(t, 6)}"
                    rec["threshold"] = t
                    rec["stored_threshold"] = float(test["cuts"][0])
                    si = float(r["split_info"])
                else:
                    rec["test"] = f"{feat.name} = ?"
                    if r["mode"] == "multiway":
                        present = np.asarray(r["branch_counts"]).sum(axis=1) > 0
                        rec["branches"] = [feat.categories[c] for c in np.nonzero(present)[0]]
                    si = float(r["split_info"] if algorithm == "c45" else r["iv"])
                rec["split_information"] = si
                rec["gain_ratio"] = float(r["gain_ratio"]) if si > 0 else None
        out.append(rec)
    best = rep["chosen"]
    return {"node": node, "algorithm": algorithm, "criterion": rep["criterion"],
            "weighted_n": float(rep["weighted_n"]), "n_samples": int(rep["n_samples"]),
            "best": None if best is None else schema.features[best].name, "features": out}


def _finite(x):
    x = float(x)
    return x if np.isfinite(x) else None


# =============================================================================================
# parser

def _add_training_args(p: argparse.ArgumentParser) -> None:
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
    p.add_argument("--min-samples-split", type=_int_or_float)
    p.add_argument("--min-samples-leaf", type=_int_or_float)
    p.add_argument("--min-impurity-decrease", type=float)
    p.add_argument("--max-leaf-nodes", type=int)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other estimator parameter (repeatable), value read as JSON if it is")


def _add_picture_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--precision", type=int, default=3, help="significant digits in pictures")
    p.add_argument("--rankdir", default="TB", choices=("TB", "LR", "BT", "RL"))
    p.add_argument("--show-depth", type=int, metavar="N",
                   help="draw N levels; deeper subtrees become summary boxes")


def _int_or_float(text: str):
    try:
        return int(text)
    except ValueError:
        return float(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dtcore",
                                     description="Grow, inspect and draw decision trees (ID3, C4.5, CART).")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "train", help="fit a tree and write it (.json .dot .txt .svg .png .pdf)",
        description="Fit a tree and write it; the --out suffix picks the format: .json model "
                    "(docs/model-json.md), .dot Graphviz source, .txt rules, .svg/.png/.pdf picture "
                    "(needs Graphviz). Identifier columns (a different label in every row, or an "
                    "ID-like name such as ID, RID or 编号 with all values distinct) are refused: "
                    "--ignore them, or name them with --categorical/--continuous to use them. "
                    "The task is regression when the target is numeric, unless --task says otherwise.")
    _add_training_args(p)
    p.add_argument("--out", required=True, help="output file; its suffix picks the format")
    _add_picture_args(p)
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
    _add_picture_args(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("splits", help="best test per feature at a node, as JSON")
    _add_training_args(p)
    p.add_argument("--node", type=int, default=0, help="node id (pre-order, as the pictures show)")
    p.set_defaults(func=cmd_splits)

    _add_prune_command(sub)
    return parser


def _add_prune_command(sub) -> None:
    """``prune``: its options and its work live with the pruning code (dtcore/pruning/command.py)."""
    from .pruning.command import add_prune_parser
    add_prune_parser(sub)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except FileNotFoundError as exc:
        _warn(f"error: no such file: {exc.filename}")
    except IsADirectoryError as exc:
        _warn(f"error: {exc.filename} is a directory, not a file")
    except PermissionError as exc:
        _warn(f"error: permission denied: {exc.filename}")
    except (DataError, ValueError, GraphvizMissing, GraphvizError) as exc:
        _warn(f"error: {exc}")
    except (ImportError, NotImplementedError) as exc:
        _warn(f"error: not available in this version of dtcore ({exc})")
    return EXIT_USER_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
