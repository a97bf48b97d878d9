"""``show``: print a saved or imported model: its rules, a JSON summary (with the ``origin`` of a
tree imported from another library) or Weka's J48 print-out."""

from __future__ import annotations

import argparse
import json

from dtcore.cli.common import add_tree_arg, positive_int, read_model, stdout
from dtcore.export import to_text, tree_summary


def cmd_show(args: argparse.Namespace) -> int:
    est = read_model(args)
    if args.format == "text":
        # a tree read from another library: which, and what its leaves hold, before its rules
        about = [est.origin_.title(), *est.origin_.sentences()] if est.origin_ is not None else []
        stdout("".join(f"# {line}\n" for line in about) + to_text(est, precision=args.precision))
        return 0
    if args.format == "j48":
        if est.algorithm != "c45":
            raise ValueError(
                f"--format j48 is Weka's J48 print-out of C4.5 trees; this model is "
                f"{est.algorithm}: use --format text"
            )
        from dtcore.export.j48 import to_j48_text

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
    if est.origin_ is not None:  # a tree imported from another library: where from, what its leaves hold
        info["origin"] = est.origin_.to_dict()
    stdout(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("show", help="print a saved model")
    p.add_argument("model", help="model JSON written by train, or an XGBoost, LightGBM or PMML file")
    add_tree_arg(p)
    p.add_argument(
        "--format",
        choices=("text", "json", "j48"),
        default="text",
        help="text rules, a JSON summary (nodes, leaves, depth, features, classes), or "
        "Weka's J48 print-out (C4.5 models)",
    )
    p.add_argument("--precision", type=positive_int, default=4, help="significant digits printed")
    p.set_defaults(func=cmd_show)
