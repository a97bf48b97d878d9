"""Issue 28's histogram-tree lines of ``bench.bench_library``: dtcore's ``splitter="hist"`` fit
against one tree of scikit-learn's ``HistGradientBoosting*`` and of LightGBM on one thread, and
against scikit-learn's exact ``DecisionTreeClassifier``.

* **classification, 10⁵ and 10⁶ rows × 20** (``bench.bench_hist.make_data``: 3 classes, float
  features): ``CARTClassifier(splitter="hist", max_depth=10)`` against
  ``HistGradientBoostingClassifier(max_iter=1, learning_rate=1, max_depth=10,
  max_leaf_nodes=None, early_stopping=False)`` (``bench.bench_hist``'s configuration; with 3
  classes it grows one tree per class) and ``LGBMClassifier(n_estimators=1, learning_rate=1,
  max_depth=10, num_leaves=2¹⁰, n_jobs=1)`` (also one tree per class);
* **regression, 10⁶ rows × 20** (``bench.bench_cart.make_data``): ``CARTRegressor`` against
  the regressors of both, configured alike (one tree);
* **hist against exact, 10⁵ rows**: the classification fit against ``DecisionTreeClassifier(
  max_depth=10)`` (goal 0.3×).

Both peers run on one thread (HGB's OpenMP pool limited by ``threadpoolctl``): on a shared
2-core machine the CPU time of a multi-threaded fit counts its threads' spinning while they
wait (HGB on 2 threads read 6–36 s CPU here for 0.6–3.5 s of work).  The peers bin their own
features inside ``fit`` as dtcore does, so every time is the whole fit from a float matrix.
The fits run in rotation (ours, then each peer, round after round) and the best round is kept;
10⁶-row lines run at most 2 rounds (each fit is seconds).  Not the same models: the peers fit
gradients (and, by default, keep 20 rows per leaf), so only the time is compared; the note
gives the node counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bench.bench_cart import make_data as make_regression
from bench.bench_hist import DEPTH
from bench.bench_hist import make_data as make_classification
from dtcore.cart.estimator import CARTClassifier, CARTRegressor

if TYPE_CHECKING:  # bench_library imports this module: its names are read at call time
    from bench.bench_library import Line, Timing

BIG = 1_000_000  # rows from which a line runs at most BIG_ROUNDS rounds
BIG_ROUNDS = 2


def rows_label(n: int) -> str:
    """10⁵ for 100 000 (the powers of ten the lines use), else the number."""
    k = len(str(n)) - 1
    return "10" + str(k).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")) if n == 10**k else str(n)


def rotate(fits: list[Callable[[], object]], rounds: int) -> tuple[list[Timing], list[object]]:
    """Best timings of ``fits`` run one after another ``rounds`` times, and their last results."""
    from bench.bench_library import best, timed

    times: list[Timing | None] = [None] * len(fits)
    out: list[object] = [None] * len(fits)
    for _ in range(rounds):
        for i, fit in enumerate(fits):
            t, out[i] = timed(fit)
            times[i] = best(times[i], t)
    return [t for t in times if t is not None], out


def lightgbm_available() -> bool:
    try:
        import lightgbm  # noqa: F401
    except ImportError:
        return False
    return True


def hgb(task: str) -> Any:
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    cls = HistGradientBoostingClassifier if task == "classification" else HistGradientBoostingRegressor
    return cls(max_iter=1, learning_rate=1, max_depth=DEPTH, max_leaf_nodes=None, early_stopping=False)


def lgbm(task: str) -> Any:
    import lightgbm

    cls = lightgbm.LGBMClassifier if task == "classification" else lightgbm.LGBMRegressor
    return cls(n_estimators=1, learning_rate=1, max_depth=DEPTH, num_leaves=2**DEPTH, n_jobs=1, verbose=-1)


def peer_lines(n: int, task: str, rounds: int) -> list[Line]:
    """dtcore's hist fit against HGB and (if importable) LightGBM, on ``n`` rows × 20."""
    from bench.bench_library import Line

    classify = task == "classification"
    X, y = make_classification(n) if classify else make_regression(n, 20, "regression")
    est = CARTClassifier if classify else CARTRegressor

    def ours() -> Any:
        return est(splitter="hist", max_depth=DEPTH).fit(X, y)

    what = f"hist fit, {rows_label(n)} rows × 20, {'3 classes' if classify else 'regression'}, depth {DEPTH}"
    names = ["HistGradientBoosting, one iteration, one thread"]

    def peer_hgb() -> Any:
        from threadpoolctl import threadpool_limits  # scikit-learn's own dependency

        with threadpool_limits(1):
            return hgb(task).fit(X, y)

    fits: list[Callable[[], object]] = [ours, peer_hgb]
    if lightgbm_available():
        names.append("LightGBM, one iteration, one thread")
        fits.append(lambda: lgbm(task).fit(X, y))
    times, models = rotate(fits, min(rounds, BIG_ROUNDS) if n >= BIG else rounds)
    nodes = models[0].tree_.node_count  # type: ignore[attr-defined]
    trees = "one tree per class" if task == "classification" else "one tree"
    lines = [
        Line(what, times[0], t, name, 1.0, f"{nodes} nodes; the peer grows {trees}")
        for name, t in zip(names, times[1:], strict=True)
    ]
    if not lightgbm_available():
        lines.append(Line(what, times[0], None, "LightGBM (not run: not importable)", 1.0))
    return lines


def exact_line(n: int, rounds: int) -> Line:
    """dtcore's hist fit against scikit-learn's exact tree on the same rows."""
    from sklearn.tree import DecisionTreeClassifier

    from bench.bench_library import Line

    X, y = make_classification(n)
    times, models = rotate(
        [
            lambda: CARTClassifier(splitter="hist", max_depth=DEPTH).fit(X, y),
            lambda: DecisionTreeClassifier(max_depth=DEPTH, random_state=0).fit(X, y),
        ],
        rounds,
    )
    ours, sk = (m.tree_.node_count for m in models)  # type: ignore[attr-defined]
    return Line(
        f"hist fit against the exact tree, {rows_label(n)} rows × 20, depth {DEPTH}",
        times[0],
        times[1],
        "scikit-learn DecisionTreeClassifier",
        0.3,
        f"nodes {ours}/{sk}",
    )


def hist_lines(rounds: int) -> list[Line]:
    """Every histogram-tree line of issue 28."""
    return [
        *peer_lines(100_000, "classification", rounds),
        *peer_lines(1_000_000, "classification", rounds),
        *peer_lines(1_000_000, "regression", rounds),
        exact_line(100_000, rounds),
    ]
