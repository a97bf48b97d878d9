"""Words of the progress bars long work shows (ui/state/jobs.py: ProgressBar)."""

WORDS: dict[str, tuple[str, str]] = {
    "progress.grow_rows": (
        "Growing the tree: {share} of the training rows have reached a leaf · {nodes} nodes · depth {depth}",
        "正在生长决策树：{share} 的训练样本已到达叶节点 · {nodes} 个节点 · 深度 {depth}",
    ),
    "progress.grow": ("Growing the tree: {nodes} nodes so far", "正在生长决策树：已有 {nodes} 个节点"),
    "progress.fold": (
        "Cross-validation: growing the tree of fold {fold} of {folds}",
        "交叉验证：正在生长第 {fold} 折（共 {folds} 折）的决策树",
    ),
    "progress.finishing": (
        "Finishing the tree ({nodes} nodes): assembling and scoring",
        "正在完成决策树（{nodes} 个节点）：组装并计算得分",
    ),
}
