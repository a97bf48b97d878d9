"""Page titles in the navigation (``nav.<page>``) and the big-tree navigation: overview map, focused
view, search, the node budget."""

WORDS: dict[str, tuple[str, str]] = {
    "nav.data": ("Data", "数据"),
    "nav.train": ("Train & tree", "训练与决策树"),
    "nav.splits": ("Splits", "划分探索"),
    "nav.prune": ("Pruning", "剪枝"),
    "nav.compare": ("Compare", "算法比较"),
    "nav.growth": ("Growth", "生长过程"),
    "nav.big": (
        "This tree has {nodes} nodes: it opens focused on one node. Find nodes, click the overview "
        "map or a node in the picture to move the focus.",
        "这棵树有 {nodes} 个节点：视图聚焦于一个节点。可以搜索节点、点击概览图或图中的节点来移动焦点。",
    ),
    "nav.overview": ("Overview map", "概览图"),
    "nav.overview_help": (
        "Area = training samples, colour = majority class (lighter = less pure) or the mean. "
        "Click a node to focus the tree view on it.",
        "面积 = 训练样本数，颜色 = 多数类（越浅越不纯）或均值。点击节点，树视图就聚焦到该节点。",
    ),
    "nav.mean": ("mean", "均值"),
    "nav.window": ("Levels below the focus", "焦点以下显示层数"),
    "nav.up": ("Up one level", "上移一层"),
    "nav.root": ("Back to the root", "回到根节点"),
    "nav.focus": ("Focused on node #{node}", "聚焦于节点 #{node}"),
    "nav.find": ("Find", "查找"),
    "nav.query.feature": ("nodes testing a feature", "按特征查找测试节点"),
    "nav.query.class": ("leaves of a class", "某一类别的叶节点"),
    "nav.query.value": ("leaves with a value in a range", "取值在范围内的叶节点"),
    "nav.query.fewest": ("leaves with fewest samples", "样本最少的叶节点"),
    "nav.query.purest": ("purest leaves", "最纯的叶节点"),
    "nav.query.least_pure": ("least pure leaves", "最不纯的叶节点"),
    "nav.query.valid_error": ("largest error on validation", "验证集误差最大的叶节点"),
    "nav.feature": ("Feature", "特征"),
    "nav.class": ("Class", "类别"),
    "nav.range": ("Value range", "取值范围"),
    "nav.results": ("Results ({count})", "结果（{count} 个）"),
    "nav.pick": ("pick a node to focus on", "选择要聚焦的节点"),
    "nav.no_valid": (
        "No validation rows: set a validation share on the Data page.",
        "没有验证集：请在数据页设置验证集比例。",
    ),
    "nav.show": ("Show", "显示"),
    "nav.show.focus": ("focused view", "聚焦视图"),
    "nav.show.whole": ("whole tree", "整棵树"),
    "nav.refuse": (
        "The whole tree has {nodes} nodes, more than can be drawn at once ({limit}). Use the "
        "overview map and the focused view, or download the .dot file.",
        "整棵树有 {nodes} 个节点，超过一次能绘制的上限（{limit}）。请使用概览图和聚焦视图，或下载 .dot 文件。",
    ),
    "nav.server": (
        "Drawn on the server by Graphviz ({nodes} nodes): scroll to zoom, drag to pan.",
        "由服务器端的 Graphviz 绘制（{nodes} 个节点）：滚轮缩放，拖动平移。",
    ),
    "nav.fit": ("fit", "适应窗口"),
    "nav.splits_hint": (
        "Click a node to inspect it (bold outline = selected node or forced split; a dashed box is "
        "a folded subtree: click it to open). Scroll to zoom, drag to pan.",
        "点击节点进行查看（粗框 = 选中的节点或强制划分；虚线框是折叠的子树：点击展开）。滚轮缩放，拖动平移。",
    ),
    "nav.hit": ("#{node} · {text} · {samples} samples", "#{node} · {text} · {samples} 个样本"),
}
