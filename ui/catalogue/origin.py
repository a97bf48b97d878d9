"""The clauses of an imported tree's origin note (``dtcore.export.origin.NOTE_CLAUSES`` keys):
the English is dtcore's, word for word; the fields are the source's own words."""

WORDS: dict[str, tuple[str, str]] = {
    "origin.forest_probabilities": (
        "the forest averages its members' class probabilities",
        "森林对各成员树的类别概率取平均",
    ),
    "origin.forest_predictions": (
        "the forest averages its members' predictions",
        "森林对各成员树的预测取平均",
    ),
    "origin.gb_log_odds": (
        "leaves hold this tree's own output (a log-odds contribution towards class {label}, not a probability)",
        "叶节点保存这棵树自身的输出（偏向类别 {label} 的对数几率贡献，不是概率）",
    ),
    "origin.gb_softmax": (
        "leaves hold this tree's own output (a raw score of class {label} before the softmax, not a probability)",
        "叶节点保存这棵树自身的输出（类别 {label} 在 softmax 之前的原始得分，不是概率）",
    ),
    "origin.gb_raw": (
        "leaves hold this tree's own output (a raw score added to the prediction)",
        "叶节点保存这棵树自身的输出（加到预测值上的原始得分）",
    ),
    "origin.gb_learning_rate": (
        "the ensemble adds learning_rate ({rate}) times it to its initial estimate",
        "集成模型把它乘以 learning_rate（{rate}）后加到初始估计上",
    ),
    "origin.hgb_log_odds": (
        "leaves hold a log-odds contribution towards class {label}, not a probability, learning rate included",
        "叶节点保存偏向类别 {label} 的对数几率贡献（已含学习率），不是概率",
    ),
    "origin.hgb_softmax": (
        "leaves hold a raw score of class {label} before the softmax, not a probability, learning rate included",
        "叶节点保存类别 {label} 在 softmax 之前的原始得分（已含学习率），不是概率",
    ),
    "origin.hgb_raw": (
        "leaves hold a raw score added to the prediction, learning rate included",
        "叶节点保存加到预测值上的原始得分（已含学习率）",
    ),
    "origin.hgb_baseline": (
        "the model adds every tree's leaf to its baseline",
        "模型把每棵树的叶值加到它的基线上",
    ),
    "origin.hgb_statistics": (
        "node impurities are not kept (0), weights are row counts",
        "模型不保存节点不纯度（记为 0），权重为行数",
    ),
    "origin.xgb_leaves": (
        "objective {objective}: leaves hold a margin contribution (learning rate included), not a probability",
        "目标函数 {objective}：叶节点保存边际贡献（已含学习率），不是概率",
    ),
    "origin.xgb_sum": (
        "the model adds every tree's leaf to base_score {base} (in margin space)",
        "模型把每棵树的叶值加到 base_score {base} 上（在边际空间中）",
    ),
    "origin.xgb_dart": (
        "dart scales each tree by its weight_drop",
        "dart 按 weight_drop 缩放每棵树",
    ),
    "origin.xgb_statistics": (
        "weights are hessian sums, row counts and impurities are not in the file (0)",
        "权重为 Hessian 和，文件中没有行数和不纯度（记为 0）",
    ),
    "origin.lgb_leaves": (
        "objective {objective}: leaves hold a raw score (shrinkage included), not a probability",
        "目标函数 {objective}：叶节点保存原始得分（已含收缩率），不是概率",
    ),
    "origin.lgb_adds": ("the model adds every tree's leaf", "模型把每棵树的叶值相加"),
    "origin.lgb_averages": ("the model averages every tree's leaf", "模型对每棵树的叶值取平均"),
    "origin.lgb_statistics": (
        "node impurities are not in the file (0)",
        "文件中没有节点不纯度（记为 0）",
    ),
    "origin.pmml_missing": (
        "missingValueStrategy {strategy}",
        "缺失值策略 missingValueStrategy 为 {strategy}",
    ),
    "origin.pmml_gini": (
        "PMML keeps no impurities: the Gini impurity of each node's counts",
        "PMML 不保存不纯度：这里是各节点计数的基尼指数",
    ),
    "origin.pmml_no_impurity": (
        "PMML keeps no impurities: 0 in every node",
        "PMML 不保存不纯度：每个节点记为 0",
    ),
    # how the clauses are joined into one sentence
    "origin.join": ("; ", "；"),
}
