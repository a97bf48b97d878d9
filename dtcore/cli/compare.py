"""``compare``: ID3, C4.5 and CART on the same data and split (``dtcore.analysis.compare``), as a table
and the first node where their tests differ, in JSON or text."""

from __future__ import annotations

import argparse
import json

import numpy as np

from dtcore.analysis import compare as C
from dtcore.analysis.compare_records import (
    BelowAverageNote,
    BinaryNote,
    ChoseNote,
    EntropyScore,
    LeafNote,
    PenalisedNote,
    TestScore,
)
from dtcore.analysis.disagreement import describe_test
from dtcore.cli.common import stdout
from dtcore.cli.train import read_training
from dtcore.data.rowsplit import split_rows
from dtcore.explain import jsonable
from dtcore.numbers import fmt_score

NAMES = {"gain": "gain", "gain_ratio": "gain ratio", "impurity_decrease": "impurity decrease"}


def cmd_compare(args: argparse.Namespace) -> int:
    args.weight = None
    prepared, _ = read_training(args)
    X, y, features, kinds, categories, classes, task = prepared
    keys = [k for k in args.algorithms.split(",") if k.strip()] if args.algorithms else None
    known = np.array([str(v).strip() != "" for v in np.asarray(y, dtype=object)], dtype=bool)
    pos = np.flatnonzero(known)
    rows = split_rows(
        pos,
        args.valid,
        args.test,
        args.seed,
        np.asarray(y, dtype=object)[pos] if task == "classification" else None,
    )
    fit_kw = dict(
        feature_names=features,
        feature_kinds=kinds or None,
        categories=categories or None,
        classes=classes,
        target_name=args.target,
    )
    if task != "classification":
        fit_kw.pop("classes")
    result = C.compare(X, y, rows, task=task, keys=keys, fit_kw=fit_kw, cv=args.cv, seed=args.seed)
    if args.format == "json":
        d = result.to_dict()
        if not args.timing:
            for a in d["algorithms"]:
                a.pop("fit_seconds")
        stdout(json.dumps(d, ensure_ascii=False, indent=1, allow_nan=False) + "\n")
    else:
        stdout(text(result, timing=args.timing))
    return 0


def text(c: C.Comparison, timing: bool = False) -> str:
    """The comparison as plain text: the score table, the agreement matrix, the first
    disagreement with its scores, and the notes in words (``timing``: each fit's time too)."""
    metric = ["accuracy"] if c.task == "classification" else ["rmse", "mae"]
    size = {s: int(r.size) for s, r in c.rows.items()}
    lines = [f"rows: train {size['train']}, validation {size['valid']}, test {size['test']}"]
    head = ["algorithm"] + [f"{s} {m}" for s in C.SPLITS if size[s] for m in metric]
    head += ["nodes", "leaves", "depth", f"cv{c.cv_folds} mean", "cv sd"]
    timing = timing and bool(c.entries)
    if timing:
        head.append("fit ms")
    table = [head]
    for e in c.entries:
        cv = e.cv_summary()
        row = [e.label] + [fmt_score(e.scores[s].get(m)) for s in C.SPLITS if size[s] for m in metric]
        row += [str(e.nodes), str(e.leaves), str(e.depth), fmt_score(cv.mean), fmt_score(cv.std)]
        if timing:
            row.append(f"{1000 * e.seconds:.1f}")
        table.append(row)
    lines += _grid(table)
    lines.append("")
    lines.append(f"agreement (share of {c.agree_on} rows predicted alike):")
    labels = {e.key: e.label for e in c.entries}
    keys = [e.key for e in c.entries]
    grid = [[""] + [labels[k] for k in keys]]
    grid += [[labels[k]] + [fmt_score(v) for v in row] for k, row in zip(keys, c.agreement.tolist())]
    lines += _grid(grid)
    rows = c.disagreements()
    lines.append(f"rows where they disagree: {len(rows)}")
    for r in rows[:20]:
        preds = ", ".join(f"{labels[k]} {v}" for k, v in r.predictions.items())
        lines.append(f"  row {r.row + 1}: truth {r.truth}; {preds}")
    if len(rows) > 20:
        lines.append(f"  … and {len(rows) - 20} more (--format json lists all)")
    lines.append("")
    lines += first_text(c)
    return "\n".join(lines) + "\n"


def first_text(c: C.Comparison) -> list[str]:
    f = c.first
    labels = {e.key: e.label for e in c.entries}
    if f is None:
        if len(c.entries) < 2:
            return ["one algorithm: nothing to compare"]
        return ["the grown trees hold the same tests everywhere: no disagreement"]
    where = " → ".join(f"{n} {b}" for n, b in f.path) or "the root"
    out = [f"first disagreement at {where} (depth {f.depth}, {f.n_rows} rows):"]
    for k, i in f.chosen.items():
        if i is None:
            out.append(f"  {labels[k]} makes a leaf ({f.leaf_reason[k]})")
        else:
            out.append(f"  {labels[k]} tests {describe_test(f.tests[i])}")
    out.append("competing tests under each criterion:")
    for i, t in enumerate(f.tests):
        parts = []
        for k in f.chosen:
            s = f.scores[i][k]
            name = NAMES.get(f.criteria[k], f.criteria[k])
            parts.append(
                f"{labels[k]} {name} {fmt_score(s.score)}"
                + _extra(s)
                + ("" if s.possible else " [not its kind of test]")
            )
        out.append(f"  {describe_test(t)}: " + "; ".join(parts))
    if f.average_gain is not None:
        out.append(f"  C4.5's average gain here: {fmt_score(f.average_gain)}")
    out += ["  " + s for s in sentences(c)]
    return out


