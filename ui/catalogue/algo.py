"""Names of the algorithms (``dtcore.estimators`` registry keys)."""

WORDS: dict[str, tuple[str, str]] = {
    "algo.c45": ("C4.5", "C4.5"),
    "algo.cart": ("CART", "CART"),
    "algo.id3": ("ID3", "ID3"),
}
