"""``score_multiway_many`` and ``branches_ok_many`` (ID3's per-node batch of categorical features) give
the one-test functions' answers bit for bit, with and without unknown values and empty branches."""

from __future__ import annotations

import numpy as np
import pytest

from dtcore.entropy.multiway import score_multiway, score_multiway_many


@pytest.mark.parametrize("seed", range(8))
def test_many_equals_one_at_a_time(seed):
    rng = np.random.default_rng(seed)
    F, V, C = 1 + seed, 2 + seed % 5, 2 + seed % 3
    counts = rng.integers(0, 6, size=(F, V, C)) * rng.choice([1.0, 0.37, 1 / 3], size=(F, V, C))
    unknown = (rng.random((F, C)) < 0.5) * rng.random((F, C)) * 3 if seed % 2 else np.zeros((F, C))
    counts[0, 0] = 0.0  # an empty branch
    if F > 2:
        counts[2] = 0.0  # a feature with no known row
    many = score_multiway_many(counts, unknown)
    for f in range(F):
        one = score_multiway(counts[f], unknown[f])
        assert (many.gain[f], many.split_info[f], many.gain_ratio[f], many.iv[f]) == (
            one.gain,
            one.split_info,
            one.gain_ratio,
            one.iv,
        )


@pytest.mark.parametrize("min_samples_leaf", [1, 2, 5])
def test_branches_ok_many_equals_one_at_a_time(min_samples_leaf):
    from dtcore.id3.rules import branches_ok, branches_ok_many

    rng = np.random.default_rng(min_samples_leaf)
    n_rows = rng.integers(0, 7, size=(40, 4)) * (rng.random((40, 4)) < 0.7)
    many = branches_ok_many(n_rows, min_samples_leaf)
    assert many.tolist() == [branches_ok(r, min_samples_leaf) for r in n_rows]
