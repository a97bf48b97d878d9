"""The scores table of a trained model, per split of the rows."""

WORDS: dict[str, tuple[str, str]] = {
    "metrics.title": ("Scores", "评估"),
    "metrics.split": ("Rows", "数据集"),
    "metrics.train": ("training", "训练集"),
    "metrics.valid": ("validation", "验证集"),
    "metrics.test": ("test", "测试集"),
    "metrics.accuracy": ("Accuracy", "准确率"),
    "metrics.rmse": ("RMSE", "RMSE"),
    "metrics.mae": ("MAE", "MAE"),
    "metrics.r2": ("R²", "R²"),
    "metrics.n": ("Rows", "行数"),
    "metrics.nodes": ("Nodes", "节点数"),
    "metrics.depth": ("Depth", "深度"),
    "metrics.leaves": ("Leaves", "叶节点数"),
    "metrics.confusion": ("Confusion matrix ({split})", "混淆矩阵（{split}）"),
    "metrics.confusion_split": ("Confusion matrix on", "混淆矩阵数据集"),
    "metrics.true": ("true class", "真实类别"),
    "metrics.predicted": ("predicted class", "预测类别"),
    "metrics.importances": ("Feature importances", "特征重要性"),
    "metrics.importance": ("importance", "重要性"),
    "metrics.no_importance": (
        "The tree is a single leaf: no feature is used.",
        "决策树只有一个叶节点：没有使用任何特征。",
    ),
}
