"""dtcore: decision trees (ID3, C4.5, CART) in pure numpy, built to be looked at.

numpy and the standard library are the only imports allowed anywhere in this package.
"""

from dtcore.c45 import C45Classifier
from dtcore.cart import CARTClassifier, CARTRegressor
from dtcore.id3 import ID3Classifier
from dtcore.importers import from_sklearn, load_model
from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, Feature, Schema
from dtcore.tree import Tree, TreeAssembler

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
    "from_sklearn",
    "load_model",
]
