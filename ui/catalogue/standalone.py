"""The standalone HTML page's own words (``dtcore.export.html.PAGE_WORDS`` keys), for the page the
Train page downloads: the English is dtcore's, word for word."""

WORDS: dict[str, tuple[str, str]] = {
    "standalone.heading": ("{target}: {algorithm} {task} tree", "{target}：{algorithm} {task}决策树"),
    "standalone.meta": (
        "{nodes} nodes · {leaves} leaves · depth {depth} · {features} features",
        "{nodes} 个节点 · {leaves} 个叶节点 · 深度 {depth} · {features} 个特征",
    ),
    "standalone.search": ("Search", "搜索"),
    "standalone.search_placeholder": ("feature or label", "特征或标签"),
    "standalone.unfold_all": ("unfold all", "全部展开"),
    "standalone.trace": ("Trace a sample", "追踪一条样本"),
    "standalone.show_path": ("show path", "显示路径"),
    "standalone.clear": ("clear", "清除"),
    "standalone.missing": ("(missing)", "（缺失）"),
    "standalone.fit": ("fit", "适应窗口"),
    "standalone.hint": (
        "drag to pan · wheel to zoom · click a node to fold or unfold it",
        "拖动平移 · 滚轮缩放 · 点击节点折叠或展开其子树",
    ),
    "standalone.folded_badge": ("+{n} folded", "+{n} 个已折叠"),
    "standalone.folds": ("{n} subtree(s) folded", "已折叠 {n} 棵子树"),
    "standalone.matches": ("{n} node(s) match", "{n} 个节点匹配"),
    "standalone.matches_inside": (", {n} in folded subtrees", "，其中 {n} 个在折叠的子树中"),
    "standalone.predicted_class": ("predicted class {label} ({shares})", "预测类别 {label}（{shares}）"),
    "standalone.list_sep": (", ", "，"),
    "standalone.predicted_value": ("predicted value {value}", "预测值 {value}"),
    "standalone.raw_score": ("raw score of this tree {value}", "这棵树的原始得分 {value}"),
    "standalone.path": ("{prediction}; path through node(s) {nodes}", "{prediction}；经过节点 {nodes}"),
    "standalone.shared": (
        " (a missing value went down every branch, weighted by training share)",
        "（缺失值按训练权重的比例进入每个分支）",
    ),
}
