"""A binary tree grown a block of nodes at a time (CART's level-wise and best-first builders,
exact and histogram) as the flat pre-order ``Tree``: subtree sizes bottom-up, pre-order ids top-down,
one vectorised pass per depth, instead of a ``tree.TreeAssembler`` record per node (a 2 000-node
histogram tree: 60 ms of Python).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcore.tree import Tree


@dataclass(frozen=True)
class Splits:
    """Tests made of a block of nodes: each node's feature, threshold (NaN: a categorical test,
    whose codes are in ``LevelNodes.subsets``), learned missing side and children; ``below`` and
    ``above`` the training values beside each cut, or None when the builder does not know them."""

    node: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    missing_left: np.ndarray
    left: np.ndarray
    right: np.ndarray
    below: np.ndarray | None = None
    above: np.ndarray | None = None


class LevelNodes:
    """Node records appended in creation order, a block at a time (a level, or a split's two
    children), and the tests made of them: what a level-wise builder hands to :func:`assemble`."""

    def __init__(self) -> None:
        self.blocks: list[dict[str, np.ndarray]] = []
        self.splits: list[Splits] = []  # in the order the builder made them
        # node id → (categories of the feature, codes seen at the node ascending, their branches):
        # the Tree's sparse table, never a dense one per test (nodes × labels on 10⁵ labels)
        self.subsets: dict[int, tuple[int, np.ndarray, np.ndarray]] = {}
        self.count = 0

    def add(
        self,
        parent: int | np.ndarray,
        depth: int,
        stats: dict[str, np.ndarray],
        sel: np.ndarray | None = None,
    ) -> np.ndarray:
        """Append nodes with the given statistics (``sel``: integer index into them); their ids."""
        k = stats["weighted_n"].size if sel is None else int(sel.size)
        pick = (lambda a: a) if sel is None else (lambda a: a[sel])
        ids = np.arange(self.count, self.count + k)
        self.count += k
        self.blocks.append(
            dict(
                parent=np.array(parent, np.int64) if np.ndim(parent) else np.full(k, parent, np.int64),
                depth=np.full(k, depth, np.int64),
                **{key: pick(v) for key, v in stats.items()},
            )
        )
        return ids

    def add_subset(self, node: int, n_categories: int, codes: np.ndarray, branch: np.ndarray) -> None:
        """Make ``node``'s test categorical: the codes seen at it (ascending) and their branches."""
        self.subsets[node] = (int(n_categories), codes.astype(np.int32), branch.astype(np.int32))


def assemble(nodes: LevelNodes, n_classes: int) -> tuple[Tree, np.ndarray]:
    """The flat pre-order Tree of a binary tree made block by block (left child before right),
    and its tests' pre-order ids in the order they were recorded (the split order). When the
    splits did not carry the training values beside each cut (exact CART's scan gives them),
    the tree's ``cut_below``/``cut_above`` stay None for the fit to find."""
    N = nodes.count
    cat = lambda key: np.concatenate([b[key] for b in nodes.blocks])  # noqa: E731
    sp = nodes.splits
    neighbours = all(b.below is not None and b.above is not None for b in sp)
    parent, depth = cat("parent").astype(np.int64), cat("depth").astype(np.int64)
    feature = np.full(N, -1, np.int64)
    thr = np.full(N, np.nan)
    mbranch = np.full(N, -1, np.int64)
    lc = np.full(N, -1, np.int64)
    rc = np.full(N, -1, np.int64)
    below, above = np.full(N, -np.inf), np.full(N, np.inf)
    for b in sp:
        feature[b.node], thr[b.node], lc[b.node], rc[b.node] = b.feature, b.threshold, b.left, b.right
        mbranch[b.node] = np.where(b.missing_left, 0, 1)
        if neighbours:
            below[b.node], above[b.node] = b.below, b.above
    # subtree sizes bottom-up, then pre-order ids top-down, one vectorised pass per depth
    size = np.ones(N, np.int64)
    by_depth = [np.flatnonzero(depth == d) for d in range(int(depth.max()) + 1)]
    for d in range(len(by_depth) - 1, 0, -1):
        idx = by_depth[d]
        np.add.at(size, parent[idx], size[idx])
    pre = np.zeros(N, np.int64)
    for d in range(1, len(by_depth)):
        idx = by_depth[d]
        par = parent[idx]
        is_left = lc[par] == idx
        pre[idx] = pre[par] + 1 + np.where(is_left, 0, size[lc[par]])
    inv = np.empty(N, np.int64)
    inv[pre] = np.arange(N)
    split_order = np.empty(0, np.int64)
    if sp:  # level order (level-wise) or pop order (best-first)
        split_order = pre[np.concatenate([b.node for b in sp]).astype(np.int64)]
    internal = feature[inv] >= 0
    is_cat_split = np.zeros(N, bool)
    is_cat_split[pre[list(nodes.subsets)]] = True
    ncut = (internal & ~is_cat_split).astype(np.int64)
    child_ptr = np.zeros(N + 1, np.int64)
    child_ptr[1:] = np.cumsum(2 * internal)
    children = np.empty(2 * int(internal.sum()), np.int32)
    children[0::2] = pre[lc[inv[internal]]]
    children[1::2] = pre[rc[inv[internal]]]
    cut_ptr = np.zeros(N + 1, np.int64)
    cut_ptr[1:] = np.cumsum(ncut)
    cuts = thr[inv][ncut.astype(bool)]
    cut_below, cut_above = below[inv][ncut.astype(bool)], above[inv][ncut.astype(bool)]
    cat_len = np.zeros(N, np.int64)
    cat_size = np.zeros(N, np.int64)
    code_parts, cat_parts = [np.zeros(0, np.int32)], [np.zeros(0, np.int32)]
    for new in np.flatnonzero(is_cat_split):
        n_cats, codes, branch = nodes.subsets[int(inv[new])]
        cat_size[new] = n_cats
        cat_len[new] = codes.size
        code_parts.append(codes)
        cat_parts.append(branch)
    cat_ptr = np.zeros(N + 1, np.int64)
    cat_ptr[1:] = np.cumsum(cat_len)
    par_new = np.where(parent[inv] >= 0, pre[np.maximum(parent[inv], 0)], -1)
    value = cat("value")
    if value.ndim == 1:
        value = value[:, None]
    return Tree(
        feature=feature[inv].astype(np.int32),
        parent=par_new.astype(np.int32),
        depth=depth[inv].astype(np.int32),
        missing_branch=mbranch[inv].astype(np.int32),
        value=np.ascontiguousarray(value[inv], dtype=np.float64),
        weighted_n=cat("weighted_n")[inv],
        n_samples=cat("n_samples")[inv].astype(np.int64),
        impurity=cat("impurity")[inv].astype(np.float64),
        child_ptr=child_ptr,
        children=children,
        cut_ptr=cut_ptr,
        cuts=cuts.astype(np.float64),
        cat_size=cat_size,
        cat_ptr=cat_ptr,
        cat_code=np.concatenate(code_parts),
        cat_branch=np.concatenate(cat_parts),
        n_classes=n_classes,
        cut_below=cut_below if neighbours else None,
        cut_above=cut_above if neighbours else None,
    ), split_order
