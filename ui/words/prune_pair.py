"""Words of the Pruning page's before/after pair: the removed-subtrees table, the common scale."""

WORDS: dict[str, tuple[str, str]] = {
    "prune.removed.title": ("Removed subtrees", "被剪去的子树"),
    "prune.removed.col.node": ("Node", "节点"),
    "prune.removed.col.test": ("Test", "测试属性"),
    "prune.removed.col.path": ("Path from the root", "从根节点出发的路径"),
    "prune.removed.col.samples": ("Samples", "样本数"),
    "prune.removed.col.nodes": ("Nodes removed", "删除的节点数"),
    "prune.removed.col.leaves": ("Leaves", "叶子数"),
    "prune.removed.col.replaced": ("Replaced by", "替换为"),
    "prune.removed.col.before": ("Before", "剪枝前"),
    "prune.removed.col.after": ("After", "剪枝后"),
    "prune.removed.leaf": ("a leaf", "叶子"),
    "prune.removed.branch": ("its branch #{node} (raised)", "其分支 #{node}（子树上提）"),
    "prune.removed.basis.validation": (
        "Before / After: validation errors (misclassified validation rows) of the grown subtree and "
        "of the node as a leaf, as REP compares them.",
        "剪枝前 / 剪枝后：原始子树与把该节点作为叶子时在验证集上的错误数（分错的验证样本），即 REP 比较的数。",
    ),
    "prune.removed.basis.validation_mse": (
        "Before / After: the squared error on the validation rows of the grown subtree and of the "
        "node as a leaf, as REP compares them.",
        "剪枝前 / 剪枝后：原始子树与把该节点作为叶子时在验证集上的平方误差之和，即 REP 比较的数。",
    ),
    "prune.removed.basis.pessimistic": (
        "Before / After: pessimistic errors, Σ e(leaves) + L/2 of the grown subtree and e(t) + 1/2 "
        "of the node as a leaf, as PEP compares them.",
        "剪枝前 / 剪枝后：悲观错误数，原始子树为 Σ e(叶子) + L/2，该节点作为叶子为 e(t) + 1/2，即 PEP 比较的数。",
    ),
    "prune.removed.basis.estimated": (
        "Before / After: C4.5's estimated errors (upper confidence limit at CF) of the subtree and "
        "of what replaced it, as EBP compares them.",
        "剪枝前 / 剪枝后：C4.5 的估计错误数（置信因子 CF 下的置信上限），分别对应子树与替换它的节点，即 EBP 比较的数。",
    ),
    "prune.removed.basis.cost": (
        "Before / After: the cost R (weighted impurity, share of all training samples) of the grown "
        "subtree's leaves and of the node as a leaf, as cost-complexity pruning compares them.",
        "剪枝前 / 剪枝后：原始子树各叶子与把该节点作为叶子时的代价 R（按训练样本占比加权的不纯度），即代价复杂度剪枝比较的数。",
    ),
    "prune.refuse": (
        "{nodes} boxes at these levels, more than can be drawn at once ({limit}): choose fewer levels.",
        "这些层共有 {nodes} 个框，超过一次能绘制的上限（{limit}）：请减少显示层数。",
    ),
    "prune.scale_note": (
        "Both trees at one scale (text 12 px): drag or scroll inside a frame to see more.",
        "两棵树使用同一比例（文字 12 像素）：在框内拖动或滚动可查看其余部分。",
    ),
}
