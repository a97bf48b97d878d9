"""Captions of the regression impurity line of the worked arithmetic, one per criterion."""

WORDS: dict[str, tuple[str, str]] = {
    "splits.ar.ae": (
        "Absolute error of the node around its median (the criterion's impurity)",
        "节点相对其中位数的平均绝对误差（该准则的不纯度）",
    ),
    "splits.ar.dev": (
        "Poisson deviance of the node (the criterion's impurity)",
        "节点的泊松偏差（该准则的不纯度）",
    ),
}
