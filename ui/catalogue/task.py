"""Names of the tasks."""

WORDS: dict[str, tuple[str, str]] = {
    "task.classification": ("classification", "分类"),
    "task.regression": ("regression", "回归"),
}
