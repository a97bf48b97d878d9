"""Role warnings and errors (``dtcore.data.roles`` Issue codes)."""

WORDS: dict[str, tuple[str, str]] = {
    "roles.identifier": (
        "**{column}** has one value per row, like an identifier: ID3 would split on it first and learn nothing. Set it to *ignore*.",
        "**{column}** 每行取值都不同，像是编号：ID3 会首先选择它却学不到任何东西。请设为“忽略”。",
    ),
    "roles.constant": (
        "**{column}** has a single value: it cannot split anything.",
        "**{column}** 只有一个取值，无法用于划分。",
    ),
    "roles.decimal_comma": (
        "**{column}** looks like numbers with decimal commas (1,5): it is read as labels. Save the file with decimal points to use it as a number.",
        "**{column}** 看起来是使用小数逗号的数字（1,5）：目前按标签读取。请用小数点保存文件，才能作为数值使用。",
    ),
    "roles.all_missing": (
        "**{column}** is missing in all {count} rows: it holds no value and cannot split anything.",
        "**{column}** 全部 {count} 行都缺失：没有任何取值，无法用于划分。",
    ),
    "roles.many_categories": (
        "**{column}** has {count} categories: multiway splits on it will be very wide.",
        "**{column}** 有 {count} 个类别：按它的多路划分会非常宽。",
    ),
    "roles.missing": (
        "**{column}** is missing in {count} rows (handled as missing values).",
        "**{column}** 有 {count} 行缺失（按缺失值处理）。",
    ),
    "roles.missing_summary": (
        "{count} feature column(s) have missing cells ({rows} in all, see *Missing*): the learners treat them as missing values, not as a category.",
        "{count} 个特征列有缺失单元格（共 {rows} 个，见“缺失”列）：学习算法将其作为缺失值处理，而不是一个类别。",
    ),
    "roles.target_missing": (
        "The target **{column}** is missing in {count} rows: those rows are left out.",
        "目标 **{column}** 有 {count} 行缺失：这些行不参与训练。",
    ),
    "roles.no_target": ("Choose a target column.", "请选择目标列。"),
    "roles.many_targets": (
        "Only one column can be the target (now: {column}).",
        "只能有一个目标列（当前：{column}）。",
    ),
    "roles.no_features": (
        "No feature columns: mark at least one column continuous or categorical.",
        "没有特征列：请至少将一列设为连续或离散。",
    ),
    "roles.not_numeric": (
        "**{column}** holds labels, so it cannot be continuous: make it categorical.",
        "**{column}** 含有非数值的标签，不能设为连续：请设为离散。",
    ),
    "roles.regression_labels": (
        "The target **{column}** holds labels: a regression tree needs numbers. Choose classification.",
        "目标 **{column}** 含有标签：回归树需要数值目标。请选择分类。",
    ),
    "roles.single_class": (
        "The target **{column}** has only {count} distinct value(s): there is nothing to learn.",
        "目标 **{column}** 只有 {count} 个不同取值：没有可学习的内容。",
    ),
}
