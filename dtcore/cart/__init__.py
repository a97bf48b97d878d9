"""CART (Breiman et al.), as scikit-learn grows it: the estimators (``estimator``), the level-wise
and best-first builders with their stop rules (``grower``), the exact split search over sorted
arrays (``splitter``), the categorical subset scan (``categorical``) and histogram split finding
(``hist/``)."""

from dtcore.cart.estimator import CARTClassifier, CARTRegressor

__all__ = ["CARTClassifier", "CARTRegressor"]
