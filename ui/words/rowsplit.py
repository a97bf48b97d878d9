"""Words of the split by a column (ui/services/split.py: split_columns)."""

WORDS: dict[str, tuple[str, str]] = {
    "data.split_by": ("How rows are split", "样本划分方式"),
    "data.split_random": ("seeded random split (percentages below)", "按种子随机划分（比例见下）"),
    "data.split_by_column": (
        "Each row's set comes from the column **{column}** (train / valid / test, or 训练 / 验证 / 测试); "
        "the column is not used as a feature.",
        "每行属于哪个集合由列 **{column}** 决定（train / valid / test 或 训练 / 验证 / 测试）；该列不作为特征。",
    ),
    "train.err.split_column": ("{detail}", "{detail}"),
}
