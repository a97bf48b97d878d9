"""The Growth page's words: step-through growth and pruning of the current model."""

WORDS: dict[str, tuple[str, str]] = {
    "growth.title": ("Growth, step by step", "逐步生长"),
    "growth.intro": (
        "The current model as its builder grew it, one split at a time ({rule}), then the pruning steps that lead to the fitted tree. Nothing is retrained: the order was recorded when the model was fitted.",
        "当前模型按构建算法的顺序逐次分裂（{rule}），随后是剪枝步骤，直到得到最终的树。不会重新训练：顺序在拟合时已记录。",
    ),
    "growth.rule.level": ("level by level, left to right", "逐层、从左到右"),
    "growth.rule.best_first": ("best first: the largest decrease first", "最优优先：先分裂减少量最大的节点"),
    "growth.rule.depth_first": (
        "depth first, as C4.5 release 8 and ID3 grow",
        "深度优先，与 C4.5 第 8 版及 ID3 的生长顺序相同",
    ),
    "growth.no_model": ("Train a model first (Train & tree).", "请先训练模型（训练与决策树）。"),
    "growth.no_history": (
        "This tree was edited after training (forced splits), so it has no recorded growth: the steps below are those of the trained tree.",
        "该树在训练后被修改过（强制分裂），没有记录的生长过程：下面显示的是训练所得树的步骤。",
    ),
    "growth.step": ("Step", "步骤"),
    "growth.play": ("Play", "播放"),
    "growth.pause": ("Pause", "暂停"),
    "growth.phase": (
        "{splits} splits, then {prunes} pruning steps",
        "{splits} 次分裂，然后 {prunes} 个剪枝步骤",
    ),
    "growth.start": ("Step 0: the root alone, before any split.", "第 0 步：只有根节点，尚未分裂。"),
    "growth.split": (
        "**Split {k} of {total}**, at {path}: tests **{feature}** ({score_name} {score}); sends {rows} rows into {moved}.",
        "**第 {k} 次分裂（共 {total} 次）**，位置 {path}：检验 **{feature}**（{score_name} {score}）；把 {rows} 行分入 {moved}。",
    ),
    "growth.runner_up": ("Runner-up: {feature} ({score}).", "次优：{feature}（{score}）。"),
    "growth.score.gain": ("information gain", "信息增益"),
    "growth.score.gain_ratio": ("gain ratio", "增益率"),
    "growth.score.impurity_decrease": ("impurity decrease", "不纯度减少量"),
    "growth.prune_head": (
        "**Pruning step {j} of {total}**, at {path}:",
        "**剪枝第 {j} 步（共 {total} 步）**，位置 {path}：",
    ),
    "growth.prune.collapse": (
        "collapse: the subtree's leaves make {subtree} training errors, the node alone {node}, so the split does not help and the node becomes a leaf.",
        "塌缩：子树的叶节点共犯 {subtree} 个训练错误，节点本身犯 {node} 个，分裂无益，节点成为叶节点。",
    ),
    "growth.prune.leaf": (
        "error-based pruning makes it a leaf: estimated errors as a leaf {leaf} ≤ the subtree's {subtree} + 0.1 (largest branch {branch}).",
        "基于错误的剪枝将其变为叶节点：作为叶节点的估计错误 {leaf} ≤ 子树的 {subtree} + 0.1（最大分支 {branch}）。",
    ),
    "growth.prune.raise": (
        "subtree raising: its largest branch replaces it, estimated errors {branch} ≤ the subtree's {subtree} + 0.1 (as a leaf {leaf}).",
        "子树提升：用最大分支替换该节点，估计错误 {branch} ≤ 子树的 {subtree} + 0.1（作为叶节点 {leaf}）。",
    ),
    "growth.prune.ccp": (
        "the weakest link goes at α = {alpha}; {leaves} leaves remain.",
        "最弱连接在 α = {alpha} 处被剪去；剩余 {leaves} 个叶节点。",
    ),
    "growth.explore": ("Open this node on the Splits page", "在“划分探索”页打开此节点"),
    "growth.pruned_later": ("(pruned away later: not in the fitted tree)", "（之后被剪去：不在最终的树中）"),
}
