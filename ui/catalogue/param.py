"""The label of each training parameter (``param.<param>``; ``help.<param>`` is its help)."""

WORDS: dict[str, tuple[str, str]] = {
    "param.criterion": ("Criterion", "划分准则"),
    "param.max_depth": ("Max depth (0 = no limit)", "最大深度（0 = 不限）"),
    "param.min_samples_split": ("Min rows to split a node", "节点划分所需最少样本数"),
    "param.min_samples_leaf": ("Min rows in a leaf", "叶节点最少样本数"),
    "param.min_impurity_decrease": ("Min impurity decrease", "最小不纯度下降"),
    "param.max_leaf_nodes": ("Max leaves (0 = no limit)", "最多叶节点数（0 = 不限）"),
    "param.continuous": ("Continuous features", "连续特征处理"),
    "param.n_bins": ("Bins", "分箱数"),
    "param.threshold": ("Threshold shown", "阈值取值"),
    "param.mdl_penalty": ("MDL penalty on cuts", "连续切点的 MDL 修正"),
    "param.min_cases": ("Min cases in two branches", "至少两个分支的最少样本数"),
    "param.prune": ("Error-based pruning", "基于错误率的剪枝"),
    "param.confidence_factor": ("Confidence factor (CF)", "置信因子 CF"),
    "param.z": ("Normal deviate", "正态分位数"),
    "param.subtree_raising": ("Subtree raising", "子树上提"),
    "param.collapse": ("Collapse useless subtrees", "合并无用子树"),
    "param.splitter": ("Split search", "切分搜索"),
    "param.max_bins": ("Bins (histogram)", "分箱数（直方图）"),
}
