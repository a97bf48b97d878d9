"""Why one sample gets its prediction: the path it takes, C4.5's fractional split at a missing
value, the mixing of the reached leaves into the final probabilities, and per feature the range
that keeps the prediction and the nearest change that flips it (SPEC §6).

The walk asks the tree's own rules at every node: ``routing.branch_index`` (the branch a value
takes, CART's learned missing direction included) and ``routing.distribute`` (C4.5's shares of a
row with an unknown value, over the children's training weights as ``Tree.route`` uses them), so
the result is what ``Tree.predict_proba`` / ``predict_value`` compute — the tests check it on
every row of the bundled samples. Counterfactuals evaluate the tree itself (``predict_proba`` over
one candidate value per interval between the feature's thresholds, or per category), vectorised.

Numbers that are ratios of small whole numbers (branch shares and leaf distributions when the
weights are counts) are written as fractions, "7/15"; the arithmetic lines say "=" only where
the printed numbers are exact and "≈" where a decimal is rounded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from dtcore.explain.counterfactual import DIGITS, Counterfactual, counterfactual, value_text
from dtcore.export.labels import branches, condition_text, unwrap_model
from dtcore.numbers import fmt_num, fmt_weight
from dtcore.routing import branch_index, distribute
from dtcore.schema import Schema, encode_features
from dtcore.tree import Tree

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

#: the largest denominator written as a fraction; beyond it a number is shown as a decimal
MAX_DENOMINATOR = 10_000


def nice_fraction(x: float) -> Fraction | None:
    """``x`` as p/q with q ≤ MAX_DENOMINATOR when that is ``x`` to float precision, else None."""
    if not math.isfinite(x):
        return None
    fr = Fraction(x).limit_denominator(MAX_DENOMINATOR)
    return fr if abs(float(fr) - x) <= 1e-12 * max(1.0, abs(x)) else None


def number_text(x: float) -> str:
    """A share or probability for people: "7/15" when it is such a fraction, "1", else a decimal."""
    fr = nice_fraction(x)
    if fr is not None:
        return str(fr.numerator) if fr.denominator == 1 else f"{fr.numerator}/{fr.denominator}"
    return fmt_num(x, DIGITS)


def decimal_text(x: float) -> tuple[str, bool]:
    """(decimal text, exact?): ``fmt_num`` at DIGITS significant digits and whether it is x."""
    s = fmt_num(x, DIGITS)
    return s, float(s) == x


@dataclass
class Step:
    """One edge the sample follows: from ``node`` down ``branch`` to ``child``.

    ``how``: "value" (the sample's value chose the branch), "missing" (the value is missing, or a
    category with no branch here, and CART's learned direction chose it) or "spread" (C4.5: the
    sample goes down every branch; ``share`` of its weight goes this way)."""

    node: int
    child: int
    branch: int
    feature: int
    name: str
    value: str  # the sample's value as people read it ("missing" for NaN)
    condition: str  # the branch's condition, e.g. "≤ 0.381" or "= 清晰"
    how: str
    share: float  # fraction of the arriving weight sent down this edge
    share_text: str
    weight: float  # the sample's weight arriving at ``child``
    weight_text: str


@dataclass
class Reached:
    """A leaf the sample reaches, with the weight that reaches it and what the leaf says."""

    leaf: int
    path: list[int]  # node ids from the root to the leaf
    weight: float
    weight_text: str
    counts: list[float]  # the leaf's training class counts (regression: [value])
    distribution: list[float]  # the leaf's class probabilities (regression: [value])


@dataclass
class PredictionExplanation:
    """What ``explain_prediction`` returns; ``to_dict`` is its JSON form."""

    algorithm: str
    task: str
    features: list[str]
    values: list[str]  # the sample's value per feature, as text
    x: np.ndarray  # the encoded sample
    steps: list[Step]
    leaves: list[Reached]
    classes: list[str] | None
    proba: list[float] | None
    value: float | None
    prediction: str
    mixing: list[str]  # worked arithmetic lines, true as printed
    counterfactuals: list[Counterfactual]

    @property
    def path_nodes(self) -> list[int]:
        return sorted({0} | {s.child for s in self.steps})

    def edge_notes(self, missing: str = "missing") -> dict[tuple[int, int], str]:
        """(parent, child) → what the picture writes on the edge: the sample's value and, for a
        spread, the share (e.g. "missing · 7/15"); ``missing`` is the word for a missing value."""
        out = {}
        for s in self.steps:
            value = missing if math.isnan(float(self.x[s.feature])) else s.value
            if s.how == "spread":
                out[(s.node, s.child)] = f"{value} · {s.share_text}"
            else:
                out[(s.node, s.child)] = value if s.how == "value" else f"{value} →"
        return out

    def to_dict(self) -> dict[str, Any]:
        def plain(obj: Any) -> Any:
            if isinstance(obj, list):
                return [plain(v) for v in obj]
            if hasattr(obj, "__dataclass_fields__"):
                return {k: plain(getattr(obj, k)) for k in obj.__dataclass_fields__}
            if isinstance(obj, float) and not math.isfinite(obj):
                return None
            return obj

        d = {k: plain(getattr(self, k)) for k in self.__dataclass_fields__ if k != "x"}
        d["path_nodes"] = self.path_nodes
        return d


# =============================================================================================
# the sample


def encode_row(schema: Schema, row: Mapping[str, object]) -> np.ndarray:
    """A dict of raw values by feature name → the encoded sample (absent features are missing;
    a name the model does not know is refused, so a typo does not pass silently as missing)."""
    unknown = [k for k in row if k not in schema.names]
    if unknown:
        raise ValueError(
            f"the row names {unknown}, which the model does not use; its features are {schema.names}"
        )
    raw = np.empty((1, len(schema.features)), dtype=object)
    raw[0, :] = [row.get(name) for name in schema.names]
    return encode_features(raw, schema)[0]


# =============================================================================================
# the walk


def _branch(tree: Tree, node: int, x: float) -> int:
    """The branch the value takes here (the learned missing direction included), -1 to spread."""
    mb = int(tree.missing_branch[node])
    if tree.is_categorical_test(node):
        return int(branch_index([x], cat_branch=tree.cat_branch_of(node), missing_branch=mb)[0])
    return int(branch_index([x], cuts=tree.cuts_of(node), missing_branch=mb)[0])


def walk(tree: Tree, schema: Schema, x: np.ndarray, precision: int = 4) -> tuple[list[Step], list[Reached]]:
    """The edges the sample follows and the leaves it reaches, in pre-order."""
    steps: list[Step] = []
    leaves: list[Reached] = []
    dist = tree.leaf_distribution() if schema.is_classifier else tree.value
    stack: list[tuple[int, float, list[int]]] = [(0, 1.0, [0])]
    while stack:
        node, w, path = stack.pop()
        if tree.feature[node] < 0:
            counts = [float(v) for v in tree.value[node]]
            leaves.append(Reached(node, path, w, number_text(w), counts, [float(v) for v in dist[node]]))
            continue
        j = int(tree.feature[node])
        kids = tree.children_of(node)
        b = _branch(tree, node, float(x[j]))
        bs = branches(tree, schema, node, precision)
        own = tree.branch_of(node, np.array([x[j]]))[0]  # -1: missing or no branch for the value
        vtext = value_text(schema, j, float(x[j]), precision)
        todo = []
        if b >= 0:
            todo.append((b, 1.0, "value" if own >= 0 else "missing"))
        else:
            shares = distribute(np.array([-1]), np.array([1.0]), tree.weighted_n[kids])
            todo += [(k, float(wk[0]), "spread") for k, (_, wk) in enumerate(shares) if wk.size and wk[0] > 0]
        for k, share, how in todo:
            child = int(kids[k])
            cw = w * share
            steps.append(
                Step(
                    node,
                    child,
                    k,
                    j,
                    schema.features[j].name,
                    vtext,
                    condition_text(bs[k]),
                    how,
                    share,
                    number_text(share),
                    cw,
                    number_text(cw),
                )  # fmt: skip
            )
        for k, share, _ in reversed(todo):
            stack.append((int(kids[k]), w * share, path + [int(kids[k])]))
    return steps, leaves


# =============================================================================================
# the mixing arithmetic


def _fraction_text(fr: Fraction) -> str:
    return str(fr.numerator) if fr.denominator == 1 else f"{fr.numerator}/{fr.denominator}"


def _result(x: float, exact: Fraction | None) -> str:
    """'= 7/20 = 0.35', '= 7/20 ≈ 0.35' or '≈ 0.3512' (no exact form)."""
    s, is_exact = decimal_text(x)
    if exact is not None:
        fr = _fraction_text(exact)
        if fr == s:
            return f"= {fr}"
        return f"= {fr} {'=' if Fraction(s) == exact else '≈'} {s}"
    return f"{'=' if is_exact else '≈'} {s}"


def _whole(values: list[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def _proba_term(r: Reached, k: int) -> tuple[str, Fraction | None]:
    """A leaf's probability of class k: "3/4" from whole counts 3 of 4, else its fraction or decimal."""
    p = r.distribution[k]
    fr = nice_fraction(p)
    total = sum(r.counts)
    if total > 0 and _whole(r.counts):
        return f"{fmt_num(r.counts[k], None)}/{fmt_num(total, None)}", Fraction(int(r.counts[k]), int(total))
    return number_text(p), fr


