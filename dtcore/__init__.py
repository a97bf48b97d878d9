"""dtcore: decision trees (ID3, C4.5, CART) in pure numpy, built to be looked at.

numpy and the standard library are the only imports allowed anywhere in this package.
"""

#: the one place the version is written: pyproject.toml reads it (``dynamic = ["version"]``), and so
#: do ``dtcore --version``, the wheel's metadata and the changelog test (tests/test_docs_site.py)
__version__ = "0.2.0"

from dtcore.base import BaseTreeEstimator
from dtcore.c45 import C45Classifier
from dtcore.cart import CARTClassifier, CARTRegressor
from dtcore.export.notebook import TreeView, repr_html, show
from dtcore.id3 import ID3Classifier
from dtcore.importers import from_sklearn, load_model
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, Feature, Schema
from dtcore.tree import Tree, TreeAssembler

BaseTreeEstimator.html_view = repr_html  # the estimators' notebook display (_repr_html_)

__all__ = [
    "CATEGORICAL",
    "CONTINUOUS",
    "C45Classifier",
    "CARTClassifier",
    "CARTRegressor",
    "DataError",
    "Feature",
    "ID3Classifier",
    "Schema",
    "Tree",
    "TreeAssembler",
    "TreeView",
    "show",
    "from_sklearn",
    "load_model",
]
