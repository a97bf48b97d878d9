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
    "progress.compare": (
        "Comparing: fit {done} of {total} · {part}",
        "正在比较：第 {done} 次拟合（共 {total} 次）· {part}",
    ),
    "progress.compare_fit": ("{algo} on the training rows", "{algo}：在训练集上拟合"),
    "progress.compare_fold": ("{algo}, cross-validation fold {fold}", "{algo}：交叉验证第 {fold} 折"),
    "progress.compare_end": ("agreement and first disagreement", "一致性与首个分歧"),
    "progress.cf": (
        "EBP curves: pruning at CF {cf} ({done} of {total})",
        "EBP 曲线：以 CF {cf} 剪枝（第 {done} 个，共 {total} 个）",
    ),
    "progress.finishing": (
        "Finishing the tree ({nodes} nodes): assembling and scoring",
        "正在完成决策树（{nodes} 个节点）：组装并计算得分",
    ),
}
