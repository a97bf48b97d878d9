"""Every string the app shows, in English and 中文, in one catalogue.

Pages never write user-facing text inline: they call ``t("key", **values)``. A key missing from
the catalogue raises ``KeyError`` (tests walk every key and both languages), so a half-translated
screen cannot ship. New pages and views add their keys in a module of their own under
``ui/words/`` (merged below), grouped under their own prefix.
"""

from __future__ import annotations

LANGS = ("en", "zh")
LANG_NAMES = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"

# key → (English, 中文)
CATALOGUE: dict[str, tuple[str, str]] = {
    # -- frame --------------------------------------------------------------------------------
    "app.title": ("Decision-tree explorer", "决策树探索器"),
    "nav.data": ("Data", "数据"),
    "nav.train": ("Train & tree", "训练与决策树"),
    "nav.splits": ("Splits", "划分"),
    "nav.prune": ("Pruning", "剪枝"),
    "side.language": ("Language / 语言", "语言 / Language"),
    "side.data": ("Data", "数据"),
    "side.no_data": ("No data loaded.", "尚未加载数据。"),
    "side.data_summary": ("**{name}** · {rows} rows × {cols} columns", "**{name}** · {rows} 行 × {cols} 列"),
    "side.target": ("Target: **{target}** ({task})", "目标：**{target}**（{task}）"),
    "side.model": ("Model", "模型"),
    "side.no_model": ("Not trained yet.", "尚未训练。"),
    "side.model_summary": (
        "{algorithm} · {nodes} nodes · depth {depth} · {leaves} leaves",
        "{algorithm} · {nodes} 个节点 · 深度 {depth} · {leaves} 个叶子",
    ),
    "side.url_note": (
        "The address bar holds this view (sample, algorithm, settings, selected node): copy it to share.",
        "地址栏记录了当前视图（样例、算法、参数、选中的节点），复制即可分享。",
    ),
    "side.upload_url_note": (
        "Uploaded files cannot travel in a link: a shared link opens the bundled sample instead.",
        "上传的文件无法通过链接分享：分享的链接会打开内置样例。",
    ),
    "url.bad_value": (
        "The link's setting {name}={value} is not valid here ({rule}); the default {default} is used.",
        "链接中的设置 {name}={value} 无效（{rule}），已改用默认值 {default}。",
    ),
    "task.classification": ("classification", "分类"),
    "task.regression": ("regression", "回归"),
    "algo.c45": ("C4.5", "C4.5"),
    "algo.cart": ("CART", "CART"),
    "algo.id3": ("ID3", "ID3"),
    # -- words inside the tree picture (dtcore.export.DOT_WORDS keys) -----------------------------
    "dot.samples": ("samples", "样本数"),
    "dot.class": ("class", "类别"),
    "dot.value": ("value", "取值"),
    "dot.empty": ("empty", "空分支"),
    "dot.parents_majority": ("parent's majority", "父节点多数类"),
    "dot.parents_value": ("(parent's)", "（父节点）"),
    "dot.more": ("{n} more nodes<BR/>({leaves} leaves)", "还有 {n} 个节点<BR/>（{leaves} 个叶子）"),
    "dot.missing": ("missing", "缺失"),
    "dot.gini": ("gini", "基尼指数"),
    "dot.entropy": ("entropy", "信息熵"),
    "dot.squared_error": ("squared_error", "平方误差"),
    "dot.friedman_mse": ("friedman_mse", "Friedman 平方误差"),
    "dot.absolute_error": ("absolute_error", "绝对误差"),
    "dot.poisson": ("poisson", "泊松偏差"),
    # -- data page ------------------------------------------------------------------------------
    "data.title": ("Data", "数据"),
    "data.source": ("Where the data comes from", "数据来源"),
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
    "note.identifier": ("one value per row", "每行取值不同"),
    "note.constant": ("single value", "只有一个取值"),
    "note.decimal_comma": ("decimal commas?", "小数逗号？"),
    "note.all_missing": ("no values", "全部缺失"),
    "note.many_categories": ("many categories", "类别很多"),
    "note.missing": ("missing values", "有缺失值"),
    "note.target_missing": ("missing targets", "目标有缺失"),
    "note.not_numeric": ("not numbers", "不是数值"),
    "note.regression_labels": ("labels, not numbers", "标签而非数值"),
    "note.single_class": ("single class", "只有一个类别"),
    "role.continuous": ("continuous", "连续"),
    "role.categorical": ("categorical", "离散"),
    "role.ignore": ("ignore", "忽略"),
    "role.target": ("target", "目标"),
    # role warnings and errors (dtcore.data.roles Issue codes)
    "roles.identifier": (
        "**{column}** has one value per row, like an identifier: ID3 would split on it first and learn nothing. Set it to *ignore*.",
        "**{column}** 每行取值都不同，像是编号：ID3 会首先选择它却学不到任何东西。请设为“忽略”。",
    ),
    "roles.constant": (
        "**{column}** has a single value: it cannot split anything.",
        "**{column}** 只有一个取值，无法用于划分。",
    ),
    "roles.decimal_comma": (
        "**{column}** looks like numbers with decimal commas (1,5): it is read as labels. Save the file with decimal points to use it as a number.",
        "**{column}** 看起来是使用小数逗号的数字（1,5）：目前按标签读取。请用小数点保存文件，才能作为数值使用。",
    ),
    "roles.all_missing": (
        "**{column}** is missing in all {count} rows: it holds no value and cannot split anything.",
        "**{column}** 全部 {count} 行都缺失：没有任何取值，无法用于划分。",
    ),
    "roles.many_categories": (
        "**{column}** has {count} categories: multiway splits on it will be very wide.",
        "**{column}** 有 {count} 个类别：按它的多路划分会非常宽。",
    ),
    "roles.missing": (
        "**{column}** is missing in {count} rows (handled as missing values).",
        "**{column}** 有 {count} 行缺失（按缺失值处理）。",
    ),
    "roles.missing_summary": (
        "{count} feature column(s) have missing cells ({rows} in all, see *Missing*): the learners treat them as missing values, not as a category.",
        "{count} 个特征列有缺失单元格（共 {rows} 个，见“缺失”列）：学习算法将其作为缺失值处理，而不是一个类别。",
    ),
    "roles.target_missing": (
        "The target **{column}** is missing in {count} rows: those rows are left out.",
        "目标 **{column}** 有 {count} 行缺失：这些行不参与训练。",
    ),
    "roles.no_target": ("Choose a target column.", "请选择目标列。"),
    "roles.many_targets": (
        "Only one column can be the target (now: {column}).",
        "只能有一个目标列（当前：{column}）。",
    ),
    "roles.no_features": (
        "No feature columns: mark at least one column continuous or categorical.",
        "没有特征列：请至少将一列设为连续或离散。",
    ),
    "roles.not_numeric": (
        "**{column}** holds labels, so it cannot be continuous: make it categorical.",
        "**{column}** 含有非数值的标签，不能设为连续：请设为离散。",
    ),
    "roles.regression_labels": (
        "The target **{column}** holds labels: a regression tree needs numbers. Choose classification.",
        "目标 **{column}** 含有标签：回归树需要数值目标。请选择分类。",
    ),
    "roles.single_class": (
        "The target **{column}** has only {count} distinct value(s): there is nothing to learn.",
        "目标 **{column}** 只有 {count} 个不同取值：没有可学习的内容。",
    ),
    # load errors (ui.services.loading LoadError keys)
    "load.unknown_sample": ("there is no bundled sample called {name}.", "没有名为 {name} 的内置样例。"),
    "load.xls": (
        "old Excel .xls files are not supported; save as .xlsx or CSV.",
        "不支持旧版 Excel .xls 文件；请另存为 .xlsx 或 CSV。",
    ),
    "load.unknown_format": (
        "files ending in {suffix} are not supported (use {formats}).",
        "不支持扩展名为 {suffix} 的文件（请使用 {formats}）。",
    ),
    "load.empty": ("the file is empty.", "文件是空的。"),
    "load.bad_file": ("{detail}", "{detail}"),
    "load.bad_excel": (
        "this is not a readable Excel .xlsx file ({detail}).",
        "这不是可读取的 Excel .xlsx 文件（{detail}）。",
    ),
    "load.bad_parquet": (
        "this is not a readable Parquet file ({detail}).",
        "这不是可读取的 Parquet 文件（{detail}）。",
    ),
    "load.no_rows": ("the file has column names but no data rows.", "文件只有列名，没有数据行。"),
    "load.one_column": (
        "the file has a single column: a tree needs at least one feature and a target (wrong delimiter?).",
        "文件只有一列：决策树至少需要一个特征和一个目标（分隔符不对？）。",
    ),
    "load.limit.rows": (
        "the file is too large to load: more than {limit} data rows (the limit, set by {env}).",
        "文件太大，无法加载：数据行超过 {limit} 行（上限，由 {env} 设置）。",
    ),
    "load.limit.columns": (
        "the file is too large to load: more than {limit} columns (the limit, set by {env}).",
        "文件太大，无法加载：列数超过 {limit} 列（上限，由 {env} 设置）。",
    ),
    "load.limit.cells": (
        "the file is too large to load: more than {limit} cells, rows × columns (the limit, set by {env}).",
        "文件太大，无法加载：单元格（行 × 列）超过 {limit} 个（上限，由 {env} 设置）。",
    ),
    "load.limit.cell_chars": (
        "the file is too large to load: a cell holds more than {limit} characters (the limit, set by {env}).",
        "文件太大，无法加载：有单元格超过 {limit} 个字符（上限，由 {env} 设置）。",
    ),
    "load.limit.bytes": (
        "the file is too large to load: more than {limit} bytes once decoded or unzipped (the limit, set by {env}).",
        "文件太大，无法加载：解码或解压后超过 {limit} 字节（上限，由 {env} 设置）。",
    ),
    "load.out_of_memory": (
        "the file is too large to load: the server ran out of memory reading it (limits: {rows} rows, {columns} columns, {cells} cells; see README, Limits).",
        "文件太大，无法加载：读取时服务器内存不足（上限：{rows} 行、{columns} 列、{cells} 个单元格；见 README 的 Limits 一节）。",
    ),
    "load.unnamed_column": (
        "column {position} has no name in the header row.",
        "表头第 {position} 列没有名称。",
    ),
    "load.duplicate_columns": (
        "duplicate column names: {names}. Rename them so each is unique.",
        "列名重复：{names}。请重命名使每列唯一。",
    ),
    # -- train page -----------------------------------------------------------------------------
    "train.title": ("Train & tree", "训练与决策树"),
    "train.welcome": (
        "This is a C4.5 tree grown on the watermelon 3.0 data. Try next: switch the algorithm to CART, change a setting and press **Train**, or pick another data set on the **Data** page.",
        "这是在西瓜数据集 3.0 上用 C4.5 生成的决策树。接下来可以：把算法换成 CART、修改参数后点击 **训练**，或到 **数据** 页选择其他数据集。",
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
    "jobs.waiting": (
        "Waiting for another session's training to finish… ({seconds} s)",
        "正在等待其他会话的训练完成……（{seconds} 秒）",
    ),
    "tree.title": ("Tree", "决策树"),
    "tree.depth_window": ("Show levels", "显示层数"),
    "tree.depth_all": ("all", "全部"),
    "tree.depth_auto": ("auto (≤ {depth})", "自动（≤ {depth}）"),
    "tree.depth_auto_all": ("auto (all)", "自动（全部）"),
    "tree.depth_help": (
        "Deeper subtrees fold into a box saying how many nodes they hold.",
        "更深的子树折叠为一个方框，并注明包含的节点数。",
    ),
    "tree.layout": ("Layout", "布局"),
    "tree.layout.auto": ("auto", "自动"),
    "tree.layout.TB": ("top-down", "自上而下"),
    "tree.layout.LR": ("left-right", "从左到右"),
    "tree.fold": ("Fold or unfold a subtree", "折叠或展开子树"),
    "tree.fold_placeholder": ("pick a node (▸ = folded)", "选择节点（▸ = 已折叠）"),
    "tree.folded": ("Folded: {nodes} (pick one again to unfold it)", "已折叠：{nodes}（再次选择即可展开）"),
    "tree.node": ("Selected node", "选中的节点"),
    "tree.node_none": ("none", "无"),
    "tree.collapse_none": ("no subtree folded", "未折叠任何子树"),
    "tree.routed_legend": (
        "A small italic line ending in → under an edge's test names what else goes down that edge: "
        "“{missing}” (rows whose value is missing) and any category listed there (categories this "
        "node never saw in training).",
        "边上条件下方以 → 结尾的小号斜体行说明还有哪些样本走这条边：“{missing}”（该特征缺失的样本），"
        "以及列出的类别（训练时该节点未出现过的类别）。",
    ),
    "tree.large": (
        "This tree has {nodes} nodes: it is shown to depth {depth}. Raise *Show levels* to see more.",
        "该树有 {nodes} 个节点：目前显示到第 {depth} 层。调高“显示层数”可查看更多。",
    ),
    "tree.node_path": ("Path to node #{node}", "到节点 #{node} 的路径"),
    "tree.root": ("(root)", "（根节点）"),
    "tree.legend": (
        "Each box: the test, weighted samples, class counts with a bar, impurity and the prediction. Colour = majority class, stronger = purer. Fractional counts come from rows with missing values split across branches.",
        "每个方框：测试条件、加权样本数、各类别计数及比例条、不纯度和预测结果。颜色表示多数类别，越深越纯。小数计数来自按比例分到各分支的缺失值样本。",
    ),
    "tree.legend_reg": (
        "Each box: the test, samples, impurity and the predicted value; stronger colour = higher value.",
        "每个方框：测试条件、样本数、不纯度和预测值；颜色越深数值越大。",
    ),
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
    "metrics.leaves": ("Leaves", "叶子数"),
    "metrics.confusion": ("Confusion matrix ({split})", "混淆矩阵（{split}）"),
    "metrics.confusion_split": ("Confusion matrix on", "混淆矩阵数据集"),
    "metrics.true": ("true class", "真实类别"),
    "metrics.predicted": ("predicted class", "预测类别"),
    "metrics.importances": ("Feature importances", "特征重要性"),
    "metrics.importance": ("importance", "重要性"),
    "metrics.no_importance": (
        "The tree is a single leaf: no feature is used.",
        "决策树只有一个叶子：没有使用任何特征。",
    ),
    "download.title": ("Downloads", "下载"),
    "download.json": ("Model (JSON)", "模型（JSON）"),
    "download.dot": ("Graphviz DOT", "Graphviz DOT"),
    "download.svg": ("SVG", "SVG"),
    "download.png": ("PNG", "PNG"),
    "download.rules": ("Rules (text)", "规则（文本）"),
    "download.no_graphviz": (
        "SVG and PNG need the Graphviz `{message}` program on the server (apt-get install graphviz); JSON, DOT and rules work without it.",
        "SVG 和 PNG 需要服务器上安装 Graphviz `{message}` 程序（apt-get install graphviz）；JSON、DOT 和规则不受影响。",
    ),
    "rules.title": ("Rules", "规则"),
    # parameters (label, help)
    "param.criterion": ("Criterion", "划分准则"),
    "param.max_depth": ("Max depth (0 = no limit)", "最大深度（0 = 不限）"),
    "param.min_samples_split": ("Min rows to split a node", "节点划分所需最少样本数"),
    "param.min_samples_leaf": ("Min rows in a leaf", "叶子最少样本数"),
    "param.min_impurity_decrease": ("Min impurity decrease", "最小不纯度下降"),
    "param.max_leaf_nodes": ("Max leaves (0 = no limit)", "最多叶子数（0 = 不限）"),
    "param.continuous": ("Continuous features", "连续特征处理"),
    "param.n_bins": ("Bins", "分箱数"),
    "param.threshold": ("Threshold shown", "阈值取值"),
    "param.mdl_penalty": ("MDL penalty on cuts", "连续切点的 MDL 修正"),
    "param.min_cases": ("Min cases in two branches", "至少两个分支的最少样本数"),
    "param.prune": ("Error-based pruning", "基于错误率的剪枝"),
    "param.confidence_factor": ("Confidence factor (CF)", "置信因子 CF"),
    "param.z": ("Normal deviate", "正态分位数"),
    "param.subtree_raising": ("Subtree raising", "子树上提"),
    "param.collapse": ("Collapse useless subtrees", "合并无用子树"),
    "help.max_depth": ("Stop splitting at this depth (pre-pruning).", "达到该深度后不再划分（预剪枝）。"),
    "help.min_samples_split": (
        "A node with fewer (weighted) rows becomes a leaf.",
        "样本数（加权）少于此值的节点成为叶子。",
    ),
    "help.min_samples_leaf": (
        "Every child of a split must keep at least this many rows.",
        "划分后的每个子节点至少保留这么多样本。",
    ),
    "help.min_impurity_decrease": (
        "Split only when N_t/N · (impurity decrease) reaches this (scikit-learn's rule).",
        "仅当 N_t/N ·（不纯度下降）达到该值时才划分（与 scikit-learn 相同）。",
    ),
    "help.max_leaf_nodes": (
        "Grow best-first and stop at this many leaves.",
        "按最优优先生长，叶子数达到该值即停止。",
    ),
    "help.continuous": (
        "How ID3 uses numbers: one binary cut, one branch per interval between distinct values, or pre-binning.",
        "ID3 如何处理数值：一个二分切点、相邻取值之间每个区间一个分支，或预先分箱。",
    ),
    "help.n_bins": (
        "Number of bins for equal-width, equal-frequency and k-means binning.",
        "等宽、等频和 k-means 分箱的箱数。",
    ),
    "help.threshold": (
        "Release 8 reports the largest training value not above the cut; J48 scans the values in data "
        "order with a 1e-6 tolerance (it can differ in the last digit); the textbooks use the midpoint.",
        "C4.5 第 8 版取不超过切点的最大训练值作为阈值；J48 按数据顺序扫描取值，容差 1e-6（末位可能不同）；教材使用中点。",
    ),
    "help.mdl_penalty": (
        "Release 8 subtracts log2(number of cut points)/N from a continuous test's gain.",
        "第 8 版从连续属性的增益中减去 log2(候选切点数)/N。",
    ),
    "help.min_cases": (
        "A test needs at least two branches with this many rows (C4.5's -m).",
        "一个测试至少要有两个分支各含这么多样本（C4.5 的 -m）。",
    ),
    "help.prune": (
        "Replace subtrees by leaves when the pessimistic error estimate does not rise.",
        "当悲观误差估计不增加时，用叶子替换子树。",
    ),
    "help.confidence_factor": (
        "Smaller values prune more (C4.5's -c, default 0.25).",
        "越小剪得越多（C4.5 的 -c，默认 0.25）。",
    ),
    "help.z": (
        "How the normal deviate for CF is found: release 8's table or the exact quantile (Weka's J48).",
        "CF 对应正态分位数的求法：第 8 版查表，或精确分位数（Weka J48）。",
    ),
    "help.subtree_raising": (
        "Also try replacing a subtree by its largest branch.",
        "同时尝试用最大的分支替换子树。",
    ),
    "help.collapse": (
        "Merge subtrees that make no fewer training errors than a leaf.",
        "合并训练误差不比叶子少的子树。",
    ),
    "opt.gini": ("Gini", "基尼指数"),
    "opt.entropy": ("entropy (information gain)", "熵（信息增益）"),
    "opt.log_loss": ("log loss", "对数损失"),
    "opt.gain": ("information gain", "信息增益"),
    "opt.gain_ratio": ("gain ratio", "增益率"),
    "opt.squared_error": ("squared error (mean)", "平方误差（均值）"),
    "opt.friedman_mse": ("Friedman MSE", "Friedman MSE"),
    "opt.absolute_error": ("absolute error (median)", "绝对误差（中位数）"),
    "opt.poisson": ("Poisson deviance", "泊松偏差"),
    "opt.continuous.threshold": ("binary threshold (best cut)", "二分阈值（最佳切点）"),
    "opt.intervals": ("intervals between distinct values", "相邻取值间的区间"),
    "opt.equal_width": ("equal-width bins", "等宽分箱"),
    "opt.equal_frequency": ("equal-frequency bins", "等频分箱"),
    "opt.kmeans": ("k-means bins", "k-means 分箱"),
    "opt.threshold.r8": ("release 8: largest value ≤ cut", "第 8 版：不超过切点的最大值"),
    "opt.threshold.j48": ("J48: Weka's value", "J48：Weka 的取值"),
    "opt.midpoint": ("midpoint", "中点"),
    "opt.z.c45": ("C4.5's table (release 8)", "C4.5 查表（第 8 版）"),
    "opt.z.normal": ("exact normal quantile", "精确正态分位数"),
    # -- splits page ----------------------------------------------------------------------------
    "splits.title": ("Split explorer", "划分探索"),
    "splits.intro": (
        "Why the tree chose the test at a node, and what every alternative would have scored — with the arithmetic. Click a node of the tree, then a point of a curve to preview that split; you can force it into the tree and undo it.",
        "查看树在某个节点为什么选择这个测试，以及每个备选测试的得分和计算过程。点击树中的节点，再点击曲线上的点可预览该划分；可以把它强制放进树中，也可以撤销。",
    ),
    "splits.model": (
        "Model: {algorithm}, {nodes} nodes (settings on the Train & tree page).",
        "模型：{algorithm}，{nodes} 个节点（参数在“训练与决策树”页设置）。",
    ),
    "splits.node": ("Node", "节点"),
    "splits.node_root": ("#0 · root", "#0 · 根节点"),
    "splits.tree_hint": (
        "Click a node to inspect it (■ test, ● leaf; red outline = forced split)",
        "点击节点进行查看（■ 测试节点，● 叶子；红色粗框 = 强制划分）",
    ),
    "splits.node_counts": ("Rows reaching it: **{n}** ({dist})", "到达该节点的样本：**{n}**（{dist}）"),
    "splits.node_mean": (
        "Rows reaching it: **{n}**, mean target {mean}",
        "到达该节点的样本：**{n}**，目标均值 {mean}",
    ),
    "splits.tree_test": ("The tree tests here: **{test}**", "树在此处的测试：**{test}**"),
    "splits.is_leaf": ("This node is a leaf in the tree.", "该节点在树中是叶子。"),
    "splits.algo_choice": (
        "The algorithm's choice on these rows: **{test}** ({quantity} {score}).",
        "算法在这些样本上的选择：**{test}**（{quantity} {score}）。",
    ),
    "splits.runner_up": ("Runner-up: {test} ({quantity} {score}).", "次优：{test}（{quantity} {score}）。"),
    "splits.leaf_reason": ("The builder stops here: {reason}", "构建算法在此停止：{reason}"),
    "splits.leaf.empty": ("no training rows reach this node.", "没有训练样本到达该节点。"),
    "splits.leaf.min_cases": ("fewer than 2 × min_cases rows.", "样本数少于 2 × min_cases。"),
    "splits.leaf.pure": ("all rows have one class.", "所有样本属于同一类。"),
    "splits.leaf.min_samples_split": (
        "too few rows to split (min_samples_split / min_samples_leaf).",
        "样本太少，无法划分（min_samples_split / min_samples_leaf）。",
    ),
    "splits.leaf.max_depth": ("the depth limit (max_depth).", "达到深度上限（max_depth）。"),
    "splits.leaf.min_weight_leaf": (
        "too little weight for two leaves (min_weight_fraction_leaf).",
        "权重不足以分成两个叶子（min_weight_fraction_leaf）。",
    ),
    "splits.leaf.no_test": ("no test qualifies.", "没有合格的测试。"),
    "splits.leaf.min_impurity_decrease": (
        "the best test's decrease is below min_impurity_decrease.",
        "最佳测试的下降量小于 min_impurity_decrease。",
    ),
    "splits.c45_rule": (
        "C4.5 (release 8): among tests whose gain is at least the average gain ({avg}) − 0.001, the highest gain ratio wins.",
        "C4.5（第 8 版）：在增益不低于平均增益（{avg}）− 0.001 的测试中，取增益率最高者。",
    ),
    "splits.ranking": ("Features ranked by their best test", "按最佳测试排序的特征"),
    "splits.no_rows": ("No training rows reach this node.", "没有训练样本到达该节点。"),
    "splits.candidates": ("Every candidate test of a feature", "某个特征的全部候选测试"),
    "splits.feature": ("Feature", "特征"),
    "splits.score.impurity_decrease": ("impurity decrease at this node", "本节点的不纯度下降"),
    "splits.score.proxy": ("proxy improvement", "代理改进量"),
    "splits.score.gain": ("information gain", "信息增益"),
    "splits.score.gain_ratio": ("gain ratio", "增益率"),
    "splits.weight": ("rows (weight)", "样本数（权重）"),
    "splits.mark.chosen": ("best cut", "最佳切点"),
    "splits.mark.runner_up": ("runner-up", "次优"),
    "splits.mark.ineligible": ("not eligible", "不合格"),
    "splits.mark.picked": ("previewed", "预览中"),
    "splits.mark.candidates": ("candidate cuts", "候选切点"),
    "splits.c45_cuts": (
        "C4.5 cuts need MinSplit = {min_split} weight on each side (grey: fewer); {n} eligible cuts, MDL penalty log₂({n})/N = {penalty} is subtracted from the best gain. The tree stores the largest training value ≤ the cut (dotted line).",
        "C4.5 的切点两侧都需要至少 MinSplit = {min_split} 的权重（灰色：不足）；共 {n} 个合格切点，最佳增益需减去 MDL 惩罚 log₂({n})/N = {penalty}。树中存储的是不超过切点的最大训练值（点线）。",
    ),
    "splits.curve_hint": (
        "Top: the score of every cut x ≤ t. Bottom: the feature's values at this node by class. Click a point to preview that cut.",
        "上：每个切点 x ≤ t 的得分。下：该特征在本节点的取值分布（按类别）。点击一个点可预览该切点。",
    ),
    "splits.subset_hint": (
        "Each bar is a binary test: the listed categories go left. Click a bar to preview it.",
        "每个条形是一个二分测试：列出的类别走左分支。点击条形可预览。",
    ),
    "splits.reason.no_cut": ("No valid cut at this node.", "该节点没有有效切点。"),
    "splits.reason.no_gain": ("No positive gain.", "没有正的增益。"),
    "splits.reason.mdl": ("Gain not positive after the MDL penalty.", "扣除 MDL 惩罚后增益不为正。"),
    "splits.reason.used": ("Already used on the path to this node.", "已在到达该节点的路径上使用过。"),
    "splits.reason.min_cases": (
        "Fewer than two branches with min_cases rows.",
        "少于两个分支包含至少 min_cases 个样本。",
    ),
    "splits.reason.min_leaf": (
        "A branch would have fewer than min_samples_leaf rows.",
        "有分支的样本数少于 min_samples_leaf。",
    ),
    "splits.reason.unsupported": (
        "The criterion does not support this feature here.",
        "该准则在此不支持这个特征。",
    ),
    "splits.reason.no_test": ("No usable test.", "没有可用的测试。"),
    "splits.candidate": ("Candidate to preview (or click the chart)", "要预览的候选（或点击图表）"),
    "splits.preview": ("Preview: {test}", "预览：{test}"),
    "splits.arithmetic": ("Worked arithmetic", "计算过程"),
    "splits.col.branch": ("Branch", "分支"),
    "splits.col.rows": ("Rows", "行数"),
    "splits.col.mean": ("Mean", "均值"),
    "splits.col.rank": ("#", "#"),
    "splits.col.feature": ("Feature", "特征"),
    "splits.col.test": ("Best test", "最佳测试"),
    "splits.col.decrease": ("Impurity decrease", "不纯度下降"),
    "splits.col.weighted_decrease": ("Weighted decrease (N_t/N·Δ)", "加权下降（N_t/N·Δ）"),
    "splits.col.friedman": ("Friedman improvement", "Friedman 改进量"),
    "splits.col.split_impurity": ("Impurity after the split Σ|Dᵛ|/|D|·I(Dᵛ)", "划分后不纯度 Σ|Dᵛ|/|D|·I(Dᵛ)"),
    "splits.one_vs_rest": (
        "One-vs-rest tests (a = v versus a ≠ v, the textbook's Gini(D, a)) next to the optimal subset the tree uses.",
        "一对其余测试（a = v 与 a ≠ v，即教材中的 Gini(D, a)），与树所用的最优子集并列。",
    ),
    "splits.col.gain": ("Gain", "增益"),
    "splits.col.raw_gain": ("Gain before MDL", "MDL 前增益"),
    "splits.col.gain_ratio": ("Gain ratio", "增益率"),
    "splits.col.status": ("Status", "状态"),
    "splits.status.chosen": ("chosen", "选中"),
    "splits.status.runner_up": ("runner-up", "次优"),
    "splits.status.below_average": ("gain below average", "增益低于平均"),
    "splits.force": ("Grow the tree with this test at node #{node}", "在节点 #{node} 使用该测试重新生长"),
    "splits.force_same": ("The tree already tests this here.", "树在此处已是该测试。"),
    "splits.force_empty": ("This test sends all rows down one branch.", "该测试把所有样本都分到同一分支。"),
    "splits.undo": ("Undo the last forced split ({n} in all)", "撤销最近的强制划分（共 {n} 个）"),
    "splits.forced_list": (
        "Forced splits at {nodes}; the Train & tree page shows this tree.",
        "强制划分位于 {nodes}；“训练与决策树”页显示的也是这棵树。",
    ),
    "splits.forced_on_train": (
        "This tree has forced splits at {nodes} (bold outline); undo them on the Splits page.",
        "这棵树在 {nodes} 处有强制划分（粗框）；可在“划分”页撤销。",
    ),
    "splits.ar.ent_D": ("Entropy of the node", "节点的信息熵"),
    "splits.ar.rho": ("Share of the weight whose value is known", "取值已知的样本权重占比"),
    "splits.ar.ent_known": ("Entropy of the rows with a known value", "取值已知样本的信息熵"),
    "splits.ar.branch": ("Branch {branch}: class counts {counts}", "分支 {branch}：各类样本数 {counts}"),
    "splits.ar.gain": ("Information gain", "信息增益"),
    "splits.ar.iv": ("Intrinsic value (split information)", "固有值（分裂信息）"),
    "splits.ar.mdl": ("C4.5's MDL penalty for choosing among the cuts", "C4.5 在多个切点中选择的 MDL 惩罚"),
    "splits.ar.split_info": (
        "C4.5's split information (unknown values as one more branch)",
        "C4.5 的分裂信息（未知值算作一个分支）",
    ),
    "splits.ar.ratio": ("Gain ratio", "增益率"),
    "splits.ar.impurity": ("Impurity of the node", "节点的不纯度"),
    "splits.ar.weighted": ("Weighted impurity of the children", "子节点的加权不纯度"),
    "splits.ar.decrease": ("Decrease at this node", "本节点的下降量"),
    "splits.ar.weighted_decrease": (
        "Weighted by the node's share of all training rows (min_impurity_decrease scale)",
        "按节点占全部训练样本的比例加权（min_impurity_decrease 的尺度）",
    ),
    "splits.ar.mse": ("Mean and mean squared error of the node", "节点的均值与均方误差"),
    "splits.ar.branch_reg": ("Branch {branch}: weight {n}", "分支 {branch}：权重 {n}"),
    # -- pruning page ---------------------------------------------------------------------------
    "prune.title": ("Pruning", "剪枝"),
    "prune.intro": (
        "Post-prune the tree grown on **Train & tree** and compare it before and after. Pruning never changes the trained model.",
        "对 **训练与决策树** 页生成的树做后剪枝，并比较剪枝前后。剪枝不会改动已训练的模型。",
    ),
    "prune.no_model": (
        "Train a tree on the **Train & tree** page first.",
        "请先在 **训练与决策树** 页训练一棵树。",
    ),
    "prune.method": ("Method", "剪枝方法"),
    "prune.method_help": (
        "REP and CCP work on every tree; PEP and C4.5's error-based pruning count misclassifications, so they need a classification tree.",
        "REP 和 CCP 适用于所有树；PEP 和 C4.5 的基于错误率的剪枝统计误分类数，只适用于分类树。",
    ),
    "prune.native": (" · native to {algorithm}", " · {algorithm} 自带"),
    "prune.method.rep": ("Reduced-error pruning (REP)", "错误率降低剪枝（REP）"),
    "prune.method.pep": ("Pessimistic error pruning (PEP)", "悲观错误剪枝（PEP）"),
    "prune.method.ebp": ("C4.5 error-based pruning (EBP)", "C4.5 基于错误率的剪枝（EBP）"),
    "prune.method.ccp": ("Cost-complexity pruning (CCP)", "代价复杂度剪枝（CCP）"),
    "prune.about.rep": (
        "Bottom-up on the validation rows: a subtree becomes a leaf when that does not raise the validation error.",
        "在验证集上自底向上：若把子树替换为叶子不会增加验证误差，就替换。",
    ),
    "prune.about.pep": (
        "Top-down on the training counts: training errors plus ½ per leaf; a subtree becomes a leaf when the leaf's corrected error is within one standard error.",
        "基于训练计数自顶向下：训练误差加上每个叶子 ½；若叶子的修正误差不超过子树修正误差加一个标准误差，就替换为叶子。",
    ),
    "prune.about.ebp": (
        "C4.5's own method: estimate each leaf's errors by the upper confidence limit at CF; replace a subtree by a leaf or by its largest branch when that does not raise the estimate. Smaller CF prunes more.",
        "C4.5 自带的方法：用置信因子 CF 下的置信上限估计每个叶子的错误数；若替换为叶子或最大分支不会增加估计值就替换。CF 越小剪得越多。",
    ),
    "prune.about.ccp": (
        "CART's weakest-link pruning: minimise R(T) + α·leaves. Each α on the slider is a point where the tree loses its weakest subtree.",
        "CART 的最弱连接剪枝：最小化 R(T) + α·叶子数。滑块上的每个 α 都是树剪掉最弱子树的位置。",
    ),
    "prune.regression_note": (
        "This is a regression tree: PEP and C4.5's error-based pruning count misclassifications and apply to classification trees only. Choose REP or cost-complexity pruning.",
        "这是一棵回归树：PEP 和 C4.5 的基于错误率的剪枝统计的是误分类数，只适用于分类树。请选择 REP 或代价复杂度剪枝。",
    ),
    "prune.alpha": ("α (values where the tree changes)", "α（树发生变化的取值）"),
    "prune.alpha_help": (
        "Only the effective α of this tree's pruning path are offered: any α in between gives the same tree as the value below it. 0 = no pruning.",
        "只提供该树剪枝路径上的有效 α：两值之间的任何 α 与较小的那个得到同一棵树。0 = 不剪枝。",
    ),
    "prune.cv": ("Cross-validation folds (0 = off)", "交叉验证折数（0 = 关闭）"),
    "prune.cv_help": (
        "Grow the tree again on k−1 folds, prune it along the path and score it on the held-out fold (Breiman et al.).",
        "在 k−1 折上重新生成树，沿剪枝路径剪枝，并在留出的一折上评估（Breiman 等）。",
    ),
    "prune.one_se": ("1-SE rule", "1-SE 规则"),
    "prune.one_se_help": (
        "Pick the smallest tree whose CV error is within one standard error of the minimum.",
        "选择交叉验证误差不超过最小值加一个标准误差的最小的树。",
    ),
    "prune.use_cv": ("Use the CV choice", "采用交叉验证的选择"),
    "prune.use_valid": ("Use the validation choice", "采用验证集的选择"),
    "prune.cv_result": (
        "{k}-fold cross-validation ({rule}) picks α = {alpha}: {leaves} leaves, CV error {error} ± {se}.",
        "{k} 折交叉验证（{rule}）选择 α = {alpha}：{leaves} 个叶子，交叉验证误差 {error} ± {se}。",
    ),
    "prune.valid_result": (
        "The validation rows ({rule}) pick α = {alpha}: {leaves} leaves, validation error {error}.",
        "验证集（{rule}）选择 α = {alpha}：{leaves} 个叶子，验证误差 {error}。",
    ),
    "prune.rule.min": ("minimum", "最小误差"),
    "prune.rule.1-SE": ("1-SE rule", "1-SE 规则"),
    "prune.cv_off": (
        "Set the folds to 2 or more to cross-validate α.",
        "将折数设为 2 或以上即可交叉验证 α。",
    ),
    "prune.cv_too_many": (
        "{k} folds is more than the {rows} training rows: lower the folds.",
        "{k} 折多于训练集的 {rows} 行：请减少折数。",
    ),
    "prune.running_cv": ("Cross-validating α ({k} folds)…", "正在交叉验证 α（{k} 折）……"),
    "prune.running": ("Pruning…", "正在剪枝……"),
    "prune.cf": ("Confidence factor (CF)", "置信因子 CF"),
    "prune.cf_help": (
        "Smaller values prune more (C4.5's -c, default 0.25).",
        "越小剪得越多（C4.5 的 -c，默认 0.25）。",
    ),
    "prune.needs_valid": (
        "Reduced-error pruning needs validation rows: set a validation share on the **Data** page, then train again.",
        "错误率降低剪枝需要验证集：请在 **数据** 页设置验证集比例，然后重新训练。",
    ),
    "prune.failed": ("Pruning failed: {message}", "剪枝失败：{message}"),
    "prune.c45_grown": (
        "C4.5 prunes while it trains: *before* is its tree as grown; the **Train & tree** page shows it after its own pruning.",
        "C4.5 在训练时就会剪枝：“剪枝前”是生成时的原始树；**训练与决策树** 页显示的是它自身剪枝后的树。",
    ),
    "prune.before_title": (
        "Before: as grown · {nodes} nodes, {leaves} leaves",
        "剪枝前（原始树）· {nodes} 个节点，{leaves} 个叶子",
    ),
    "prune.after_title": (
        "After: {method} · {nodes} nodes, {leaves} leaves",
        "剪枝后：{method} · {nodes} 个节点，{leaves} 个叶子",
    ),
    "prune.tree_legend": (
        "Dashed grey boxes: nodes pruning removes. Bold boxes: tests that become leaves (before) and the new leaves (after).",
        "灰色虚线框：剪枝删除的节点。粗框：变为叶子的测试节点（剪枝前）和新叶子（剪枝后）。",
    ),
    "prune.summary": (
        "{collapsed} test(s) became leaves; {removed} node(s) removed.",
        "{collapsed} 个测试节点变为叶子；删除了 {removed} 个节点。",
    ),
    "prune.raised": (
        "Subtree raising replaced {count} test(s) by their largest branch.",
        "子树上提：{count} 个测试节点被其最大分支取代。",
    ),
    "prune.nothing": (
        "Nothing is pruned at these settings: the tree stays as grown.",
        "在当前设置下没有剪掉任何节点：树保持原样。",
    ),
    "prune.levels": ("Show levels", "显示层数"),
    "prune.arrange": ("Arrange", "排列"),
    "prune.arrange.side": ("side by side", "左右并排"),
    "prune.arrange.stacked": ("one above the other", "上下排列"),
    "prune.levels_folded": (
        "The trees are shown to depth {depth}: deeper subtrees fold into a box. Raise *Show levels* to see more.",
        "两棵树显示到第 {depth} 层：更深的子树折叠为一个方框。调高“显示层数”可查看更多。",
    ),
    "prune.metrics_title": ("Before and after", "剪枝前后对比"),
    "prune.measure": ("Measure", "指标"),
    "prune.before": ("Before", "剪枝前"),
    "prune.after": ("After", "剪枝后"),
    "prune.change": ("Change", "变化"),
    "prune.error_rate": ("Error rate", "错误率"),
    "prune.mse": ("MSE", "均方误差"),
    "prune.charts_title": ("Size against error", "规模与误差"),
    "prune.chart.error_alpha": ("Error against α", "误差随 α 的变化"),
    "prune.chart.leaves_alpha": ("Leaves against α", "叶子数随 α 的变化"),
    "prune.chart.cf": (
        "Tree size and C4.5's estimated errors against CF",
        "树的规模和 C4.5 估计错误数随 CF 的变化",
    ),
    "prune.label.alpha": ("α", "α"),
    "prune.label.error": ("error", "误差"),
    "prune.label.cv": ("{k}-fold CV", "{k} 折交叉验证"),
    "prune.label.band": ("±1 SE", "±1 标准误差"),
    "prune.label.rule": ("CV choice", "交叉验证的选择"),
    "prune.label.chosen": ("chosen", "当前选择"),
    "prune.label.leaves": ("leaves", "叶子数"),
    "prune.label.nodes": ("nodes", "节点数"),
    "prune.label.size": ("size", "规模"),
    "prune.label.estimate": ("estimated errors", "估计错误数"),
    "prune.label.cf": ("confidence factor CF", "置信因子 CF"),
}


def _merge_words() -> None:
    """Add the per-area catalogues of ``ui.words`` (a key already defined here raises)."""
    from ui import words

    for key, pair in words.collected().items():
        if key in CATALOGUE:
            raise ValueError(f"catalogue key {key!r} is defined in ui/i18n.py and in ui.words")
        CATALOGUE[key] = pair


_merge_words()


def translate(key: str, lang: str, **values) -> str:
    """The text for ``key`` in ``lang`` with ``values`` filled in (KeyError if the key is unknown)."""
    en, zh = CATALOGUE[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def option_label(kind: str, value, lang: str) -> str:
    """Label of a select option: catalogue ``opt.<kind>.<value>`` or ``opt.<value>``, else the value."""
    for key in (f"opt.{kind}.{value}", f"opt.{value}"):
        if key in CATALOGUE:
            return translate(key, lang)
    return str(value)
