"""The download section's words: model, picture, rules and code formats (ui/sections/downloads.py)."""

WORDS: dict[str, tuple[str, str]] = {
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
    "download.pdf": ("PDF", "PDF"),
    "download.html": ("HTML page", "HTML 网页"),
    "download.too_big": (
        "No pictures of this tree ({nodes} nodes): above {limit} nodes Graphviz takes half a minute "
        "and more to lay one out. Download the .dot file and run dot -Tsvg on it, or prune the tree.",
        "不提供这棵树（{nodes} 个节点）的图片：超过 {limit} 个节点时，Graphviz 排版一张图要半分钟以上。"
        "请下载 .dot 文件并用 dot -Tsvg 生成，或先剪枝。",
    ),
    "download.html_help": (
        "The tree as one HTML file that opens offline in any browser: pan, zoom, fold subtrees, "
        "search, and trace a sample's path.",
        "把决策树存为一个 HTML 文件，任何浏览器离线即可打开：平移、缩放、折叠子树、搜索，并追踪一条样本的路径。",
    ),
    "download.python": ("Python function", "Python 函数"),
    "download.sql": ("SQL query", "SQL 查询"),
    "download.code_help": (
        "predict(row) in plain Python (C4.5's missing-value rule included), or one SELECT with "
        "CASE WHEN (NULL = missing; at C4.5's shared-out tests a NULL follows the heaviest branch).",
        "纯 Python 的 predict(row)（含 C4.5 的缺失值规则），或一条带 CASE WHEN 的 SELECT"
        "（NULL 表示缺失；在 C4.5 按比例分配的测试上，NULL 走训练权重最大的分支）。",
    ),
}
