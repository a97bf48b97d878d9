"""Words of the defaults an upload starts with (ui/services/split.py: upload_defaults)."""

WORDS: dict[str, tuple[str, str]] = {
    "defaults.depth_limited": (
        "Grown to depth {depth}, the default for uploaded tables of more than {rows} rows (a fully "
        "grown tree fits the training rows and little else): set Max depth to 0 in the settings "
        "to grow it fully, or prune it on the Pruning page.",
        "已按默认深度 {depth} 生长：上传的数据超过 {rows} 行时默认限制深度（完全生长的树只拟合训练样本）。"
        "在设置中把最大深度设为 0 可完全生长，也可以在剪枝页剪枝。",
    ),
    "defaults.training_only": (
        "These are scores on the training rows only: hold out validation and test rows on the Data "
        "page for an honest estimate.",
        "以上只是训练样本上的得分：在数据页留出验证集和测试集，才能得到可信的估计。",
    ),
}
