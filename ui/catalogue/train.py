"""The Train page's words: algorithm, settings, the tree and what it was trained on."""

WORDS: dict[str, tuple[str, str]] = {
    "train.title": ("Train & tree", "训练与决策树"),
    "train.welcome": (
        "This is a C4.5 tree grown on the watermelon 3.0 data. Try next: in the sidebar's **Settings**, switch the algorithm to CART, change a setting and press **Train**, or pick another data set on the **Data** page.",
        "这是在西瓜数据集 3.0 上用 C4.5 生成的决策树。接下来可以：在侧边栏的 **参数** 中把算法换成 CART、修改参数后点击 **训练**，或到 **数据** 页选择其他数据集。",
    ),
    "train.no_data": ("Load a data set on the **Data** page first.", "请先在 **数据** 页加载数据集。"),
    "train.fix_roles": (
        "The data cannot be trained as typed. Fix the column roles on the **Data** page:",
        "按当前的列角色无法训练。请在 **数据** 页修改列的角色：",
    ),
    "train.algorithm": ("Algorithm", "算法"),
    "train.algorithm_help": (
        "C4.5 (Quinlan release 8), CART (binary splits, scikit-learn's parameters) or ID3 (information gain, multiway). Regression trees: CART only.",
        "C4.5（Quinlan 第 8 版）、CART（二叉划分，参数同 scikit-learn）或 ID3（信息增益，多路划分）。回归树仅支持 CART。",
    ),
    "train.regression_only_cart": (
        "The target is numeric (regression): only CART grows regression trees.",
        "目标为数值（回归）：只有 CART 能生成回归树。",
    ),
    "train.form_hint": (
        "Change the settings below, then press **Train**: the tree updates only then.",
        "修改下方参数后点击 **训练**，决策树才会更新。",
    ),
    "train.settings": ("Settings", "参数"),
    "train.criterion": ("Criterion", "划分准则"),
    "train.button": ("Train", "训练"),
    "train.running": ("Growing the tree…", "正在生成决策树……"),
    "train.stale": (
        "The settings changed since this tree was grown: press **Train**.",
        "参数已修改：请点击 **训练** 重新生成。",
    ),
    "train.failed": ("Training failed: {message}", "训练失败：{message}"),
    "train.trained": (
        "Trained {algorithm} on {rows} rows in {seconds} s.",
        "{algorithm} 在 {rows} 行上训练完成，用时 {seconds} 秒。",
    ),
    "train.dropped": (
        "{count} rows with a missing target were left out.",
        "{count} 行目标缺失，未参与训练。",
    ),
    "train.err.algorithm_task": (
        "{algorithm} cannot grow a {task} tree; choose CART.",
        "{algorithm} 不能生成{task}树；请选择 CART。",
    ),
    "train.err.no_rows": (
        "no training rows are left after the split: lower the validation and test shares.",
        "划分后没有训练数据：请降低验证集和测试集的比例。",
    ),
    "train.err.single_class": (
        "the training rows of **{column}** hold a single class: there is nothing to learn. Use more rows or a different target.",
        "训练数据中 **{column}** 只有一个类别：没有可学习的内容。请使用更多数据或更换目标。",
    ),
    "train.err.params": ("the settings are not valid: {detail}", "参数无效：{detail}"),
    "train.err.data": ("the data cannot be used as typed: {detail}", "数据无法按当前类型使用：{detail}"),
    "train.err.memory": (
        "training ran out of memory and was stopped ({detail}); its memory has been released. Use fewer rows, categories or levels.",
        "训练内存不足，已停止（{detail}）；占用的内存已释放。请减少数据行数、类别数或树的层数。",
    ),
    "train.err.busy": (
        "other sessions kept the server busy for {seconds} s, so this job did not start. Try again in a moment.",
        "其他会话占用服务器已达 {seconds} 秒，本次任务未能开始。请稍后重试。",
    ),
    "train.err.split_column": ("{detail}", "{detail}"),
}
