"""CART with histogram split finding (``splitter="hist"``): each feature is binned once into at
most ``max_bins`` bins plus one for missing values (``binning``), and each level of the tree
needs only per-(node, feature, bin) sums (``histograms``), which add up across row blocks: the
same grower (``grower``) runs on arrays in memory and, in ``dtdask``, on Dask partitions.

Supported criteria: gini, entropy/log_loss, squared_error, friedman_mse (their impurities follow
from channel sums); absolute_error and poisson need the rows and raise a ValueError.  Growth is
level-wise only (``max_leaf_nodes`` needs ``splitter="best"``).

Equivalence: when every continuous feature has at most ``max_bins`` distinct values (further
apart than 1e-7), the candidates, proxies, thresholds (midpoints, ``cart.splitter.midpoints``), tie
order, missing-value directions, categorical subsets and stop rules are the exact splitter's,
so ``splitter="hist"`` grows the tree ``splitter="best"`` grows (regression sums may differ in
the last bits, as they are added in another order).  Otherwise a threshold is a bin edge.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dtcore.cart.hist.binning import DEFAULT_MAX_BINS, Bins, fit_bins, fit_transform
from dtcore.cart.hist.grower import HIST_CRITERIA, check_criterion, grow_hist
from dtcore.cart.hist.histograms import InMemoryHistograms, Layout
from dtcore.cart.rules import GrowParams
from dtcore.tree import Tree

__all__ = [
    "DEFAULT_MAX_BINS",
    "HIST_CRITERIA",
    "Bins",
    "check_criterion",
    "fit_bins",
    "grow_hist",
    "grow_in_memory",
]


def grow_in_memory(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    n_categories: Sequence[int],
    params: GrowParams,
    max_bins: int = DEFAULT_MAX_BINS,
    bins: Bins | None = None,
) -> Tree:
    """Grow a histogram CART tree on encoded arrays (category codes as floats, NaN = missing);
    ``bins`` given (e.g. computed over a Dask frame): use them instead of fitting new ones.
    Rows of zero weight are dropped first, as ``cart.grower.grow`` drops them."""
    check_criterion(params.criterion)
    w = np.asarray(sample_weight, dtype=np.float64)
    keep = w > 0
    if keep.any() and not keep.all():
        X, y, w = np.asarray(X)[keep], np.asarray(y)[keep], w[keep]
    if bins is None:
        bins, codes = fit_transform(X, n_categories, max_bins, w)
    else:
        codes = bins.transform(X)
    layout = Layout(bins.n_bins, params.n_classes)
    source = InMemoryHistograms(codes, np.asarray(y), w, layout)
    return grow_hist(source, bins, params)
