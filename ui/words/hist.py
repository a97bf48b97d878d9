"""Words of CART's histogram splitter on the Train page (``splitter``, ``max_bins``: dtcore/cart/estimator.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "param.splitter": ("Split search", "切分搜索"),
    "help.splitter": (
        "exact: every threshold between sorted values. histogram: each feature binned once into at "
        "most *Bins* bins (quantile edges; exact when a feature has no more distinct values), then "
        "split at bin edges, level by level: much faster on large tables. Grows level by level, so "
        "*Max leaves* must be 0.",
        "精确：在排序后的取值之间尝试每个阈值。直方图：每个特征先分成至多 *分箱数* 个箱（分位数边界；"
        "取值个数不超过时即精确），再在箱边界处逐层切分：大表上快得多。逐层生长，*最多叶子数* 须为 0。",
    ),
    "opt.splitter.best": ("exact (sorted values)", "精确（排序取值）"),
    "opt.splitter.hist": ("histogram (binned)", "直方图（分箱）"),
    "param.max_bins": ("Bins (histogram)", "分箱数（直方图）"),
    "help.max_bins": (
        "Bins per continuous feature for the histogram split search (2 … 65535; categorical features "
        "keep one bin per category, missing values one more). Used only with *histogram*.",
        "直方图切分搜索中每个连续特征的箱数（2 … 65535；类别特征每个类别一箱，缺失值另占一箱）。"
        "仅在 *直方图* 下使用。",
    ),
}
