"""The words of a long table's first rows and its switch (ui/sections/long_table.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "table.all": ("Show all {n} rows", "显示全部 {n} 行"),
    "table.first": ("The first {shown} of {n} rows.", "前 {shown} 行，共 {n} 行。"),
}
