"""The batched multiway kernels the level-wise growers use (ID3's and C4.5's categorical tests)
give the one-test kernels' numbers bit for bit: ``branch_class_counts_many`` against
``branch_class_counts`` node by node, feature by feature, and ``score_multiway_many`` against
``score_multiway``, on rows with missing codes, codes past the table and fractional weights."""

import numpy as np
import pytest

from dtcore.entropy.multiway import (
    branch_class_counts,
    branch_class_counts_many,
    reasonable_branches,
    reasonable_branches_many,
    score_multiway,
    score_multiway_many,
)
from dtcore.id3.rules import branch_rows


@pytest.mark.parametrize("seed", range(5))
def test_counts_and_scores_of_many_tests_are_those_of_each_test(seed):
    rng = np.random.default_rng(seed)
    k, F, V, C = (
        int(rng.integers(1, 6)),
        int(rng.integers(1, 4)),
        int(rng.integers(1, 12)),
        int(rng.integers(2, 4)),
    )
    sizes = rng.integers(0, 60, k)
    node = np.repeat(np.arange(k), sizes)
    m = node.size
    codes = rng.integers(-1, V + 2, size=(m, F))  # -1 and ≥ V: unknown
    y = rng.integers(0, C, m)
    w = rng.choice([0.0, 0.3, 1.0, 2.5], m)
    many = branch_class_counts_many(codes, y, w, node, k, V, C)
    scores = score_multiway_many(many.counts, many.unknown)
    ok = reasonable_branches_many(many.counts.sum(axis=2), 2.0)
    bounds = np.r_[0, np.cumsum(sizes)]
    for i in range(k):
        rows = slice(bounds[i], bounds[i + 1])
        for f in range(F):
            t = i * F + f
            counts, unknown = branch_class_counts(codes[rows, f], y[rows], w[rows], V, C)
            np.testing.assert_array_equal(many.counts[t], counts)
            np.testing.assert_array_equal(many.unknown[t], unknown)
            np.testing.assert_array_equal(many.rows[t], branch_rows(codes[rows, f], w[rows], V))
            one = score_multiway(counts, unknown)
            assert (scores.gain[t], scores.gain_ratio[t], scores.iv[t]) == (one.gain, one.gain_ratio, one.iv)
            assert ok[t] == (reasonable_branches(counts.sum(axis=1), 2.0) >= 2)
