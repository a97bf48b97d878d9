"""Words of the what-if section (a sample's path, its counterfactuals) and its code downloads."""

WORDS: dict[str, tuple[str, str]] = {
    "whatif.title": ("What if: ask the tree about a sample", "假如：向决策树询问一个样本"),
    "whatif.intro": (
        "Pick a row or change its values; the tree (as trained: nothing is retrained) shows the path, "
        "the leaf and, per feature, what keeps or flips the prediction. Leave a value empty (or "
        "choose “missing”) to see how the model treats a missing value.",
        "选择一行数据或修改其取值；决策树（不会重新训练）给出样本经过的路径、到达的叶节点，"
        "以及每个特征在什么范围内预测不变、怎样改动会改变预测。把某个取值留空（或选“缺失”）"
        "可以查看模型如何处理缺失值。",
    ),
    "whatif.split": ("Take a row from", "从以下数据取一行"),
    "whatif.row": ("Row (position in that split)", "行（在该部分中的序号）"),
    "whatif.fill": ("Fill in this row", "填入这一行"),
    "whatif.row_caption": (
        "Data row {index} of the table, true {target}: {truth}",
        "数据表第 {index} 行，真实 {target}：{truth}",
    ),
    "whatif.missing": ("missing", "缺失"),
    "whatif.edit": (
        "Change the values ({count} features the tree tests)",
        "修改取值（决策树使用的 {count} 个特征）",
    ),
    "whatif.unused": (
        "{count} feature(s) the tree does not test are not shown (they keep the row's values and cannot change the prediction).",
        "决策树未使用的 {count} 个特征未列出（它们保留该行的取值，不会改变预测）。",
    ),
    "whatif.editor": ("Sample", "样本"),
    "whatif.prediction": ("Prediction", "预测"),
    "whatif.path": ("The sample's path", "样本的路径"),
    "whatif.path_caption": (
        "Bold edges: the way the sample goes, with its value; a missing value at a C4.5 test "
        "sends the sample down every branch with the branch's share of the training weight "
        "(written on the edge). CART follows the direction the split learned for missing values. "
        "Subtrees off the path are folded.",
        "粗线：样本经过的路径及其取值；在 C4.5 的测试上取值缺失时，样本按各分支训练权重的比例"
        "进入每个分支（比例写在边上）。CART 按该划分学到的缺失值方向走。路径以外的子树已折叠。",
    ),
    "whatif.mixing": ("How the leaves are mixed", "叶节点分布如何混合"),
    "whatif.arithmetic": ("Arithmetic", "计算过程"),
    "whatif.leaves": ("Leaves reached", "到达的叶节点"),
    "whatif.counterfactuals": ("Change one value, see the flip", "改一个值，看预测是否改变"),
    "whatif.counterfactuals_caption": (
        "One feature at a time, the others as in the sample: the values that keep the prediction "
        "and the nearest change that flips it, computed by running the tree on every interval "
        "between that feature's thresholds (or every category).",
        "每次只改一个特征、其余取值不变：保持预测不变的取值范围，以及改变预测的最近改动——"
        "通过在该特征各阈值之间的每个区间（或每个类别）上运行决策树得到。",
    ),
    "whatif.no_path_features": (
        "The tree is a single leaf: no feature changes it.",
        "决策树只有一个叶节点：任何特征都不会改变预测。",
    ),
    "whatif.word.missing": ("missing", "缺失"),
    "whatif.word.or": ("or", "或"),
    "whatif.word.any": ("any", "任意"),
    "whatif.word.known": ("known", "已知"),
    "whatif.never": ("no single change", "单独改动无法改变"),
    "whatif.col.leaf": ("Leaf", "叶节点"),
    "whatif.col.weight": ("Share of the sample", "样本份额"),
    "whatif.col.value": ("Value", "取值"),
    "whatif.col.feature": ("Feature", "特征"),
    "whatif.col.keeps": ("Keeps the prediction", "保持预测"),
    "whatif.col.flips": ("Nearest change that flips it", "改变预测的最近改动"),
    "whatif.col.class": ("Class", "类别"),
    "whatif.col.probability": ("Probability", "概率"),
}
