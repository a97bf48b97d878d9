"""Library speed where dtcore trailed its peers (issue 28), each line timed against the peer in
one run, interleaved (ours, peer, ours, peer, …: the machine's load hits both alike).

    .venv/bin/python -m bench.bench_library               # print the table
    .venv/bin/python -m bench.bench_library --write-doc   # and write it to docs/speed-library.md
    .venv/bin/python -m bench.bench_library --repeat 5    # more rounds (the best is kept)

Lines:

* **predict**: ``predict`` on 10⁶ rows × 20 with a depth-8 CART tree (fitted on 10⁵ rows)
  against scikit-learn's ``DecisionTreeClassifier.predict`` on the same rows and a tree grown
  on the same data (the same predictions are checked);
* **ID3**: ``ID3Classifier.fit`` on 10⁴ rows × 12 categorical features of 3 levels (no missing
  values; about 6 200 nodes) against Weka's ``Id3`` run as a user runs it (``java … Id3 -t FILE
  -no-cv -v``: JVM start and ARFF parsing included; its CPU is the child process's user + system
  time, JIT and GC threads included);
* **exact CART, 10³ rows**: ``CARTClassifier`` fully grown and at depth 8 on 10³ × 10 against
  ``DecisionTreeClassifier`` (the same node counts are checked);
* **exact CART, 10⁴ rows, fully grown 10⁵ rows, fit memory at 10⁶ rows**: ``bench/lines_exact.py``;
* **hist**: ``bench/lines_hist.py``; **EBP, CCP with CV**: ``bench/lines_pruning.py``;
  **Dask**: ``bench/lines_dask.py``.

CPU seconds are what the load inflates least (``time.process_time``; the peer's own process for
Weka); the ratio column is ours / peer on CPU, the goal that of issue 28.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.bench_cart import make_data
from bench.lines_dask import dask_lines
from bench.lines_exact import exact_lines
from bench.lines_hist import hist_lines
from bench.lines_pruning import pruning_lines
from dtcore.cart.estimator import CARTClassifier
from dtcore.data.arff import write_arff
from dtcore.id3.estimator import ID3Classifier
from scripts.compare_j48 import WEKA_JAR, java_available

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "speed-library.md"


@dataclass(frozen=True)
class Timing:
    """Best CPU and best wall seconds over the rounds."""

    cpu: float
    wall: float


@dataclass(frozen=True)
class Memory:
    """Megabytes (2²⁰ bytes) a fit added to its process at its peak."""

    mb: float


@dataclass(frozen=True)
class Line:
    what: str
    ours: Timing | Memory
    peer: Timing | Memory | None
    peer_name: str
    goal: float  # ours / peer on CPU must stay at or below this
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return None if self.peer is None else amount(self.ours) / amount(self.peer)

    @property
    def met(self) -> str:
        r = self.ratio
        return "—" if r is None else ("yes" if r <= self.goal else "no")


def amount(m: Timing | Memory) -> float:
    """What a line's ratio compares: CPU seconds, or megabytes."""
    return m.cpu if isinstance(m, Timing) else m.mb


def timed(fn: Callable[[], object]) -> tuple[Timing, object]:
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return Timing(time.process_time() - c, time.perf_counter() - w), out


def best(a: Timing | None, b: Timing) -> Timing:
    return b if a is None else Timing(min(a.cpu, b.cpu), min(a.wall, b.wall))


def interleave(ours: Callable[[], object], peer: Callable[[], object], rounds: int):
    """Best timings of ``ours`` and ``peer`` run alternately ``rounds`` times, and their results."""
    t_ours = t_peer = None
    r_ours = r_peer = None
    for _ in range(rounds):
        t, r_ours = timed(ours)
        t_ours = best(t_ours, t)
        t, r_peer = timed(peer)
        t_peer = best(t_peer, t)
    assert t_ours is not None and t_peer is not None
    return t_ours, t_peer, r_ours, r_peer


