"""The help text of each training parameter (``help.<param>``; ``param.<param>`` is its label)."""

WORDS: dict[str, tuple[str, str]] = {
    "help.max_depth": ("Stop splitting at this depth (pre-pruning).", "达到该深度后不再划分（预剪枝）。"),
    "help.min_samples_split": (
        "A node with fewer (weighted) rows becomes a leaf.",
        "样本数（加权）少于此值的节点成为叶节点。",
    ),
    "help.min_samples_leaf": (
        "Every child of a split must keep at least this many rows.",
        "划分后的每个子节点至少保留这么多样本。",
    ),
    "help.min_impurity_decrease": (
        "Split only when N_t/N · (impurity decrease) reaches this (scikit-learn's rule).",
        "仅当 N_t/N ·（不纯度下降）达到该值时才划分（与 scikit-learn 相同）。",
    ),
    "help.max_leaf_nodes": (
        "Grow best-first and stop at this many leaves.",
        "按最优优先生长，叶节点数达到该值即停止。",
    ),
    "help.continuous": (
        "How ID3 uses numbers: one binary cut, one branch per interval between distinct values, or pre-binning.",
        "ID3 如何处理数值：一个二分切点、相邻取值之间每个区间一个分支，或预先分箱。",
    ),
    "help.n_bins": (
        "Number of bins for equal-width, equal-frequency and k-means binning.",
        "等宽、等频和 k-means 分箱的箱数。",
    ),
    "help.threshold": (
        "Release 8 reports the largest training value not above the cut; J48 scans the values in data "
        "order with a 1e-6 tolerance (it can differ in the last digit); the textbooks use the midpoint.",
        "C4.5 第 8 版取不超过切点的最大训练值作为阈值；J48 按数据顺序扫描取值，容差 1e-6（末位可能不同）；教材使用中点。",
    ),
    "help.mdl_penalty": (
        "Release 8 subtracts log2(number of cut points)/N from a continuous test's gain.",
        "第 8 版从连续属性的增益中减去 log2(候选切点数)/N。",
    ),
    "help.min_cases": (
        "A test needs at least two branches with this many rows (C4.5's -m).",
        "一个测试至少要有两个分支各含这么多样本（C4.5 的 -m）。",
    ),
    "help.prune": (
        "Replace subtrees by leaves when the pessimistic error estimate does not rise.",
        "当悲观误差估计不增加时，用叶节点替换子树。",
    ),
    "help.confidence_factor": (
        "Smaller values prune more (C4.5's -c, default 0.25).",
        "越小剪得越多（C4.5 的 -c，默认 0.25）。",
    ),
    "help.z": (
        "How the normal deviate for CF is found: release 8's table or the exact quantile (Weka's J48).",
        "CF 对应正态分位数的求法：第 8 版查表，或精确分位数（Weka J48）。",
    ),
    "help.subtree_raising": (
        "Also try replacing a subtree by its largest branch.",
        "同时尝试用最大的分支替换子树。",
    ),
    "help.collapse": (
        "Merge subtrees that make no fewer training errors than a leaf.",
        "合并训练误差不比叶节点少的子树。",
    ),
    "help.splitter": (
        "exact: every threshold between sorted values. histogram: each feature binned once into at "
        "most *Bins* bins (quantile edges; exact when a feature has no more distinct values), then "
        "split at bin edges, level by level: much faster on large tables. Grows level by level, so "
        "*Max leaves* must be 0.",
        "精确：在排序后的取值之间尝试每个阈值。直方图：每个特征先分成至多 *分箱数* 个箱（分位数边界；"
        "取值个数不超过时即精确），再在箱边界处逐层切分：大表上快得多。逐层生长，*最多叶节点数* 须为 0。",
    ),
    "help.max_bins": (
        "Bins per continuous feature for the histogram split search (2 … 65535; categorical features "
        "keep one bin per category, missing values one more). Used only with *histogram*.",
        "直方图切分搜索中每个连续特征的箱数（2 … 65535；类别特征每个类别一箱，缺失值另占一箱）。"
        "仅在 *直方图* 下使用。",
    ),
}
