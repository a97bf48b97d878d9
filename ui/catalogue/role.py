"""Names of the column roles (the Data page's role selector)."""

WORDS: dict[str, tuple[str, str]] = {
    "role.continuous": ("continuous", "连续"),
    "role.categorical": ("categorical", "离散"),
    "role.ignore": ("ignore", "忽略"),
    "role.target": ("target", "目标"),
}
