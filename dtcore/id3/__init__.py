"""ID3 (Quinlan 1986): multiway splits chosen by information gain (``estimator``)."""
