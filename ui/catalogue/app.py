"""The app's title."""

WORDS: dict[str, tuple[str, str]] = {
    "app.title": ("Decision-tree explorer", "决策树探索器"),
}
