"""Column notes on the Data page (``dtcore.data.roles`` Issue codes, short form)."""

WORDS: dict[str, tuple[str, str]] = {
    "note.identifier": ("one value per row", "每行取值不同"),
    "note.constant": ("single value", "只有一个取值"),
    "note.decimal_comma": ("decimal commas?", "小数逗号？"),
    "note.all_missing": ("no values", "全部缺失"),
    "note.many_categories": ("many categories", "类别很多"),
    "note.missing": ("missing values", "有缺失值"),
    "note.target_missing": ("missing targets", "目标有缺失"),
    "note.not_numeric": ("not numbers", "不是数值"),
    "note.regression_labels": ("labels, not numbers", "标签而非数值"),
    "note.single_class": ("single class", "只有一个类别"),
}
