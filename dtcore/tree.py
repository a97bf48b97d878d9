"""The fitted tree as flat numpy arrays, and prediction that walks them without per-node objects.

One representation serves every algorithm:

* a **continuous test** at node i has sorted cut points ``cuts[cut_ptr[i]:cut_ptr[i+1]]`` and
  sends x to branch ``searchsorted(cuts, x, side="left")``: one cut t is the binary test
  ``x ≤ t`` (branch 0, "yes") versus ``x > t`` (branch 1); several cuts are intervals (ID3
  discretisation), branch k holding ``cuts[k-1] < x ≤ cuts[k]``;
* a **categorical test** maps each category code c < ``cat_size[i]`` of the feature to a branch:
  a multiway split (ID3/C4.5) gives every category its own branch, a CART subset split maps
  categories to 0 (left) or 1 (right). The table is stored sparse: the codes that have a branch,
  ascending, in ``cat_code[cat_ptr[i]:cat_ptr[i+1]]`` and their branches in ``cat_branch`` at
  the same places; a code not listed has no branch here and is treated like a missing value
  (-1 in the dense table of ``cat_branch_of``). Dense, a CART test deep in a tree over 10⁵
  labels held 10⁵ entries for the handful of labels its rows carry: nodes × labels;
* **missing values** (NaN) go to ``missing_branch[i]`` when it is ≥ 0 (CART's learned direction),
  or, when it is -1, down every branch weighted by the branch's share of the node's training
  weight (C4.5, SPEC §6/§9), the leaves' distributions then being mixed.

Node ids are in depth-first pre-order (as scikit-learn numbers them), whatever order a builder
created them in (``TreeAssembler.build``, ``cart.assembly.assemble``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dtcore.progress import checkpoint
from dtcore.routing import DISTRIBUTE, Reached, SplitTest, branch_index, descend_binary, route_rows

LEAF = -1


@dataclass(eq=False)
class Tree:
    """Flat arrays, one entry per node (first block) or CSR-packed per node (second block)."""

    feature: np.ndarray  # int32, -1 at leaves
    parent: np.ndarray  # int32, -1 at the root
    depth: np.ndarray  # int32
    missing_branch: np.ndarray  # int32, branch for NaN, or DISTRIBUTE (-1)
    value: np.ndarray  # float64 (n_nodes, n_outputs): weighted class counts, or [mean]/[median]
    weighted_n: np.ndarray  # float64, training weight reaching the node (fractional in C4.5)
    n_samples: np.ndarray  # int64, training rows reaching the node with positive weight
    impurity: np.ndarray  # float64, the criterion's impurity of the node
    child_ptr: np.ndarray  # int64 (n_nodes+1)
    children: np.ndarray  # int32, children of node i: children[child_ptr[i]:child_ptr[i+1]]
    cut_ptr: np.ndarray  # int64 (n_nodes+1)
    cuts: np.ndarray  # float64, sorted cut points of continuous tests
    cat_size: np.ndarray  # int64, categories in node i's table (0: no categorical test)
    cat_ptr: np.ndarray  # int64 (n_nodes+1)
    cat_code: np.ndarray  # int32, category codes with a branch, ascending within a node
    cat_branch: np.ndarray  # int32, the branch (≥ 0) of each code in cat_code
    n_classes: int = 0  # 0 for regression
    #: bool per node: a training row reached the test with its value missing (``missing_seen``);
    #: None = not known (a model saved before this was recorded): pictures assume it did
    saw_missing: np.ndarray | None = None
    #: float per cut (parallel to ``cuts``): the node's largest training value ≤ the cut and its
    #: smallest one > it (``cut_neighbours``; ∓inf: none); None = not known (an older model)
    cut_below: np.ndarray | None = None
    cut_above: np.ndarray | None = None

    # -- shape ---------------------------------------------------------------------------------
    @property
    def node_count(self) -> int:
        return int(self.feature.shape[0])

    @property
    def is_leaf(self) -> np.ndarray:
        return self.feature < 0

    @property
    def n_branches(self) -> np.ndarray:
        return np.diff(self.child_ptr)

    def get_depth(self) -> int:
        return int(self.depth[self.is_leaf].max()) if self.node_count else 0

    def get_n_leaves(self) -> int:
        return int(self.is_leaf.sum())

    def children_of(self, node: int) -> np.ndarray:
        return self.children[self.child_ptr[node] : self.child_ptr[node + 1]]

    def cuts_of(self, node: int) -> np.ndarray:
        return self.cuts[self.cut_ptr[node] : self.cut_ptr[node + 1]]

    def cat_branch_of(self, node: int) -> np.ndarray:
        """The node's dense table: the branch of every category code, -1 where it has none."""
        a, b = self.cat_ptr[node], self.cat_ptr[node + 1]
        table = np.full(int(self.cat_size[node]), -1, dtype=np.int32)
        table[self.cat_code[a:b]] = self.cat_branch[a:b]
        return table

    def is_categorical_test(self, node: int) -> bool:
        return bool(self.cat_size[node] > 0)

    def cat_lookup(self) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        """``lookup(nodes, codes)``: code k's branch at test ``nodes[k]`` (-1: none, or a code out
        of its table), searched among the listed entries' dense positions, built once per call."""
        offsets, key = self.cat_positions()

        def lookup(nodes: np.ndarray, code: np.ndarray) -> np.ndarray:
            out = np.full(code.shape, -1, dtype=np.int64)
            ok = np.flatnonzero((code >= 0) & (code < self.cat_size[nodes]))
            if key.size and ok.size:
                want = offsets[nodes[ok]] + code[ok]
                pos = np.minimum(np.searchsorted(key, want), key.size - 1)
                hit = key[pos] == want
                out[ok[hit]] = self.cat_branch[pos[hit]]
            return out

        return lookup

    def cat_positions(self) -> tuple[np.ndarray, np.ndarray]:
        """(offsets, positions): each test's start in the packed dense tables, each listed entry's place."""
        offsets = np.r_[0, np.cumsum(self.cat_size, dtype=np.int64)]
        owner = np.repeat(np.arange(self.node_count), np.diff(self.cat_ptr))
        return offsets, offsets[owner] + self.cat_code

    def dense_cat_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """(offsets, branches): ``branches[offsets[i] + c]`` is code c's branch at node i (-1: none)."""
        offsets, pos = self.cat_positions()
        dense = np.full(int(offsets[-1]), -1, dtype=np.int32)
        dense[pos] = self.cat_branch
        return offsets, dense

    def split_test(self, node: int) -> SplitTest | None:
        """The test stored at ``node`` (None at a leaf)."""
        j = int(self.feature[node])
        if j < 0:
            return None
        if self.is_categorical_test(node):
            return SplitTest(
                j,
                cat_branch=tuple(self.cat_branch_of(node).tolist()),
                missing_branch=int(self.missing_branch[node]),
            )
        return SplitTest(
            j, cuts=tuple(self.cuts_of(node).tolist()), missing_branch=int(self.missing_branch[node])
        )

    def subtree(self, node: int) -> np.ndarray:
        """Ids of node and all its descendants (contiguous, thanks to pre-order numbering)."""
        after = np.flatnonzero(self.depth[node + 1 :] <= self.depth[node])  # vectorised scan
        end = node + 1 + int(after[0]) if after.size else self.node_count
        return np.arange(node, end)

    # -- prediction ----------------------------------------------------------------------------
    def route(
        self,
        X: ArrayLike,
        on_continuous: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], object] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where each row ends: arrays (row, leaf, weight); a row split by missing values appears
        once per leaf it reaches, its weights summing to 1.

        ``on_continuous(nodes, x, branch, weight)`` is called at every step with the rows at
        continuous tests with a known value (branch = cuts below x), for ``cut_neighbours``.

        The same branch rule as :func:`branch_index`, vectorised over rows standing at
        *different* nodes: each step moves every row one level down at once, whatever test
        its node holds (one pass per depth, not per node), which prediction on many rows
        needs.  Missing values use the stored children's training weights as shares (the
        prediction-time counterpart of ``routing.distribute``'s K_v/K): ``routing.route_rows``."""
        return route_rows(self, X, on_continuous)

    def branch_of(self, node: int, x: np.ndarray) -> np.ndarray:
        """Branch index of values x at a test node; -1 for missing / unroutable values
        (:func:`branch_index` with the node's test)."""
        if self.is_categorical_test(node):
            return branch_index(x, cat_branch=self.cat_branch_of(node))
        return branch_index(x, cuts=self.cuts_of(node))

    def path_to(self, node: int) -> list[int]:
        path = [int(node)]
        while self.parent[path[-1]] >= 0:
            path.append(int(self.parent[path[-1]]))
        return path[::-1]

    def reach(self, X: ArrayLike, node: int, known: Reached | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rows of X that reach ``node`` and their weights (fractional where a missing value was
        spread over branches): on the training data, the node's training rows and weights.
        ``known``: an ancestor's (node, rows, weights), where the walk starts instead of the root."""
        X = np.asarray(X, dtype=np.float64)
        top, rows, w = known if known is not None else (0, np.arange(X.shape[0]), np.ones(X.shape[0]))
        path = self.path_to(node)[int(self.depth[top]) :]
        for parent, child in zip(path[:-1], path[1:]):
            kids = self.children_of(parent)
            b = int(np.nonzero(kids == child)[0][0])
            branch = self.branch_of(parent, X[rows, self.feature[parent]])
            lost = branch < 0
            mb = int(self.missing_branch[parent])
            if mb >= 0:
                branch[lost] = mb
                keep = branch == b
            else:
                tot = self.weighted_n[kids].sum()
                share = self.weighted_n[child] / tot if tot > 0 else 1.0 / kids.size
                w = np.where(lost, w * share, w)
                keep = (branch == b) | lost
            rows, w = rows[keep], w[keep]
        return rows, w

    def leaf_distribution(self, nodes: ArrayLike | None = None) -> np.ndarray:
        """Class probabilities of each node, or of ``nodes``, row by row (an empty node: uniform)."""
        value = self.value if nodes is None else self.value[np.asarray(nodes, dtype=np.int64)]
        tot = value.sum(axis=-1, keepdims=True)
        return np.divide(value, tot, out=np.full(value.shape, 1.0 / max(value.shape[-1], 1)), where=tot > 0)

    def node_classes(self, nodes: ArrayLike | None = None) -> np.ndarray:
        """The class each node (of ``nodes``) predicts: its first most probable, the rule's one home."""
        return np.argmax(self.leaf_distribution(nodes), axis=-1)

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        dist = self.leaf_distribution()
        leaf, rest = self.single_path_leaves(X)
        out = dist[leaf]  # rows in ``rest`` read a placeholder leaf here and are overwritten
        out += 0.0  # as the sum the router makes (0.0 + p): -0.0 reads 0.0 either way
        if rest.size:
            r, lf, w = self.route(X if rest.size == X.shape[0] else X[rest])
            mixed = np.zeros((rest.size, self.value.shape[1]))
            np.add.at(mixed, r, dist[lf] * w[:, None])
            out[rest] = mixed
        return out

    def predict_column(self, X: ArrayLike) -> np.ndarray:
        """Classification: the column (schema order) of each row's most probable class, the first
        on ties: ``argmax(predict_proba(X))``, a leaf's ``node_classes`` where a row reaches one."""
        X = np.asarray(X, dtype=np.float64)
        leaf, rest = self.single_path_leaves(X)
        out = self.node_classes()[leaf]
        if rest.size:
            out[rest] = np.argmax(self.predict_proba(X[rest]), axis=1)
        return out

    def predict_value(self, X: ArrayLike) -> np.ndarray:
        """Regression: the weighted mix of leaf values (a plain leaf value without missing data)."""
        X = np.asarray(X, dtype=np.float64)
        leaf, rest = self.single_path_leaves(X)
        out = self.value[leaf, 0] + 0.0  # as the router's sum (0.0 + v): -0.0 reads 0.0
        if rest.size:
            r, lf, w = self.route(X if rest.size == X.shape[0] else X[rest])
            out[rest] = np.bincount(r, weights=self.value[lf, 0] * w, minlength=rest.size)
        return out

    def apply(self, X: ArrayLike) -> np.ndarray:
        """The leaf of each row; a row split by missing values gets its heaviest leaf."""
        X = np.asarray(X, dtype=np.float64)
        leaf, rest = self.single_path_leaves(X)
        out = leaf.astype(np.int64)
        if rest.size:
            r, lf, w = self.route(X if rest.size == X.shape[0] else X[rest])
            order = np.lexsort((-w, r))  # per row, heaviest first; ties keep the leftmost leaf
            r, lf = r[order], lf[order]
            first = np.r_[True, r[1:] != r[:-1]]
            out[rest[r[first]]] = lf[first]
        return out

    def has_only_binary_tests(self) -> bool:
        """Every test is continuous with one cut and two children (CART and C4.5 on numbers)."""
        internal = self.feature >= 0
        return bool(
            (np.diff(self.cut_ptr)[internal] == 1).all()
            and (np.diff(self.child_ptr)[internal] == 2).all()
            and not (self.cat_size[internal] > 0).any()
        )

    def single_path_leaves(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(leaf, rest): the leaf of every row whose path has only binary continuous tests and
        no missing value, found by a tight descent (:func:`descend_binary`); ``rest``, the rows
        :meth:`route` must take (a categorical or multiway test on the tree, a missing value
        on a feature the tree tests), whose ``leaf`` entries are placeholders (0).

        The descent takes the branch :func:`branch_index` gives (``x > t`` is branch 1), so
        every row ends where :meth:`route` sends it; it is the common case (CART and C4.5 on
        numeric data) made as fast as scikit-learn's compiled walk."""
        n = X.shape[0]
        if not self.has_only_binary_tests() or X.ndim != 2:
            return np.zeros(n, dtype=np.intp), np.arange(n)
        leaf, missing = descend_binary(self, np.ascontiguousarray(X))
        return leaf, np.flatnonzero(missing)

    def decision_path(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """CSR indicator (indptr, indices) of the nodes each row visits, like scikit-learn's."""
        leaves = self.apply(X)
        length = self.depth[leaves].astype(np.int64) + 1
        indptr = np.zeros(leaves.size + 1, dtype=np.int64)
        indptr[1:] = np.cumsum(length)
        indices = np.empty(int(indptr[-1]), dtype=np.int64)
        node, pos = leaves.astype(np.int64), indptr[1:] - 1
        live = np.ones(leaves.size, dtype=bool)
        while live.any():  # one step up per tree level, all rows at once; paths come root first
            indices[pos[live]] = node[live]
            node = np.where(live, self.parent[node], -1)
            pos = pos - 1
            live = node >= 0
        return indptr, indices

    def feature_importances(self, n_features: int) -> np.ndarray:
        """Weighted impurity decrease summed per feature and normalised (scikit-learn's rule)."""
        own = self.weighted_n * self.impurity
        dec = np.where(self.feature >= 0, own, 0.0)
        child = np.flatnonzero(self.parent >= 0)
        np.subtract.at(dec, self.parent[child], own[child])
        internal = self.feature >= 0
        imp = np.bincount(self.feature[internal], weights=dec[internal], minlength=n_features)
        total = imp.sum()
        return imp / total if total > 0 else imp

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self, skip: Iterable[str] = ()) -> dict:
        """Plain lists (exact: floats round-trip through JSON's repr) in a model file's layout,
        category tables dense (``dense_cat_tables``); read back, checked, by
        ``dtcore.export.model_json.tree_from_dict``. ``skip``: arrays left out (the caller
        writes them in another form)."""
        skip = set(skip)
        packed: dict[str, np.ndarray] = {}
        if "cat_branch" in skip:
            packed["cat_ptr"] = np.zeros(self.node_count + 1, dtype=np.int64)
            packed["cat_ptr"][1:] = np.cumsum(self.cat_size)
        else:
            packed["cat_ptr"], packed["cat_branch"] = self.dense_cat_tables()
        d = {
            name: packed.get(name, getattr(self, name)).tolist()
            for name in MODEL_TREE_ARRAYS
            if name not in skip
        }
        d["n_classes"] = self.n_classes
        if self.saw_missing is not None:
            d["saw_missing"] = self.saw_missing.tolist()
        if self.cut_below is not None and self.cut_above is not None:
            d["cut_below"], d["cut_above"] = self.cut_below.tolist(), self.cut_above.tolist()
        return d

    def copy(self) -> Tree:
        """An independent copy (array copies: no round trip through lists, no re-checking)."""
        optional = {k: getattr(self, k) for k in ("saw_missing", "cut_below", "cut_above")}
        optional = {k: None if a is None else a.copy() for k, a in optional.items()}
        arrays = {name: getattr(self, name).copy() for name in TREE_ARRAYS}
        return Tree(n_classes=self.n_classes, **optional, **arrays)


#: the per-node and packed arrays of a Tree and their dtypes
TREE_ARRAYS = {
    "feature": np.int32,
    "parent": np.int32,
    "depth": np.int32,
    "missing_branch": np.int32,
    "value": np.float64,
    "weighted_n": np.float64,
    "n_samples": np.int64,
    "impurity": np.float64,
    "child_ptr": np.int64,
    "children": np.int32,
    "cut_ptr": np.int64,
    "cuts": np.float64,
    "cat_size": np.int64,
    "cat_ptr": np.int64,
    "cat_code": np.int32,
    "cat_branch": np.int32,
}

#: the arrays of a model file's tree (``to_dict``'s keys, in order): category tables dense,
#: ``cat_ptr`` then offsets into ``cat_branch``'s whole tables
MODEL_TREE_ARRAYS = {
    name: dtype for name, dtype in TREE_ARRAYS.items() if name not in ("cat_size", "cat_code")
}


#: the category table of a node that has none (read-only: shared by every such node)
NO_TABLE = np.zeros(0, dtype=np.int32)
NO_TABLE.flags.writeable = False
NO_CATEGORIES = {"cat_size": 0, "cat_code": NO_TABLE, "cat_branch": NO_TABLE}


class TreeAssembler:
    """Collects nodes in any order (level-wise, best-first, recursive) and builds a pre-order Tree."""

    def __init__(self, n_outputs: int, n_classes: int = 0) -> None:
        self.n_outputs = n_outputs
        self.n_classes = n_classes
        self._nodes: list[dict] = []
        self._split_log: list[int] = []  # nodes in the order set_split made them tests
        self.new_ids: dict[int, int] = {}  # creation id → pre-order id, set by ``build``

    def __len__(self) -> int:
        return len(self._nodes)

    def add_node(
        self, parent: int, value: ArrayLike, weighted_n: float, n_samples: int, impurity: float
    ) -> int:
        depth = 0 if parent < 0 else self._nodes[parent]["depth"] + 1
        self._nodes.append(
            dict(
                parent=parent,
                depth=depth,
                value=np.asarray(value, dtype=np.float64).ravel(),
                weighted_n=float(weighted_n),
                n_samples=int(n_samples),
                impurity=float(impurity),
                feature=LEAF,
                children=[],
                cuts=(),
                missing_branch=DISTRIBUTE,
                **NO_CATEGORIES,
            )
        )
        if parent >= 0:
            self._nodes[parent]["children"].append(len(self._nodes) - 1)
        return len(self._nodes) - 1

    def set_split(
        self,
        node: int,
        feature: int,
        *,
        cuts: ArrayLike | None = None,
        cat_branch: np.ndarray | Sequence[int] | None = None,
        missing_branch: int = DISTRIBUTE,
    ) -> None:
        """Make ``node`` a test; add its children afterwards with ``add_node(node, ...)`` in branch order."""
        if (cuts is None) == (cat_branch is None):
            raise ValueError("a test has either cuts (continuous) or cat_branch (categorical)")
        rec = self._nodes[node]
        rec["feature"] = int(feature)
        rec["cuts"] = () if cuts is None else tuple(float(c) for c in np.atleast_1d(cuts))
        # kept sparse (the Tree's layout): a dense table per test over 10⁵ labels would hold
        # nodes × labels entries until ``build``
        table = np.asarray(() if cat_branch is None else cat_branch, dtype=np.int64)
        codes = np.flatnonzero(table >= 0)
        rec["cat_size"], rec["cat_code"] = table.size, codes.astype(np.int32)
        rec["cat_branch"] = table[codes].astype(np.int32)
        rec["missing_branch"] = int(missing_branch)
        self._split_log.append(node)

    def split_order(self) -> np.ndarray:
        """The tests of the last ``build``'s tree (pre-order ids) in the order they were set:
        the builder's split order (``dtcore.analysis.growth_steps``)."""
        ids = self.new_ids
        return np.array(
            [ids[i] for i in self._split_log if i in ids and self._nodes[i]["feature"] >= 0], dtype=np.int64
        )

    def make_leaf(self, node: int) -> None:
        """Undo a split (C4.5 collapse); the detached children are dropped by ``build``."""
        rec = self._nodes[node]
        rec.update(feature=LEAF, children=[], cuts=(), missing_branch=DISTRIBUTE, **NO_CATEGORIES)

    def node(self, i: int) -> dict:
        return self._nodes[i]

    def build(self) -> Tree:
        order = []
        stack = [0] if self._nodes else []
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(reversed(self._nodes[i]["children"]))
        new_id = {old: new for new, old in enumerate(order)}
        self.new_ids = new_id
        recs = [self._nodes[i] for i in order]
        n = len(recs)
        checkpoint()

        def ptr(lengths: Sequence[int]) -> np.ndarray:
            p = np.zeros(n + 1, dtype=np.int64)
            p[1:] = np.cumsum(lengths)
            return p

        def column(values: Callable[[], list], dtype: type) -> np.ndarray:
            checkpoint()  # a field of every node at a time: stop points in a big tree's build
            return np.array(values(), dtype=dtype)

        tree = Tree(
            feature=column(lambda: [r["feature"] for r in recs], np.int32),
            parent=column(lambda: [new_id.get(r["parent"], -1) for r in recs], np.int32),
            depth=column(lambda: [r["depth"] for r in recs], np.int32),
            missing_branch=column(lambda: [r["missing_branch"] for r in recs], np.int32),
            value=column(lambda: [r["value"] for r in recs], np.float64).reshape(n, self.n_outputs),
            weighted_n=column(lambda: [r["weighted_n"] for r in recs], np.float64),
            n_samples=column(lambda: [r["n_samples"] for r in recs], np.int64),
            impurity=column(lambda: [r["impurity"] for r in recs], np.float64),
            child_ptr=ptr([len(r["children"]) for r in recs]),
            children=column(lambda: [new_id[c] for r in recs for c in r["children"]], np.int32),
            cut_ptr=ptr([len(r["cuts"]) for r in recs]),
            cuts=column(lambda: [c for r in recs for c in r["cuts"]], np.float64),
            cat_size=column(lambda: [r["cat_size"] for r in recs], np.int64),
            cat_ptr=ptr([len(r["cat_code"]) for r in recs]),
            cat_code=np.concatenate([NO_TABLE, *(r["cat_code"] for r in recs)]),
            cat_branch=np.concatenate([NO_TABLE, *(r["cat_branch"] for r in recs)]),
            n_classes=self.n_classes,
        )
        return tree
