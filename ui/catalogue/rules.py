"""The title of the text rules."""

WORDS: dict[str, tuple[str, str]] = {
    "rules.title": ("Rules", "规则"),
}
