"""Words of the regression fit charts on the Train page (ui/figures/regression.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "regfit.title": ("How the tree fits", "决策树的拟合情况"),
    "regfit.split": ("Rows", "样本"),
    "regfit.predicted_actual": ("Predicted against actual", "预测值与真实值"),
    "regfit.residuals": ("Residuals", "残差"),
    "regfit.leaves": (
        "Actual values in each leaf (the {top} largest leaves; ◆ = the leaf's prediction)",
        "各叶节点中的真实值（最大的 {top} 个叶节点；◆ = 叶节点的预测值）",
    ),
    "regfit.actual": ("actual", "真实值"),
    "regfit.predicted": ("predicted", "预测值"),
    "regfit.residual": ("actual − predicted", "真实值 − 预测值"),
    "regfit.leaf": ("leaf", "叶节点"),
    "regfit.leaf_value": ("prediction", "预测值"),
    "regfit.rows": ("rows", "行"),
    "regfit.median": ("median", "中位数"),
    "regfit.quartiles": ("quartiles", "四分位数"),
    "regfit.whiskers": ("whiskers (within 1.5 × IQR)", "须线（1.5 倍四分位距以内）"),
    "regfit.thinned": (
        "The scatter plots show {shown} of the {rows} rows (evenly spaced); the boxes use every row.",
        "散点图显示 {rows} 行中均匀抽取的 {shown} 行；箱线图使用全部样本。",
    ),
}