def mixing_lines(leaves: list[Reached], classes: list[str] | None) -> list[str]:
    """Worked arithmetic: the weight of each reached leaf (product of the shares on its path) and
    each class probability (or the value) as the weight-mixed sum of the leaves'."""
    lines = []
    if len(leaves) > 1:
        lines += [f"w(#{r.leaf}) {_result(r.weight, nice_fraction(r.weight))}" for r in leaves]
    if classes is None:
        terms = [fmt_num(r.distribution[0], None) for r in leaves]
        if len(leaves) == 1:
            return lines + [f"value = {terms[0]}"]
        total = sum(r.weight * r.distribution[0] for r in leaves)
        expr = " + ".join(f"{number_text(r.weight)} × {t}" for r, t in zip(leaves, terms))
        return lines + [f"value = {expr} {_result(total, None)}"]
    for k, name in enumerate(classes):
        texts, fracs, total = [], [], 0.0
        for r in leaves:
            pt, pf = _proba_term(r, k)
            wf = nice_fraction(r.weight)
            texts.append(pt if len(leaves) == 1 else f"{number_text(r.weight)} × {pt}")
            fracs.append(None if pf is None or wf is None else wf * pf)
            total += r.weight * r.distribution[k]
        exact = (
            None if any(f is None for f in fracs) else sum((f for f in fracs if f is not None), Fraction(0))
        )
        expr = " + ".join(texts)
        result = _result(total, exact)
        if exact is not None and expr == _fraction_text(exact):
            result = result[len(f"= {expr}") :].lstrip()  # "P = 1", not "P = 1 = 1"
        lines.append(f"P({name}) = {expr} {result}".rstrip())
    return lines


