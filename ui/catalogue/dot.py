"""Words inside the tree picture (``dtcore.export.DOT_WORDS`` keys), and the tooltip of a C4.5 test."""

WORDS: dict[str, tuple[str, str]] = {
    "dot.samples": ("samples", "样本数"),
    "dot.hessian": ("hessian sum", "Hessian 和"),
    "dot.class": ("class", "类别"),
    "dot.value": ("value", "取值"),
    "dot.empty": ("empty", "空分支"),
    "dot.parents_majority": ("parent's majority", "父节点多数类"),
    "dot.parents_value": ("(parent's)", "（父节点）"),
    "dot.more_labels": ("… {n} more", "… 另 {n} 个"),
    "dot.more": ("{n} more nodes<BR/>({leaves} leaves)", "还有 {n} 个节点<BR/>（{leaves} 个叶节点）"),
    "dot.missing": ("missing", "缺失"),
    "dot.gini": ("gini", "基尼指数"),
    "dot.entropy": ("entropy", "信息熵"),
    "dot.squared_error": ("squared_error", "平方误差"),
    "dot.friedman_mse": ("friedman_mse", "Friedman 平方误差"),
    "dot.absolute_error": ("absolute_error", "绝对误差"),
    "dot.poisson": ("poisson", "泊松偏差"),
    # the tooltip of a C4.5 test in the tree picture (dtcore.export.DOT_WORDS key "midpoint")
    "dot.midpoint": ("midpoint", "中点"),
}
