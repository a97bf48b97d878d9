"""Load errors (``ui.services.loading.LoadError`` keys)."""

WORDS: dict[str, tuple[str, str]] = {
    "load.unknown_sample": ("there is no bundled sample called {name}.", "没有名为 {name} 的内置样例。"),
    "load.xls": (
        "old Excel .xls files are not supported; save as .xlsx or CSV.",
        "不支持旧版 Excel .xls 文件；请另存为 .xlsx 或 CSV。",
    ),
    "load.unknown_format": (
        "files ending in {suffix} are not supported (use {formats}).",
        "不支持扩展名为 {suffix} 的文件（请使用 {formats}）。",
    ),
    "load.empty": ("the file is empty.", "文件是空的。"),
    "load.bad_file": ("{detail}", "{detail}"),
    "load.bad_excel": (
        "this is not a readable Excel .xlsx file ({detail}).",
        "这不是可读取的 Excel .xlsx 文件（{detail}）。",
    ),
    "load.bad_parquet": (
        "this is not a readable Parquet file ({detail}).",
        "这不是可读取的 Parquet 文件（{detail}）。",
    ),
    "load.no_rows": ("the file has column names but no data rows.", "文件只有列名，没有数据行。"),
    "load.one_column": (
        "the file has a single column: a tree needs at least one feature and a target (wrong delimiter?).",
        "文件只有一列：决策树至少需要一个特征和一个目标（分隔符不对？）。",
    ),
    "load.limit.rows": (
        "the file is too large to load: more than {limit} data rows (the limit, set by {env}).",
        "文件太大，无法加载：数据行超过 {limit} 行（上限，由 {env} 设置）。",
    ),
    "load.limit.columns": (
        "the file is too large to load: more than {limit} columns (the limit, set by {env}).",
        "文件太大，无法加载：列数超过 {limit} 列（上限，由 {env} 设置）。",
    ),
    "load.limit.cells": (
        "the file is too large to load: more than {limit} cells, rows × columns (the limit, set by {env}).",
        "文件太大，无法加载：单元格（行 × 列）超过 {limit} 个（上限，由 {env} 设置）。",
    ),
    "load.limit.cell_chars": (
        "the file is too large to load: a cell holds more than {limit} characters (the limit, set by {env}).",
        "文件太大，无法加载：有单元格超过 {limit} 个字符（上限，由 {env} 设置）。",
    ),
    "load.limit.name_chars": (
        "the file cannot be loaded: a column name or declared label holds more than {limit} characters (the limit, set by {env}).",
        "文件无法加载：有列名或声明的类别标签超过 {limit} 个字符（上限，由 {env} 设置）。",
    ),
    "load.limit.bytes": (
        "the file is too large to load: more than {limit} bytes once decoded or unzipped (the limit, set by {env}).",
        "文件太大，无法加载：解码或解压后超过 {limit} 字节（上限，由 {env} 设置）。",
    ),
    "load.out_of_memory": (
        "the file is too large to load: the server ran out of memory reading it (limits: {rows} rows, {columns} columns, {cells} cells; see docs/operators.md, Limits).",
        "文件太大，无法加载：读取时服务器内存不足（上限：{rows} 行、{columns} 列、{cells} 个单元格；见 docs/operators.md 的 Limits 一节）。",
    ),
    "load.unnamed_column": (
        "column {position} has no name in the header row.",
        "表头第 {position} 列没有名称。",
    ),
    "load.duplicate_columns": (
        "duplicate column names: {names}. Rename them so each is unique.",
        "列名重复：{names}。请重命名使每列唯一。",
    ),
}
