"""Words of the node data figure (ui/figures/node_data.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "nodedata.title": ("A node's data", "节点的数据"),
    "nodedata.node": ("Node", "节点"),
    "nodedata.caption": (
        "The training rows reaching the node: its split feature by class with the threshold "
        "marked (regression: the target against the feature, with each child's mean), and the "
        "class counts of each child.",
        "到达该节点的训练样本：按类别显示划分特征的分布并标出阈值（回归：目标值对特征的散点图及"
        "各子节点的均值），以及每个子节点的类别计数。",
    ),
    "nodedata.thinned": (
        "The points show {shown} of the node's {rows} rows (evenly spaced).",
        "散点图显示该节点 {rows} 行中均匀抽取的 {shown} 行。",
    ),
    "nodedata.leaf": (
        "A leaf has no test: pick a node that splits.",
        "叶节点没有测试：请选择一个有划分的节点。",
    ),
    "nodedata.count": ("weight", "权重"),
    "nodedata.threshold": ("threshold", "阈值"),
    "nodedata.children": ("Children", "子节点"),
    "nodedata.mean": ("mean", "均值"),
}
