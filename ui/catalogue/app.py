"""The app's title."""

WORDS: dict[str, tuple[str, str]] = {
    "app.title": ("Decision-tree explorer", "决策树探索器"),
    "app.section_failed": (
        "This part of the page could not be shown: an unexpected error occurred (it is in the server's log). "
        "The rest of the page still works; changing a setting or reloading may help.",
        "页面的这一部分无法显示：发生了意外错误（详情已写入服务器日志）。页面其余部分仍可使用；更改设置或刷新页面也许能解决。",
    ),
}
