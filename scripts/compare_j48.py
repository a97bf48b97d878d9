#!/usr/bin/env python
"""Grow a tree with dtcore's C4.5 and with Weka's J48 on the same data and compare them.

    .venv/bin/python scripts/compare_j48.py                      # the standard data sets
    .venv/bin/python scripts/compare_j48.py data.csv --target y  # one file (CSV or ARFF)

Both trees are printed in J48's text form and compared line by line: tests, thresholds and
leaf classes must be identical, the leaf weights N/E equal within 0.01 (J48 rounds them to two
decimals).  Both use ``threshold="j48"`` (J48's setSplitPoint).  Pruned trees are compared
with ``z="normal"`` (J48's exact normal quantile);
``-U`` trees with ``prune=False``.  J48 runs as
``java -cp /usr/share/java/weka.jar weka.classifiers.trees.J48 -t FILE.arff -no-cv -v``.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from dtcore.c45 import C45Classifier
from dtcore.data.arff import read_arff, write_arff
from dtcore.export.j48 import tree_to_j48_lines
from dtcore.schema import CATEGORICAL, CONTINUOUS, MISSING_TOKENS, infer_kind

ROOT = Path(__file__).resolve().parents[1]
WEKA_JAR = Path("/usr/share/java/weka.jar")
DATASETS = ROOT / "assets" / "samples"
ID_COLUMNS = {"编号", "RID", "ID", "id"}

#: name → (file, target); identifiers are dropped
STANDARD = {
    "watermelon_2.0": ("watermelon_2.0.csv", "好瓜"),
    "watermelon_3.0": ("watermelon_3.0.csv", "好瓜"),
    "watermelon_2.0_missing": ("watermelon_2.0_missing.csv", "好瓜"),
    "buys_computer": ("buys_computer.csv", "buys_computer"),
    "iris": ("iris.csv", "class"),
    "wine": ("wine.csv", "class"),
    "breast_cancer": ("breast_cancer.csv", "class"),
    "penguins": ("penguins.csv", "species"),
}


def random_dataset(seed: int, n: int = 400, missing: float = 0.1):
    """Mixed random data with missing values (for randomised comparisons with J48)."""
    rng = np.random.default_rng(seed)
    num = np.round(rng.normal(size=(n, 3)), 2)
    cat = rng.integers(0, 4, size=(n, 2))
    score = num[:, 0] + (cat[:, 0] == 1) - 0.5 * num[:, 1] + rng.normal(scale=0.8, size=n)
    y = np.where(score > 0.8, "hi", np.where(score > -0.5, "mid", "lo")).astype(object)
    X = np.empty((n, 5), dtype=object)
    X[:, :3] = num
    X[:, 3:] = np.array(["a", "b", "c", "d"], dtype=object)[cat]
    X[rng.random((n, 5)) < missing] = None
    kw = {
        "feature_names": ["n0", "n1", "n2", "c0", "c1"],
        "feature_kinds": ["continuous"] * 3 + ["categorical"] * 2,
        "categories": {"c0": ("a", "b", "c", "d"), "c1": ("a", "b", "c", "d")},
        "classes": ("lo", "mid", "hi"),
        "target_name": "y",
    }
    return X, y, kw


def java_available() -> str | None:
    """None when java and weka.jar are usable, else the reason they are not."""
    if not WEKA_JAR.exists():
        return f"{WEKA_JAR} is missing (apt-get install weka)"
    try:
        subprocess.run(["java", "-version"], capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"java is not runnable: {exc}"
    return None


def load_csv(path, target=None, drop=ID_COLUMNS):
    """A UTF-8 CSV as (X object array, y, fit kwargs); empty cells are missing."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], [r for r in rows[1:] if r]
    target = header[-1] if target is None else target
    cols = [i for i, h in enumerate(header) if h != target and h not in drop]
    t = header.index(target)
    X = np.array([[r[i] for i in cols] for r in body], dtype=object)
    y = np.array([r[t] for r in body], dtype=object)
    names = [header[i] for i in cols]
    kinds = [infer_kind(X[:, j]) for j in range(X.shape[1])]
    Xo = np.empty(X.shape, dtype=object)
    for j, k in enumerate(kinds):
        for i in range(X.shape[0]):
            v = X[i, j]
            Xo[i, j] = None if v.strip() in MISSING_TOKENS else (float(v) if k == CONTINUOUS else v)
    return Xo, y, {"feature_names": names, "feature_kinds": kinds, "target_name": target}


def load(path, target=None):
    path = Path(path)
    if path.suffix.lower() == ".arff":
        return read_arff(path).to_xy(target)
    return load_csv(path, target)


