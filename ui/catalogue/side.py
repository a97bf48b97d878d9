"""The sidebar's words: language, current data and model, the shared link."""

WORDS: dict[str, tuple[str, str]] = {
    "side.language": ("Language / 语言", "语言 / Language"),
    "side.data": ("Data", "数据"),
    "side.no_data": ("No data loaded.", "尚未加载数据。"),
    "side.data_summary": ("**{name}** · {rows} rows × {cols} columns", "**{name}** · {rows} 行 × {cols} 列"),
    "side.target": ("Target: **{target}** ({task})", "目标：**{target}**（{task}）"),
    "side.model": ("Model", "模型"),
    "side.no_model": ("Not trained yet.", "尚未训练。"),
    "side.model_summary": (
        "{algorithm} · {nodes} nodes · depth {depth} · {leaves} leaves",
        "{algorithm} · {nodes} 个节点 · 深度 {depth} · {leaves} 个叶节点",
    ),
    "side.opened_summary": (
        "Opened **{name}** (tree {tree}) · {nodes} nodes · depth {depth} · {leaves} leaves",
        "已打开 **{name}**（第 {tree} 棵树）· {nodes} 个节点 · 深度 {depth} · {leaves} 个叶节点",
    ),
    "side.url_note": (
        "The address bar holds this view (sample, algorithm, settings, selected node): copy it to share.",
        "地址栏记录了当前视图（样例、算法、参数、选中的节点），复制即可分享。",
    ),
    "side.upload_url_note": (
        "Uploaded files cannot travel in a link: a shared link opens the bundled sample instead.",
        "上传的文件无法通过链接分享：分享的链接会打开内置样例。",
    ),
}
