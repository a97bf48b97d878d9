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
        "叶子上的值是原始得分（对数几率或边际贡献），不是概率。",
    ),
    "opened.output": ("It scores class {output}.", "它为类别 {output} 打分。"),
    "opened.note": ("Source: {note}.", "来源说明：{note}。"),
    "opened.title": ("Opened model", "打开的模型"),
    "opened.summary": (
        "{nodes} nodes, {leaves} leaves, depth {depth}; features: {features}.",
        "{nodes} 个节点，{leaves} 个叶子，深度 {depth}；特征：{features}。",
    ),
    "opened.no_data_views": (
        "This page shows the opened model as the file holds it; scores, what-if and node data "
        "need training data and are shown for trained models only.",
        "本页按文件内容显示打开的模型；得分、假设分析和节点数据需要训练数据，只对训练得到的模型显示。",
    ),
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
