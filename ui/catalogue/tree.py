"""The tree picture's controls and captions: levels shown, layout, the clickable frame."""

WORDS: dict[str, tuple[str, str]] = {
    "tree.title": ("Tree", "决策树"),
    "tree.depth_window": ("Show levels", "显示层数"),
    "tree.depth_all": ("all", "全部"),
    "tree.depth_auto": ("auto (≤ {depth})", "自动（≤ {depth}）"),
    "tree.depth_auto_all": ("auto (all)", "自动（全部）"),
    "tree.depth_help": (
        "Deeper subtrees fold into a box saying how many nodes they hold.",
        "更深的子树折叠为一个方框，并注明包含的节点数。",
    ),
    "tree.layout": ("Layout", "布局"),
    "tree.node_charts": ("Node charts", "节点图表"),
    "tree.node_charts_help": (
        "Inside each test: the split feature's histogram of the node's training rows, stacked by class, with the split line in red (categories: one bar each, a line between the branches; regression: the target against the feature, darker = more rows). Leaves: a class bar as wide as its samples (regression: the target's histogram). Bins: Sturges' rule, ⌈log₂ n⌉ + 1 equal-width bins (at most 12).",
        "每个测试节点内：到达该节点的训练样本在划分特征上的直方图，按类别堆叠，红线为划分位置（类别特征：每个类别一根柱，分支之间有分隔线；回归：目标值对特征的分布，越深样本越多）。叶节点：按类别着色的条，宽度与样本数成比例（回归：目标值的直方图）。分箱：Sturges 规则，⌈log₂ n⌉ + 1 个等宽箱（最多 12 个）。",
    ),
    "tree.layout.auto": ("auto", "自动"),
    "tree.layout.TB": ("top-down", "自上而下"),
    "tree.layout.LR": ("left-right", "从左到右"),
    "tree.fold": ("Fold or unfold a subtree", "折叠或展开子树"),
    "tree.fold_placeholder": ("pick a node (▸ = folded)", "选择节点（▸ = 已折叠）"),
    "tree.folded": ("Folded: {nodes} (pick one again to unfold it)", "已折叠：{nodes}（再次选择即可展开）"),
    "tree.node": ("Selected node", "选中的节点"),
    "tree.node_none": ("none", "无"),
    "tree.collapse_none": ("no subtree folded", "未折叠任何子树"),
    "tree.routed_legend": (
        "A small italic line ending in → under an edge's test names what else goes down that edge: "
        "“{missing}” (rows whose value is missing) and any category listed there (categories this "
        "node never saw in training).",
        "边上条件下方以 → 结尾的小号斜体行说明还有哪些样本走这条边：“{missing}”（该特征缺失的样本），"
        "以及列出的类别（训练时该节点未出现过的类别）。",
    ),
    "tree.large": (
        "This tree has {nodes} nodes: it is shown to depth {depth}. Raise *Show levels* to see more.",
        "该树有 {nodes} 个节点：目前显示到第 {depth} 层。调高“显示层数”可查看更多。",
    ),
    "tree.node_path": ("Path to node #{node}", "到节点 #{node} 的路径"),
    "tree.root": ("(root)", "（根节点）"),
    "tree.legend": (
        "Each box: the test, weighted samples, class counts with a bar, impurity and the prediction. Colour = majority class, stronger = purer. Fractional counts come from rows with missing values split across branches.",
        "每个方框：测试条件、加权样本数、各类别计数及比例条、不纯度和预测结果。颜色表示多数类别，越深越纯。小数计数来自按比例分到各分支的缺失值样本。",
    ),
    "tree.legend_reg": (
        "Each box: the test, samples, impurity and the predicted value; stronger colour = higher value.",
        "每个方框：测试条件、样本数、不纯度和预测值；颜色越深数值越大。",
    ),
}
