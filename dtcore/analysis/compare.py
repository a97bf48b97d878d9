"""ID3, C4.5 and CART side by side: the same data, the same row split, their scores, how often
they agree, and the first node where their tests differ, scored under every criterion.

:func:`compare` fits each contender (:data:`CONTENDERS`) on the same training rows and reports

* per contender: accuracy on the training / validation / test rows (RMSE and MAE for
  regression, where only CART applies and the contenders are its criteria), nodes, leaves,
  depth, fit time, k-fold cross-validated accuracy (or RMSE) on the training rows (``fold_ids``
  of ``pruning.alpha_selection``: one home for folds);
* the prediction agreement matrix (share of the test rows, else the validation rows, else the
  training rows, on which each pair predicts the same) and the rows where they disagree;
* the first disagreement (:class:`Disagreement`): the grown trees (``grown_tree_``: the
  builders' choices, before any pruning) are walked top-down in step, level by level; while
  every tree holds the same test at the node the same rows reach, the walk goes on in every
  branch; at the first node where the tests differ (or one tree stops), each competing test is
  scored under every contender's criterion with the split explorer's arithmetic
  (``explain.arithmetic``, ``explain.split_report``: gain, gain ratio with C4.5's average-gain
  rule, Gini decrease), never a formula of its own.

The results are typed records (:class:`Entry`, :class:`CvSummary`, :class:`Comparison`,
:class:`DisagreeRow`, and ``disagreement``'s); ``Comparison.to_dict`` is their JSON-safe form;
:func:`notes` says in words why the contenders chose apart.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from dtcore.analysis.compare_records import Disagreement, Entry, Note
from dtcore.analysis.disagreement import first_disagreement, notes
from dtcore.base import BaseTreeEstimator
from dtcore.estimators import make_estimator, tasks_of
from dtcore.id3.rules import intervals_too_wide
from dtcore.progress import checkpoint, report
from dtcore.pruning.alpha_selection import fold_ids, only_when_asked
from dtcore.schema import label_of

#: key → (label, algorithm, parameters)
CONTENDERS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "id3": ("ID3", "id3", {}),
    "c45": ("C4.5", "c45", {}),
    "cart": ("CART (gini)", "cart", {"criterion": "gini"}),
    "cart-entropy": ("CART (entropy)", "cart", {"criterion": "entropy"}),
    "cart-squared_error": ("CART (squared error)", "cart", {"criterion": "squared_error"}),
    "cart-friedman_mse": ("CART (Friedman MSE)", "cart", {"criterion": "friedman_mse"}),
    "cart-absolute_error": ("CART (absolute error)", "cart", {"criterion": "absolute_error"}),
    "cart-poisson": ("CART (Poisson)", "cart", {"criterion": "poisson"}),
}
ALIASES = {"cart-gini": "cart", "c4.5": "c45"}
DEFAULTS = {
    "classification": ("id3", "c45", "cart"),
    "regression": ("cart-squared_error", "cart-friedman_mse", "cart-absolute_error"),
}
CV_FOLDS = 5  # unasked up to alpha_selection.ASKED_ROWS training rows (only_when_asked)
REGRESSION_KEYS = ("cart-squared_error", "cart-friedman_mse", "cart-absolute_error", "cart-poisson")
SPLITS = ("train", "valid", "test")


def default_keys(task: str, widest: int = 0, n_train: int = 0) -> tuple[str, ...]:
    """The contenders a comparison starts with: :data:`DEFAULTS` without the :func:`slow` ones."""
    left_out = slow(task, widest, n_train)
    return tuple(k for k in DEFAULTS[task] if k not in left_out)


def slow(task: str, widest: int, n_train: int) -> tuple[str, ...]:
    """The ``task``'s contenders too slow to start with on this table: ID3 when ``widest`` (the
    most distinct training values of a continuous feature) makes ``id3.rules.intervals_too_wide``; CART
    with absolute error on a large one (``alpha_selection.only_when_asked``: its median-based
    split search took 95 s of CPU on 85 000 rows, squared error 3 s)."""
    if task == "regression":
        return ("cart-absolute_error",) if only_when_asked(n_train) else ()
    return ("id3",) if intervals_too_wide(widest) else ()


def default_folds(n_train: int) -> int:
    """Folds of cross-validation a comparison runs unasked on ``n_train`` training rows:
    :data:`CV_FOLDS`, none where ``alpha_selection.only_when_asked`` (the user asks for them)."""
    return 0 if only_when_asked(n_train) else CV_FOLDS


def resolve(
    keys: Iterable[object] | None, task: str, extra: dict[str, tuple[str, str, dict[str, Any]]] | None = None
) -> list[str]:
    """Contender keys from names (aliases allowed; for regression ``cart`` means squared error);
    ``extra``: more contenders, key → (label, algorithm, parameters), e.g. a model's own settings."""
    extra = extra or {}
    out = []
    for raw in keys or DEFAULTS[task]:
        k = ALIASES.get(str(raw).strip().lower(), str(raw).strip().lower())
        if task == "regression" and k == "cart":
            k = "cart-squared_error"
        if k in extra:
            if task not in tasks_of(extra[k][1]):
                raise ValueError(f"{extra[k][0]} does not grow {task} trees")
            if k not in out:
                out.append(k)
            continue
        if k not in CONTENDERS:
            raise ValueError(f"unknown algorithm {raw!r}: choose from {', '.join(CONTENDERS)}")
        if (task == "regression") != (k in REGRESSION_KEYS):
            raise ValueError(f"{CONTENDERS[k][0]} does not grow {task} trees")
        if k not in out:
            out.append(k)
    if not out:
        raise ValueError("choose at least one algorithm")
    return out


