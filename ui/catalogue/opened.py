"""The "Open a model" box (Data page) and the opened model's view (Train page)."""

WORDS: dict[str, tuple[str, str]] = {
    "opened.box": ("Open a model", "打开模型"),
    "opened.upload": ("Model file", "模型文件"),
    "opened.upload_help": (
        'A dtcore model JSON, an XGBoost JSON model (save_model("m.json")), a LightGBM model '
        "(dump_model JSON or the text model) or a PMML TreeModel. No pickles: for scikit-learn, run "
        'dtcore.from_sklearn(model).save("m.json") in Python and open m.json.',
        'dtcore 模型 JSON、XGBoost JSON 模型（save_model("m.json")）、LightGBM 模型（dump_model 的 JSON '
        "或文本模型）或 PMML TreeModel。不接受 pickle：scikit-learn 模型请在 Python 中运行 "
        'dtcore.from_sklearn(model).save("m.json")，再打开 m.json。',
    ),
    "opened.tree": ("Tree of the ensemble", "集成中的第几棵树"),
    "opened.tree_help": (
        "Which member tree to show (0 is the first); a dtcore model holds one tree.",
        "显示哪一棵成员树（0 为第一棵）；dtcore 模型只有一棵树。",
    ),
    "opened.close": ("Close the model and train on the data", "关闭模型，改为用数据训练"),
    "opened.current": ("Open: **{name}** — {source}.", "已打开：**{name}** —— {source}。"),
    "opened.member": ("tree {member} of {n}", "共 {n} 棵中的第 {member} 棵"),
    "opened.raw_score": (
        "Its leaves hold a raw score (a log-odds or margin contribution), not a probability.",
        "叶节点上的值是原始得分（对数几率或边际贡献），不是概率。",
    ),
    "opened.output": ("It scores class {output}.", "它为类别 {output} 打分。"),
    "opened.note": ("Source: {note}.", "来源说明：{note}。"),
    "opened.title": ("Opened model", "打开的模型"),
    "opened.summary": (
        "{nodes} nodes, {leaves} leaves, depth {depth}; features: {features}.",
        "{nodes} 个节点，{leaves} 个叶节点，深度 {depth}；特征：{features}。",
    ),
    "opened.needs_data": (
        "Shown as the file holds it. Scores on held-out rows, node data, what-if and pruning need "
        "labelled rows: load a table with the columns {columns} on the Data page.",
        "按文件内容显示。留出行上的得分、节点数据、假设分析和剪枝需要带标签的数据：请在数据页加载含有 "
        "{columns} 这些列的表格。",
    ),
    "opened.lacking": (
        "The data on the Data page lack the model's columns {columns}: scores, node data, what-if "
        "and pruning need them. The tree is shown as the file holds it.",
        "数据页上的数据缺少模型的列 {columns}：得分、节点数据、假设分析和剪枝需要这些列。下面按文件内容显示这棵树。",
    ),
    "opened.target_stand_in": (
        "The model calls its target {model}, a column the data do not have; the Data page's target "
        "{data} stands in for it.",
        "模型把目标称为 {model}，数据中没有这一列；这里用数据页选定的目标 {data} 代替它。",
    ),
    "opened.data_hint": (
        "Optional: data loaded on this page with the model's feature columns and its target give "
        "the opened model scores on held-out rows, node data, what-if and pruning.",
        "可选：在本页加载含有模型特征列和目标列的数据后，打开的模型即可显示留出行上的得分、节点数据、假设分析和剪枝。",
    ),
    "opened.restated": (
        "Node statistics (rows, class counts or means, impurities) recomputed from the {rows} "
        "training rows of the data; the held-out rows score it below.",
        "节点统计（行数、类别计数或均值、不纯度）已由数据中的 {rows} 个训练行重新计算；下面用留出行为它打分。",
    ),
    "opened.restated_all": (
        "Node statistics (rows, class counts or means, impurities) recomputed from the {rows} rows "
        "of the data; no rows are held out, so the scores below are on the same rows.",
        "节点统计（行数、类别计数或均值、不纯度）已由数据中的 {rows} 行重新计算；没有留出行，因此下面的得分也基于这些行。",
    ),
    "opened.changed": (
        "Leaves that now predict differently from the file: {count}. These rows are not the rows "
        "the model was trained on.",
        "预测与文件中不同的叶节点：{count} 个。这些行不是训练该模型所用的行。",
    ),
    "opened.own_statistics": (
        "A dtcore model file keeps its own training statistics; the data score it below.",
        "dtcore 模型文件保存着它自己的训练统计；下面用这些数据为它打分。",
    ),
    "opened.raw_counted": (
        "Rows per node counted from the {rows} rows of the data. The leaves keep their raw scores, "
        "so scores, what-if and pruning do not apply to this tree.",
        "每个节点的行数已由数据中的 {rows} 行统计。叶节点保留其原始分数，因此得分、假设分析和剪枝不适用于这棵树。",
    ),
    "opened.data_failed": (
        "The data do not fit the model: {detail}",
        "数据与模型不符：{detail}",
    ),
    "opened.data_no_rows": (
        "The row split leaves no training rows to recompute the statistics from.",
        "行划分后没有训练行可用于重新计算统计。",
    ),
    "opened.prune_link": ("Prune this tree", "剪枝这棵树"),
    "opened.rules": ("The tree as rules", "树的规则形式"),
    "opened.download": ("Download as a dtcore model (JSON)", "下载为 dtcore 模型（JSON）"),
    "opened.failed": ("{detail}", "{detail}"),
    "opened.failed_title": ("Could not open {name}: {message}", "无法打开 {name}：{message}"),
    "opened.not_text": (
        "the file is not UTF-8 text (model files are JSON, LightGBM text or PMML XML; pickles are not opened).",
        "文件不是 UTF-8 文本（模型文件应为 JSON、LightGBM 文本或 PMML XML；不打开 pickle）。",
    ),
    "opened.too_big": ("the file is larger than {mb} MB.", "文件超过 {mb} MB。"),
    "opened.reopen": (
        "This link was made with the model file **{name}** open: open it again under Open a model on the Data page.",
        "此链接创建时打开了模型文件 **{name}**：请在数据页的“打开模型”中重新打开它。",
    ),
}
