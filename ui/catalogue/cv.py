"""The switch that asks for cross-validation on a large table (ui/sections/cv_switch.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "cv.ask": ("Cross-validate ({k} folds)", "交叉验证（{k} 折）"),
    "cv.ask.help": (
        "Fits every tree {k} more times on {rows} training rows; a bar shows each fold.",
        "在 {rows} 行训练数据上把每棵树再拟合 {k} 次；进度条显示每一折。",
    ),
    "cv.off": (
        "Cross-validation is off on {rows} training rows: it fits every tree {k} more times. Switch it on above to run it.",
        "在 {rows} 行训练数据上未做交叉验证：它要把每棵树再拟合 {k} 次。打开上方的开关即可运行。",
    ),
}