@dataclass(frozen=True)
class DisagreeRow:
    """A row (of ``Comparison.agree_on``) the contenders do not all predict alike: its position,
    the truth and each contender's prediction (labels as text, values as floats)."""

    row: int
    truth: Any  # a class label (text) or a regression value (float): ``_plain``
    predictions: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row, "truth": self.truth, "predictions": self.predictions}


@dataclass(frozen=True)
class Comparison:
    task: str
    target: str
    rows: dict[str, np.ndarray]
    entries: list[Entry]
    agree_on: str
    agreement: np.ndarray
    disagree_rows: np.ndarray
    truth: np.ndarray
    first: Disagreement | None
    cv_folds: int

    def disagreements(self) -> list[DisagreeRow]:
        """The rows of ``disagree_rows`` in the order of ``rows[agree_on]``."""
        on = self.rows[self.agree_on]
        keep = np.isin(on, self.disagree_rows)
        return [
            DisagreeRow(
                int(r), _plain(t), {e.key: _plain(e.predictions[self.agree_on][i]) for e in self.entries}
            )
            for i, (r, t) in enumerate(zip(on, self.truth))
            if keep[i]
        ]

    def notes(self) -> list[Note]:
        """Why the contenders chose apart at the first disagreement (:func:`notes`)."""
        return notes(self.first, self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "target": self.target,
            "rows": {k: int(v.size) for k, v in self.rows.items()},
            "cv_folds": self.cv_folds,
            "algorithms": [e.to_dict() for e in self.entries],
            "agreement": {
                "rows": self.agree_on,
                "keys": [e.key for e in self.entries],
                "matrix": self.agreement.tolist(),
            },
            "disagreements": [r.to_dict() for r in self.disagreements()],
            "first_disagreement": None if self.first is None else self.first.to_dict(),
            "notes": [n.to_dict() for n in self.notes()],
        }


def _plain(v: Any) -> Any:
    if isinstance(v, (np.floating, float)):
        return float(v)
    return label_of(v) if not isinstance(v, str) else v


# =============================================================================================
# fitting and scoring


def _fit(
    spec: tuple[str, str, dict[str, Any]], task: str, X: np.ndarray, y: np.ndarray, fit_kw: dict[str, Any]
) -> tuple[BaseTreeEstimator, float]:
    _, algorithm, params = spec
    est = make_estimator(algorithm, task, **params)
    t0 = time.perf_counter()
    est.fit(X, y, **fit_kw)
    return est, time.perf_counter() - t0


def _score(task: str, truth: np.ndarray, pred: np.ndarray) -> dict[str, float]:
    if truth.size == 0:
        return {}
    if task == "classification":
        said = np.array([label_of(v) for v in pred.tolist()], dtype=object)
        real = np.array([label_of(v) for v in truth.tolist()], dtype=object)
        return {"accuracy": float(np.mean(said == real))}
    err = pred.astype(np.float64) - truth.astype(np.float64)
    return {"rmse": float(np.sqrt(np.mean(err**2))), "mae": float(np.mean(np.abs(err)))}


def _cv(
    spec: tuple[str, str, dict[str, Any]],
    task: str,
    X: np.ndarray,
    y: np.ndarray,
    fit_kw: dict[str, Any],
    folds: np.ndarray,
    progress: tuple[str, int, int] = ("", 0, 0),
) -> list[float]:
    """The held-out score of each fold; ``progress``: (contender key, the first fold's unit,
    the comparison's units), reported per fold (dtcore.progress, stage "compare")."""
    key, first, units = progress
    out = []
    for f in range(int(folds.max()) + 1 if folds.size else 0):
        if units:
            report("compare", first + f, units, label=f"{key}/{f}")
        held = folds == f
        try:
            est, _ = _fit(spec, task, X[~held], y[~held], fit_kw)
        except ValueError:  # a fold left one class only, say: no score for it
            continue
        s = _score(task, y[held], est.predict(X[held]))
        out.append(s["accuracy"] if task == "classification" else s["rmse"])
    return out