# -- the lines --------------------------------------------------------------------------------
def predict_line(rounds: int) -> Line:
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_data(100_000, 20, "classification")
    ours = CARTClassifier(max_depth=8).fit(X, y)
    sk = DecisionTreeClassifier(max_depth=8, random_state=0).fit(X, y)
    X_new, _ = make_data(1_000_000, 20, "classification", seed=1)
    t_ours, t_sk, p_ours, p_sk = interleave(lambda: ours.predict(X_new), lambda: sk.predict(X_new), rounds)
    same = float(np.mean(np.asarray(p_ours) == np.asarray(p_sk))) * 100
    return Line(
        "predict, 10⁶ rows × 20, depth-8 tree",
        t_ours,
        t_sk,
        "scikit-learn",
        1.0,
        f"{ours.tree_.node_count} nodes; same predictions on {same:.2f} % of rows",
    )


def id3_data(n: int = 10_000, p: int = 12, levels: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, levels, size=(n, p))
    score = codes[:, 0] + (codes[:, 1] == codes[:, 2]) + 0.3 * rng.normal(size=n)
    y = np.array(["a", "b", "c"], dtype=object)[np.digitize(score, [1.2, 2.4])]
    return np.array([f"v{v}" for v in range(levels)], dtype=object)[codes], y


def run_weka_id3(arff: Path) -> str:
    cmd = [
        "java",
        "-Xmx1g",
        "-cp",
        str(WEKA_JAR),
        "weka.classifiers.trees.Id3",
        "-t",
        str(arff),
        "-no-cv",
        "-v",
    ]
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
    out = subprocess.run(cmd, capture_output=True, timeout=600, env=env, check=True)
    return out.stdout.decode("utf-8", "replace")


def weka_id3_nodes(text: str) -> int:
    """Nodes of the tree Weka's Id3 prints (one line per branch below the "Id3" title, + the root)."""
    lines = text.splitlines()
    start = lines.index("Id3") + 1
    return 1 + sum(1 for line in lines[start:] if line.strip())


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def id3_line(rounds: int) -> Line:
    X, y = id3_data()
    p = X.shape[1]
    names = [f"x{j}" for j in range(p)]
    kinds = ["categorical"] * p

    def ours() -> ID3Classifier:
        return ID3Classifier().fit(X, y, feature_names=names, feature_kinds=kinds, classes=("a", "b", "c"))

    reason = java_available()
    if reason:
        t, est = timed(ours)
        return Line("ID3 fit, 10⁴ rows × 12 categorical", t, None, f"Weka Id3 (not run: {reason})", 0.3)
    with tempfile.TemporaryDirectory() as d:
        arff = Path(d) / "id3.arff"
        rows = np.concatenate([X, y[:, None]], axis=1)
        cats = {n: ("v0", "v1", "v2") for n in names} | {"class": ("a", "b", "c")}
        arff.write_text(
            write_arff(None, names + ["class"], kinds + ["categorical"], rows, cats, relation="id3")
        )

        def peer() -> tuple[Timing, str]:
            c, w = child_cpu(), time.perf_counter()
            text = run_weka_id3(arff)
            return Timing(child_cpu() - c, time.perf_counter() - w), text

        t_ours = t_peer = None
        est = text = None
        for _ in range(rounds):
            t, est = timed(ours)
            t_ours = best(t_ours, t)
            t, text = peer()
            t_peer = best(t_peer, t)
    assert isinstance(est, ID3Classifier) and t_ours is not None and t_peer is not None and text is not None
    return Line(
        "ID3 fit, 10⁴ rows × 12 categorical",
        t_ours,
        t_peer,
        "Weka Id3, whole process",
        0.3,
        f"nodes {est.tree_.node_count}/{weka_id3_nodes(text)}; wall ratio {t_ours.wall / t_peer.wall:.2f}",
    )


