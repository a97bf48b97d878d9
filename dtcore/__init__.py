"""dtcore: decision trees (ID3, C4.5, CART) in pure numpy, built to be looked at.

numpy and the standard library are the only imports allowed anywhere in this package.
"""

from dtcore.schema import CATEGORICAL, CONTINUOUS, DataError, Feature, Schema
from dtcore.tree import Tree, TreeAssembler

__all__ = ["CATEGORICAL", "CONTINUOUS", "DataError", "Feature", "Schema", "Tree", "TreeAssembler"]