def compare(
    X: ArrayLike,
    y: ArrayLike,
    rows: dict[str, np.ndarray],
    *,
    task: str = "classification",
    keys: Iterable[object] | None = None,
    fit_kw: dict[str, Any] | None = None,
    cv: int = CV_FOLDS,
    seed: int = 0,
    extra: dict[str, tuple[str, str, dict[str, Any]]] | None = None,
) -> Comparison:
    """Fit the contenders ``keys`` on ``X[rows["train"]]`` and compare them (module docstring).

    ``X``: raw rows (object array), ``y`` the target; ``rows``: positions per split ("train",
    and optionally "valid", "test"); ``fit_kw``: what ``fit`` takes besides X and y (feature
    names and kinds, categories, classes, target name), the same for every contender;
    ``extra``: contenders beyond :data:`CONTENDERS` (key → label, algorithm, parameters)."""
    X = np.asarray(X, dtype=object)
    y = np.asarray(y, dtype=object)
    fit_kw = dict(fit_kw or {})
    rows = {s: np.asarray(rows.get(s, np.empty(0, np.int64)), dtype=np.int64) for s in SPLITS}
    tr = rows["train"]
    table = {**CONTENDERS, **(extra or {})}
    keys = resolve(keys, task, extra)
    k = min(int(cv), tr.size)
    folds = np.empty(0, np.int64)
    if k >= 2:
        strata = (
            np.array([label_of(v) for v in y[tr].tolist()], dtype=object)
            if task == "classification"
            else None
        )
        folds = fold_ids(
            strata if strata is not None else np.zeros(tr.size), k, seed, stratify=strata is not None
        )
    entries = []
    n_folds = int(folds.max()) + 1 if folds.size else 0
    fits = len(keys) * (1 + n_folds)  # progress: one unit per fit (dtcore.progress, "compare")
    for i, key in enumerate(keys):
        start = i * (1 + n_folds)
        report("compare", start, fits, label=key)
        est, seconds = _fit(table[key], task, X[tr], y[tr], fit_kw)
        checkpoint()
        preds = {s: est.predict(X[r]) if r.size else np.empty(0, dtype=object) for s, r in rows.items()}
        scores = {s: _score(task, y[r], preds[s]) for s, r in rows.items() if r.size}
        t = est.tree_
        label, algorithm, params = table[key]
        entries.append(
            Entry(
                key,
                label,
                algorithm,
                dict(params),
                est,
                seconds,
                scores,
                t.node_count,
                t.get_n_leaves(),
                t.get_depth(),
                _cv(table[key], task, X[tr], y[tr], fit_kw, folds, (key, start + 1, fits))
                if folds.size
                else [],
                preds,
            )
        )
    report("compare", fits, fits)
    on = "test" if rows["test"].size else "valid" if rows["valid"].size else "train"
    agreement, differ = _agreement(task, [e.predictions[on] for e in entries])
    first = first_disagreement(entries, X[tr], y[tr])
    return Comparison(
        task,
        str(fit_kw.get("target_name", "y")),
        rows,
        entries,
        on,
        agreement,
        rows[on][differ],
        y[rows[on]],
        first,
        k,
    )


def _agreement(task: str, preds: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Share of rows on which each pair predicts the same, and which rows not all agree on
    (regression: equal within 1e-9 relative)."""
    K = len(preds)
    if task == "classification":
        P = [np.array([label_of(v) for v in p.tolist()], dtype=object) for p in preds]
        same = [[P[a] == P[b] for b in range(K)] for a in range(K)]
    else:
        F = [np.asarray(p, dtype=np.float64) for p in preds]
        same = [[np.isclose(F[a], F[b], rtol=1e-9, atol=0.0) for b in range(K)] for a in range(K)]
    n = preds[0].size if K else 0
    M = np.array([[float(np.mean(same[a][b])) if n else 1.0 for b in range(K)] for a in range(K)])
    all_same = np.ones(n, dtype=bool)
    for b in range(1, K):
        all_same &= same[0][b]
    return M, ~all_same


# =============================================================================================


def same_rows_nodes(c: Comparison, key: str, node: int, X_train: ArrayLike) -> dict[str, int | None]:
    """Per contender, the node of its fitted tree that the same training rows reach as ``node``
    of ``key``'s tree (each row along its heaviest path, ``Tree.decision_path``); None where no
    node holds exactly those rows. Vectorised: one pass over the path indicator per tree."""
    X_train = np.asarray(X_train, dtype=object)
    ref = next(e for e in c.entries if e.key == key)
    indptr, indices = ref.estimator.decision_path(X_train)
    n = indptr.size - 1
    row_of = np.repeat(np.arange(n), np.diff(indptr))
    inside = np.zeros(n, dtype=bool)
    inside[row_of[indices == int(node)]] = True
    want = int(inside.sum())
    out: dict[str, int | None] = {}
    for e in c.entries:
        ip, ix = e.estimator.decision_path(X_train)
        rows = np.repeat(np.arange(n), np.diff(ip))
        size = np.bincount(ix, minlength=e.nodes)
        hits = np.bincount(ix, weights=inside[rows], minlength=e.nodes)
        match = np.flatnonzero((size == want) & (hits == want))
        out[e.key] = int(match[-1]) if match.size and want else None  # the deepest such node
    return out
