"""The Data page's words: the source of the data, column roles, the row split (also by a column), the
large-data split note."""

WORDS: dict[str, tuple[str, str]] = {
    "data.title": ("Data", "数据"),
    "data.source": ("Where the data comes from", "数据来源"),
    "data.reading": ("Reading {name} …", "正在读取 {name} …"),
    "data.sample": ("Bundled sample", "内置样例数据集"),
    "data.sample_help": (
        "The textbook sets from the specification and real data sets shipped with the app.",
        "规格说明中的教材数据集，以及随应用附带的真实数据集。",
    ),
    "data.sample_placeholder": (
        "An uploaded file is loaded: pick a sample to replace it",
        "已加载上传的文件：选择样例可替换它",
    ),
    "data.upload": ("…or upload a file", "……或上传文件"),
    "data.upload_help": (
        "CSV / TSV (UTF-8, UTF-8 with BOM or GBK), Excel .xlsx, Parquet, ARFF. First row = column names.",
        "CSV / TSV（UTF-8、带 BOM 的 UTF-8 或 GBK）、Excel .xlsx、Parquet、ARFF。第一行为列名。",
    ),
    "data.current": (
        "Current data: **{name}** ({source}), {rows} rows × {cols} columns",
        "当前数据：**{name}**（{source}），{rows} 行 × {cols} 列",
    ),
    "data.source.sample": ("bundled sample", "内置样例"),
    "data.source.upload": ("uploaded file", "上传的文件"),
    "data.read_as": ("Read as {fmt}, encoding {encoding}.", "按 {fmt} 读取，编码 {encoding}。"),
    "data.read_as_binary": ("Read as {fmt}.", "按 {fmt} 读取。"),
    "data.loaded": ("Loaded {name}.", "已加载 {name}。"),
    "data.load_failed": (
        "Could not read **{name}**: {message} The previous data is kept.",
        "无法读取 **{name}**：{message} 已保留之前的数据。",
    ),
    "data.preview": ("Preview (first {n} rows)", "预览（前 {n} 行）"),
    "data.roles": ("Column roles", "列的角色"),
    "data.roles_help": (
        "Each column is a continuous feature, a categorical feature, ignored, or the target (exactly one). Edit the Role column.",
        "每一列可以是连续特征、离散特征、忽略，或目标（恰好一个）。在“角色”列中修改。",
    ),
    "data.target": ("Target column", "目标列"),
    "data.task": ("Task", "任务"),
    "data.task_help": (
        "Labels make a classification tree; numbers can be a regression tree (CART only).",
        "标签型目标为分类树；数值型目标可做回归树（仅 CART）。",
    ),
    "data.col.column": ("Column", "列"),
    "data.col.role": ("Role", "角色"),
    "data.col.type": ("Values", "取值"),
    "data.col.distinct": ("Distinct", "不同值"),
    "data.col.missing": ("Missing", "缺失"),
    "data.col.example": ("Example", "示例"),
    "data.col.note": ("Note", "提示"),
    "data.type.numeric": ("numbers", "数值"),
    "data.type.integer": ("integers", "整数"),
    "data.type.labels": ("labels", "标签"),
    "data.split": ("Train / validation / test split", "训练 / 验证 / 测试划分"),
    "data.split_help": (
        "Seeded and stratified by class; training uses the training rows, pruning the validation rows, the test rows are kept for the final score.",
        "按随机种子划分，分类任务按类别分层；训练使用训练集，剪枝使用验证集，测试集留作最终评估。",
    ),
    "data.valid": ("Validation %", "验证集 %"),
    "data.test": ("Test %", "测试集 %"),
    "data.seed": ("Seed", "随机种子"),
    "data.split_counts": (
        "{train} training rows, {valid} validation rows, {test} test rows.",
        "训练集 {train} 行，验证集 {valid} 行，测试集 {test} 行。",
    ),
    "data.next": (
        "Roles look good? Go to **{page}** to grow the tree.",
        "角色设置好了？前往 **{page}** 生成决策树。",
    ),
    "data.ok": ("Ready to train.", "可以训练。"),
    "data.source.large": ("a sample of large data on the server", "服务器上大数据的样本"),
    "data.split_by": ("How rows are split", "样本划分方式"),
    "data.split_random": ("seeded random split (percentages below)", "按种子随机划分（比例见下）"),
    "data.split_by_column": (
        "Each row's set comes from the column **{column}** (train / valid / test, or 训练 / 验证 / 测试); "
        "the column is not used as a feature.",
        "每行属于哪个集合由列 **{column}** 决定（train / valid / test 或 训练 / 验证 / 测试）；该列不作为特征。",
    ),
}
