"""Change one value, see the flip: for one feature of a sample (the others fixed), every distinct
behaviour of the tree — one value per interval between the feature's thresholds, each category,
and missing — evaluated at once with the tree's own ``predict_proba`` / ``predict_value``; the
range that keeps the prediction and the nearest change that flips it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dtcore.numbers import fmt_num
from dtcore.routing import branch_index
from dtcore.schema import Schema
from dtcore.tree import Tree

#: digits of the decimals shown next to (or instead of) fractions
DIGITS = 4
#: the words of the counterfactual texts; pass ``words=`` to write them in another language
WORDS = {"missing": "missing", "or": "or", "any": "any", "known": "known"}


def value_text(schema: Schema, j: int, x: float, precision: int | None = None) -> str:
    """An encoded value as people read it: the category label, the number, or "missing"."""
    if math.isnan(x):
        return "missing"
    feat = schema.features[j]
    if feat.is_categorical:
        code = int(x)
        return feat.categories[code] if 0 <= code < len(feat.categories) else f"#{code}"
    return fmt_num(x, precision)


@dataclass
class Option:
    """One candidate value (an interval between thresholds, a category, or missing) of a feature
    with the others fixed, and the prediction the tree then makes."""

    text: str
    prediction: str
    same: bool  # the prediction is the sample's
    current: bool  # the sample's own value is here
    low: float | None = None  # interval (low, high], continuous features
    high: float | None = None


@dataclass
class Counterfactual:
    """For one feature on the path: the values that keep the prediction and the nearest that flip it."""

    feature: int
    name: str
    kind: str  # "continuous" | "categorical"
    current: str
    keep: str  # e.g. "0.381 < 密度 ≤ 0.5" or "色泽 ∈ {青绿, 乌黑}"
    flip: str | None  # e.g. "密度 > 0.5 → 否"; None when no value of this feature changes it
    flip_prediction: str | None
    options: list[Option] = field(default_factory=list)


def _predict(tree: Tree, X: np.ndarray, classifier: bool) -> tuple[np.ndarray, np.ndarray]:
    """(predicted class index or value, probabilities or values) of each row."""
    if classifier:
        p = tree.predict_proba(X)
        return np.argmax(p, axis=1), p
    v = tree.predict_value(X)
    return v, v


def _label(schema: Schema, pred: Any) -> str:
    return schema.classes[int(pred)] if schema.classes is not None else fmt_num(float(pred), DIGITS)


def counterfactual(
    tree: Tree, schema: Schema, x: np.ndarray, j: int, precision: int = 4, words: dict | None = None
) -> Counterfactual:
    """For feature j alone (the others fixed): every distinct behaviour of the tree — one value
    per interval between the feature's thresholds (the threshold itself and the next float above
    the last), or each category, and missing — evaluated at once."""
    w = {**WORDS, **(words or {})}
    feat = schema.features[j]
    classifier = schema.is_classifier
    name = feat.name
    tests = np.flatnonzero(tree.feature == j)
    x0 = float(x[j])
    if feat.is_categorical:
        cands = np.append(np.arange(len(feat.categories), dtype=np.float64), np.nan)
        texts = [f"{name} = {c}" for c in feat.categories] + [f"{name} {w['missing']}"]
        lows: list[float | None] = [None] * cands.size
        highs: list[float | None] = [None] * cands.size
        current = int(len(feat.categories) if math.isnan(x0) else x0)
    else:
        cuts = [tree.cuts_of(int(i)) for i in tests if not tree.is_categorical_test(int(i))]
        ts = np.unique(np.concatenate(cuts)) if cuts else np.empty(0)
        ts = ts[np.isfinite(ts)]
        reps = np.append(ts, np.nextafter(ts[-1], np.inf)) if ts.size else np.array([0.0])
        cands = np.append(reps, np.nan)
        s = [fmt_num(t, precision) for t in ts]
        texts, lows, highs = [], [], []
        for k in range(reps.size):
            lo = float(ts[k - 1]) if k > 0 else None
            hi = float(ts[k]) if k < ts.size else None
            lows.append(lo)
            highs.append(hi)
            if lo is None and hi is None:
                texts.append(f"{name} {w['known']}")
            elif lo is None:
                texts.append(f"{name} ≤ {s[k]}")
            elif hi is None:
                texts.append(f"{name} > {s[k - 1]}")
            else:
                texts.append(f"{s[k - 1]} < {name} ≤ {s[k]}")
        texts.append(f"{name} {w['missing']}")
        lows.append(None)
        highs.append(None)
        current = int(branch_index([x0], cuts=ts, missing_branch=reps.size)[0])
    X = np.repeat(x[None, :].astype(np.float64), cands.size, axis=0)
    X[:, j] = cands
    pred, _ = _predict(tree, X, classifier)
    own = pred[current]
    same = pred == own
    options = [
        Option(texts[k], _label(schema, pred[k]), bool(same[k]), k == current, lows[k], highs[k])
        for k in range(cands.size)
    ]
    flip = flip_pred = None
    n_known = cands.size - 1
    if feat.is_categorical or current == n_known:
        keep_cats = (
            [o.text.split(" = ", 1)[1] for o in options[:n_known] if o.same] if feat.is_categorical else []
        )
        if feat.is_categorical:
            keep = f"{name} ∈ {{{', '.join(keep_cats)}}}" if keep_cats else "—"
        else:
            keep = f" {w['or']} ".join(o.text for o in options[:n_known] if o.same) or "—"
        if current == n_known:
            keep = w["missing"] if keep == "—" else f"{w['missing']} {w['or']} {keep}"
        elif same[n_known]:
            keep += f" {w['or']} {w['missing']}"
        other = [o for o in options if not o.same]
        if other:
            flip = " / ".join(f"{o.text} → {o.prediction}" for o in other)
            flip_pred = other[0].prediction
    else:
        keep, flip, flip_pred = _interval_keep_and_flip(options, same, current, name, x0, precision, w)
    return Counterfactual(
        j,
        name,
        feat.kind,
        w["missing"] if math.isnan(x0) else value_text(schema, j, x0, precision),
        keep,
        flip,
        flip_pred,
        options,
    )


def _interval_keep_and_flip(
    options: list[Option], same: np.ndarray, current: int, name: str, x0: float, precision: int, w: dict
) -> tuple[str, str | None, str | None]:
    """A continuous feature whose value is known: the range of values that keeps the prediction,
    and the nearest change that flips it (just below the range's low end or above its high end)."""
    flip = flip_pred = None
    n_known = len(options) - 1
    differ = np.flatnonzero(~same[:n_known])  # the intervals with another prediction
    lo = int(differ[differ < current].max(initial=-1)) + 1
    hi = int(differ[differ > current].min(initial=n_known)) - 1
    low, high = options[lo].low, options[hi].high
    low_s = "" if low is None else fmt_num(low, precision)
    high_s = "" if high is None else fmt_num(high, precision)
    if low is None and high is None:
        keep = f"{w['any']} {name}"
    elif low is None:
        keep = f"{name} ≤ {high_s}"
    elif high is None:
        keep = f"{name} > {low_s}"
    else:
        keep = f"{low_s} < {name} ≤ {high_s}"
    if same[n_known]:
        keep += f" {w['or']} {w['missing']}"
    # the nearest value outside the kept range: just at or below its low end, or just above its high end
    down = (x0 - low, lo - 1, f"{name} ≤ {low_s}") if low is not None else None
    up = (high - x0, hi + 1, f"{name} > {high_s}") if high is not None else None
    pick = min((c for c in (down, up) if c is not None), key=lambda c: c[0], default=None)
    if pick is not None:
        o = options[pick[1]]
        flip, flip_pred = f"{pick[2]} → {o.prediction}", o.prediction
    return keep, flip, flip_pred