def fitted_schema_arff(est, X, y) -> str:
    """ARFF text of the training data declaring categories and classes in the schema's order."""
    schema = est.schema_
    names = schema.names + [schema.target]
    kinds = [f.kind for f in schema.features] + [CATEGORICAL]
    cats = {f.name: f.categories for f in schema.features if f.is_categorical}
    cats[schema.target] = schema.classes
    rows = np.concatenate([np.asarray(X, dtype=object), np.asarray(y, dtype=object)[:, None]], axis=1)
    return write_arff(None, names, kinds, rows, cats, relation="compare")


def run_j48(arff_text: str, unpruned: bool = False, extra=()) -> tuple[list[str], str]:
    """Run Weka's J48 on ARFF text; returns (tree body lines, full output)."""
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "data.arff"
        f.write_text(arff_text, encoding="utf-8")
        cmd = [
            "java",
            "-Dfile.encoding=UTF-8",
            "-Dsun.stdout.encoding=UTF-8",
            "-Xmx1g",
            "-cp",
            str(WEKA_JAR),
            "weka.classifiers.trees.J48",
            "-t",
            str(f),
            "-no-cv",
            "-v",
        ]
        if unpruned:
            cmd.append("-U")
        cmd += list(extra)
        env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        out = subprocess.run(cmd, capture_output=True, timeout=600, env=env)
    text = out.stdout.decode("utf-8", "replace")
    if out.returncode != 0:
        raise RuntimeError(f"J48 failed: {out.stderr.decode('utf-8', 'replace')[:2000]}")
    return j48_tree_lines(text), text


def j48_tree_lines(text: str) -> list[str]:
    """The tree body between the '-----' rule and 'Number of Leaves'."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if re.match(r"^J48 (un)?pruned tree", l)) + 2
    end = next(i for i, l in enumerate(lines) if l.startswith("Number of Leaves"))
    return [l.rstrip() for l in lines[start:end] if l.strip()]


_LEAF = re.compile(r"^(.*): (.*) \(([-0-9.E]+)(?:/([-0-9.E]+))?\)$")


def compare_lines(ours: list[str], theirs: list[str], tol: float = 0.0101) -> list[str]:
    """Differences between two J48-form trees (empty list = same tree)."""
    diffs = []
    if len(ours) != len(theirs):
        diffs.append(f"{len(ours)} lines (ours) vs {len(theirs)} (J48)")
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if a == b:
            continue
        ma, mb = _LEAF.match(a), _LEAF.match(b)
        if ma and mb and ma.group(1) == mb.group(1) and ma.group(2) == mb.group(2):
            na = [float(ma.group(3)), float(ma.group(4) or 0)]
            nb = [float(mb.group(3)), float(mb.group(4) or 0)]
            if all(abs(p - q) <= tol for p, q in zip(na, nb)):
                continue
        diffs.append(f"line {k + 1}: ours {a!r} vs J48 {b!r}")
        if len(diffs) > 10:
            break
    return diffs


def compare(X, y, fit_kwargs, pruned: bool = True, **params):
    """Fit ours and J48 on the same data; returns (differences, our lines, J48 lines)."""
    if pruned:
        params = {"z": "normal", "threshold": "j48", **params}
    else:
        params = {"prune": False, "threshold": "j48", **params}
    est = C45Classifier(**params).fit(X, y, **fit_kwargs)
    ours = tree_to_j48_lines(est.tree_, est.schema_)
    theirs, _ = run_j48(fitted_schema_arff(est, X, y), unpruned=not pruned)
    return compare_lines(ours, theirs), ours, theirs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="*", help="CSV or ARFF files (default: the standard sets)")
    ap.add_argument("--target", default=None)
    ap.add_argument("--show", action="store_true", help="print both trees")
    args = ap.parse_args(argv)
    reason = java_available()
    if reason:
        print(f"cannot run J48: {reason}")
        return 2
    jobs = (
        [(Path(p).stem, Path(p), args.target) for p in args.data]
        if args.data
        else [(k, DATASETS / f, t) for k, (f, t) in STANDARD.items()]
    )
    bad = 0
    for name, path, target in jobs:
        X, y, kw = load(path, target)
        for pruned in (True, False):
            diffs, ours, theirs = compare(X, y, kw, pruned=pruned)
            label = "pruned (z=normal)" if pruned else "unpruned (-U)"
            status = "same tree" if not diffs else "DIFFERENT"
            print(f"{name:24s} {label:18s} {status}  ({len(theirs)} lines)")
            if diffs:
                bad += 1
                for d in diffs:
                    print("    " + d)
            if args.show or diffs:
                print("  ours:\n    " + "\n    ".join(ours))
                print("  J48:\n    " + "\n    ".join(theirs))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