def cart_small_lines(rounds: int) -> list[Line]:
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_data(1000, 10, "classification")
    lines = []
    reps = 10  # one fit is milliseconds: time 10 per round
    for depth in (None, 8):

        def ours(depth: int | None = depth) -> CARTClassifier:
            for _ in range(reps):
                est = CARTClassifier(max_depth=depth).fit(X, y)
            return est

        def peer(depth: int | None = depth) -> DecisionTreeClassifier:
            for _ in range(reps):
                est = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
            return est

        t_ours, t_sk, e_ours, e_sk = interleave(ours, peer, rounds)
        lines.append(
            Line(
                f"exact CART fit, 10³ rows × 10, {'fully grown' if depth is None else 'depth 8'}",
                Timing(t_ours.cpu / reps, t_ours.wall / reps),
                Timing(t_sk.cpu / reps, t_sk.wall / reps),
                "scikit-learn",
                1.5,
                f"nodes {e_ours.tree_.node_count}/{e_sk.tree_.node_count}",
            )
        )
    return lines


# -- output -----------------------------------------------------------------------------------
def fmt(t: Timing | Memory | None) -> str:
    if isinstance(t, Memory):
        return f"{t.mb:.0f} MB"
    return "—" if t is None else f"{t.cpu:.3f} s CPU ({t.wall:.3f} s wall)"


def table(lines: list[Line]) -> list[str]:
    out = [
        "| what | dtcore | peer | ratio (CPU or MB) | goal | met | note |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for ln in lines:
        ratio = "—" if ln.ratio is None else f"{ln.ratio:.2f}×"
        out.append(
            f"| {ln.what} | {fmt(ln.ours)} | {ln.peer_name}: {fmt(ln.peer)} | {ratio} | ≤ {ln.goal}× "
            f"| {ln.met} | {ln.note} |"
        )
    return out


def write_doc(rows: list[str], rounds: int, path: Path = DOC) -> None:
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = "\n".join(
        [
            "# Library speed against the peers",
            "",
            "Written by `python -m bench.bench_library --write-doc` (part of `make bench`); do not",
            "edit by hand. Each line runs dtcore and its peer alternately in one process, best of",
            f"{rounds} rounds; CPU seconds are what a shared machine's load inflates least. What",
            "each line measures is in the script's docstring.",
            "",
            f"Measured {when} on {platform.machine()} with {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, numpy {np.__version__}.",
            "",
            *rows,
            "",
        ]
    )
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds per line (the best is kept)")
    ap.add_argument("--write-doc", action="store_true", help=f"write the table to {DOC.relative_to(ROOT)}")
    ap.add_argument(
        "--only", choices=("predict", "id3", "cart", "exact", "hist"), nargs="*", help="only these lines"
    )
    args = ap.parse_args(argv)
    todo = args.only or ["predict", "id3", "cart", "exact", "hist"]
    lines: list[Line] = []
    show = lambda row: print(row, flush=True)  # noqa: E731
    rows = table([])
    print("\n".join(rows), flush=True)
    for key in todo:
        new = {
            "predict": lambda: [predict_line(args.repeat)],
            "id3": lambda: [id3_line(args.repeat)],
            "hist": lambda: hist_lines(args.repeat),
            "exact": lambda: exact_lines(args.repeat, show=show),
        }.get(key, lambda: cart_small_lines(args.repeat))()
        lines += new
        if key != "exact":  # exact_lines prints its rows as it measures them
            for row in table(new)[2:]:
                print(row, flush=True)
    lines += pruning_lines(args.repeat, args.only)  # prints its rows (bench/lines_pruning.py)
    lines += [] if args.only else dask_lines(args.repeat, show=show)
    if args.write_doc:
        write_doc(table(lines), args.repeat)
        print(f"written to {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    # through the module itself: the lines' modules import ``bench.bench_library``, and
    # ``__main__`` is another copy of it whose classes ``isinstance`` would not recognise
    from bench.bench_library import main as module_main

    module_main()
