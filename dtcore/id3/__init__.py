"""ID3 (Quinlan 1986): multiway splits chosen by information gain (``estimator``)."""

from dtcore.id3.estimator import ID3Classifier

__all__ = ["ID3Classifier"]