def _extra(s: TestScore) -> str:
    if not isinstance(s, EntropyScore):
        return ""
    # the score is the gain ratio (C4.5's), compared as the JSON holds them: NaN as None
    if jsonable(s.score) == jsonable(s.gain_ratio):
        extra = f" (gain {fmt_score(s.gain)}, split info {fmt_score(s.split_info)}"
        if s.above_average is not None:
            extra += ", ≥ average" if s.above_average else ", below average"
        return extra + ")"
    return f" (IV {fmt_score(s.iv)})"


def sentences(c: C.Comparison) -> list[str]:
    """The notes of ``dtcore.analysis.disagreement.notes`` in English."""
    f = c.first
    if f is None:
        return []
    labels = {e.key: e.label for e in c.entries}
    names = NAMES
    out = []
    for n in c.notes():
        if isinstance(n, ChoseNote):
            t = describe_test(f.tests[n.test])
            o = "" if n.other is None else describe_test(f.tests[n.other])
            said = f"{labels[n.by]} chose {t} ({names.get(n.score_name, n.score_name)} {fmt_score(n.score)})"
            if n.other is not None and n.tied:
                said += f", tied with {o} ({fmt_score(n.other_score)}): the builder broke the tie"
            elif n.other is not None:
                said += f" over {o} ({fmt_score(n.other_score)})"
            if n.runner_up is not None:
                said += f"; its runner-up feature is {n.runner_up.name} ({fmt_score(n.runner_up.score)})"
            out.append(said + ".")
        elif isinstance(n, LeafNote):
            out.append(f"{labels[n.by]} stops here: {n.reason}.")
        elif isinstance(n, BinaryNote):
            out.append(
                f"CART only makes binary tests, so it groups the values of {f.tests[n.test].name} "
                "into two branches where ID3 and C4.5 give every value its own branch."
            )
        elif isinstance(n, BelowAverageNote):
            out.append(
                f"{describe_test(f.tests[n.test])} has gain {fmt_score(n.gain)}, below C4.5's average "
                f"gain {fmt_score(n.average)}: C4.5 does not consider it."
            )
        elif isinstance(n, PenalisedNote):
            out.append(
                f"Gain favours {describe_test(f.tests[n.test])}, but C4.5's gain ratio divides "
                f"the gain by the split information ({fmt_score(n.split_info)} against "
                f"{fmt_score(n.chosen_split_info)}), so it scores {fmt_score(n.gain_ratio)} against "
                f"{fmt_score(n.chosen_gain_ratio)}: tests with many branches are penalised."
            )
    return out


def _grid(rows: list[list[str]]) -> list[str]:
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, width))).rstrip()
        for r in rows
    ]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="ID3, C4.5 and CART on the same data: scores and first disagreement")
    p.add_argument("data", help="CSV/TSV (UTF-8 or GBK) or ARFF file with a header row")
    p.add_argument("--target", required=True, help="the column to predict")
    p.add_argument(
        "--algorithms",
        help="comma-separated: id3, c45, cart (gini), cart-entropy; for regression cart-squared_error, "
        "cart-friedman_mse, cart-absolute_error, cart-poisson (default: id3,c45,cart or the first three "
        "regression criteria)",
    )
    p.add_argument(
        "--format", choices=("json", "text"), default="text", help="text for reading, json for scripts"
    )
    p.add_argument(
        "--task",
        choices=("classification", "regression"),
        help="default: inferred from the target, as train does",
    )
    for flag, helptext in (
        ("--ignore", "columns not to use"),
        ("--keep", "use these columns even if they look like identifiers or hold a single value"),
        ("--categorical", "treat these columns as categorical (labels)"),
        ("--continuous", "treat these columns as continuous (numbers)"),
    ):
        p.add_argument(flag, nargs="+", default=[], metavar="COL", help=helptext)
    p.add_argument("--valid", type=float, default=0, metavar="PCT", help="percent of rows for validation")
    p.add_argument("--test", type=float, default=0, metavar="PCT", help="percent of rows for testing")
    p.add_argument("--seed", type=int, default=0, help="seed of the row split and the folds")
    p.add_argument(
        "--cv", type=int, default=5, metavar="K", help="k-fold cross-validation on the training rows"
    )
    p.add_argument("--timing", action="store_true", help="also print each fit's time (varies run to run)")
    p.set_defaults(func=cmd_compare)