# =============================================================================================
# the whole explanation


def explain_prediction(
    model: BaseTreeEstimator | Tree,
    row: Mapping[str, object] | np.ndarray,
    schema: Schema | None = None,
    precision: int = 4,
    words: dict | None = None,
) -> PredictionExplanation:
    """Explain one sample: ``row`` is a dict of raw values by feature name (absent = missing) or
    an already encoded float64 vector. ``model``: a fitted estimator, or a Tree with ``schema``;
    ``words``: the counterfactual texts' words (``counterfactual.WORDS``) in another language."""
    tree, schema, est = unwrap_model(model, schema)
    x = encode_row(schema, row) if isinstance(row, Mapping) else np.asarray(row, dtype=np.float64).ravel()
    if x.size != len(schema.features):
        raise ValueError(f"the sample has {x.size} values; the model has {len(schema.features)} features")
    steps, leaves = walk(tree, schema, x, precision)
    classes = list(schema.classes) if schema.classes is not None else None
    proba: list[float] | None = None
    value: float | None = None
    if classes is not None:
        p = np.zeros(len(classes))
        for r in leaves:
            p += r.weight * np.asarray(r.distribution)
        proba = [float(v) for v in p]
        prediction = classes[int(np.argmax(p))]
    else:
        value = float(sum(r.weight * r.distribution[0] for r in leaves))
        prediction = fmt_num(value, DIGITS)
    seen: list[int] = []
    for s in steps:
        if s.feature not in seen:
            seen.append(s.feature)
    cfs = [counterfactual(tree, schema, x, j, precision, words) for j in seen]
    return PredictionExplanation(
        algorithm=str(getattr(est, "algorithm", "?")),
        task="classification" if classes is not None else "regression",
        features=list(schema.names),
        values=[value_text(schema, j, float(x[j]), precision) for j in range(x.size)],
        x=x,
        steps=steps,
        leaves=leaves,
        classes=classes,
        proba=proba,
        value=value,
        prediction=prediction,
        mixing=mixing_lines(leaves, classes),
        counterfactuals=cfs,
    )


def explanation_text(ex: PredictionExplanation) -> str:
    """The explanation as plain text (the CLI's default output)."""
    out = ["sample:"]
    out += [f"  {n} = {v}" for n, v in zip(ex.features, ex.values)]
    out.append("path:")
    for s in ex.steps:
        how = {"value": "", "missing": ", learned direction", "spread": f", share {s.share_text}"}
        out.append(f"  #{s.node} → #{s.child}: {s.name} {s.condition}  (sample: {s.value}{how[s.how]})")
    out.append("leaves:")
    for r in ex.leaves:
        if ex.classes is not None:
            dist = ", ".join(f"{c} {fmt_weight(v)}" for c, v in zip(ex.classes, r.counts))
        else:
            dist = f"value {fmt_num(r.distribution[0], None)}"
        out.append(f"  #{r.leaf} weight {r.weight_text}: {dist}")
    out.append("mixing:" if len(ex.leaves) > 1 else "probabilities:" if ex.classes else "value:")
    out += [f"  {line}" for line in ex.mixing]
    out.append(f"prediction: {ex.prediction}")
    if ex.counterfactuals:
        out.append("what keeps it / what flips it (one feature at a time):")
        for c in ex.counterfactuals:
            out.append(f"  {c.name} = {c.current}: keeps for {c.keep}; flips: {c.flip or 'never'}")
    return "\n".join(out) + "\n"
