"""Words of shared links: a setting that is not valid here, what a link carries beyond the settings
(ui/state/url.py: EXTRA_KEYS)."""

WORDS: dict[str, tuple[str, str]] = {
    "url.bad_value": (
        "The link's setting {name}={value} is not valid here ({rule}); the default {default} is used.",
        "链接中的设置 {name}={value} 无效（{rule}），已改用默认值 {default}。",
    ),
    "url.upload_link": (
        "This link was made on an uploaded file, **{name}**, which cannot travel in a link: the "
        "bundled sample is shown instead. Upload the same file on the Data page to see the view "
        "the link describes.",
        "此链接基于上传的文件 **{name}** 生成，文件无法通过链接传递，因此显示的是内置样例。"
        "在数据页上传同一文件即可看到链接所描述的视图。",
    ),
    "url.bad_forced": (
        "The link's forced splits ({value}) do not fit this tree and were left out.",
        "链接中的强制划分（{value}）与当前决策树不符，已忽略。",
    ),
}
