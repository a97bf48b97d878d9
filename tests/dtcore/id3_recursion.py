"""ID3 grown one node at a time, recursively, as ``ID3Classifier`` grew it before its level-wise
grower (``dtcore.id3.growth``): the reference the level-wise tree must equal bit for bit. Each
node scores each feature alone (``score_multiway`` / ``score_textbook_cuts``), routes its rows by
``routing.distribute_rows`` and is added through ``TreeAssembler``; nothing is shared with the
grower but the rules and the kernels."""

from __future__ import annotations

import numpy as np

from dtcore.criteria import entropy
from dtcore.entropy.cutpoints import score_textbook_cuts
from dtcore.entropy.multiway import branch_class_counts, score_multiway
from dtcore.id3.estimator import ID3Classifier
from dtcore.id3.rules import branch_rows, branches_ok, decrease_ok, feature_plan, leaf_reason, weighted_gain
from dtcore.routing import DISTRIBUTE, branch_index, distribute_rows
from dtcore.tree import Tree, TreeAssembler

POSITIVE = 1e-12


def grow_recursively(est: ID3Classifier, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> Tree:
    """The tree ``est``'s settings grow (no ``max_leaf_nodes``) on encoded ``X``, class codes
    ``y`` and weights ``w``; ``est`` must be fitted (its schema gives the feature kinds)."""
    schema = est.schema_
    C = len(schema.classes)
    plan, _ = feature_plan(schema, X, est.continuous, est.n_bins, est.random_state)
    N_total = float(w[w > 0].sum())
    asm = TreeAssembler(C, C)
    rows = np.flatnonzero(w > 0)
    counts = np.bincount(y[rows], weights=w[rows], minlength=C)
    root = asm.add_node(-1, counts, counts.sum(), rows.size, float(entropy(counts)))
    stack = [(root, rows, w[rows], frozenset())]

    def branches(j, x):
        kind, arg = plan[j]
        if kind == "cat":
            return branch_index(x, cat_branch=np.arange(arg)), arg
        if kind == "bins":
            return branch_index(x, cuts=arg), arg.size + 1
        return None, 2

    while stack:
        node, rows, wl, used = stack.pop()
        rec = asm.node(node)
        counts = rec["value"]
        N = float(counts.sum())
        if leaf_reason(counts, int(rec["n_samples"]), rec["depth"], est.min_samples_split, est.max_depth):
            continue
        y_loc = y[rows]
        best = None  # (score, gain, feature, cut)
        for j in range(X.shape[1]):
            if j in used:
                continue
            x = X[rows, j]
            b, V = branches(j, x)
            if b is None:
                order = np.argsort(x, kind="stable")
                sc = score_textbook_cuts(
                    x[order][None],
                    y_loc[order][None],
                    wl[order][None],
                    N,
                    C,
                    min_leaf=float(est.min_samples_leaf),
                )
                if not sc.valid[0]:
                    continue
                gain, iv, cut = float(sc.gain[0]), float(sc.split_info[0]), float(sc.midpoint[0])
            else:
                if not branches_ok(branch_rows(b, wl, V), est.min_samples_leaf):
                    continue
                s = score_multiway(*branch_class_counts(b, y_loc, wl, V, C))
                gain, iv, cut = s.gain, s.iv, None
            score = gain if est.criterion == "gain" else (gain / iv if iv > 0 else 0.0)
            if gain > POSITIVE and (best is None or score > best[0] + POSITIVE):
                best = (score, gain, j, cut)
        if best is None or not decrease_ok(weighted_gain(N, N_total, best[1]), est.min_impurity_decrease):
            continue
        _, _, j, cut = best
        x = X[rows, j]
        if cut is not None:
            b, V = branch_index(x, cuts=[cut]), 2
            asm.set_split(node, j, cuts=[cut], missing_branch=DISTRIBUTE)
            child_used = used
        else:
            b, V = branches(j, x)
            if plan[j][0] == "cat":
                asm.set_split(node, j, cat_branch=np.arange(V), missing_branch=DISTRIBUTE)
            else:
                asm.set_split(node, j, cuts=plan[j][1], missing_branch=DISTRIBUTE)
            child_used = used | {j}
        kids = []
        for pos, cw in distribute_rows(b, wl, V)[0]:
            if pos.size == 0:
                asm.add_node(node, counts, 0.0, 0, 0.0)
                continue
            cc = np.bincount(y_loc[pos], weights=cw, minlength=C)
            child = asm.add_node(node, cc, cc.sum(), int(np.sum(cw > 0)), float(entropy(cc)))
            kids.append((child, rows[pos], cw, child_used))
        stack.extend(reversed(kids))
    return asm.build()
