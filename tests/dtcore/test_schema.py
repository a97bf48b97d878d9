"""Encoding raw cells: long string columns (mapped once per distinct string) give exactly what
short ones (mapped cell by cell) give, errors included."""

import numpy as np
import pytest

from dtcore.schema import DataError, encode_features, infer_schema


def _cells(rng, n):
    X = np.empty((n, 2), dtype=object)
    X[:, 0] = rng.choice(["青绿", " 乌黑", "浅白", "?", "", "NA", "unseen"], n)
    X[:, 1] = rng.choice(["0.5", " 1e3", "-2", "nan", "?", "", "7"], n)
    return X


def test_long_string_columns_encode_like_short_ones():
    rng = np.random.default_rng(3)
    X = _cells(rng, 500)
    schema = infer_schema(
        X[:50], ["色泽", "x"], ["categorical", "continuous"], categories={"色泽": ["青绿", "乌黑", "浅白"]}
    )
    whole = encode_features(X, schema)
    by_chunks = np.vstack([encode_features(X[i : i + 40], schema) for i in range(0, 500, 40)])
    np.testing.assert_array_equal(whole, by_chunks)
    assert np.isnan(whole[X[:, 0] == "unseen", 0]).all()  # unseen label → missing
    assert set(np.unique(whole[:, 0][~np.isnan(whole[:, 0])])) <= {0.0, 1.0, 2.0}


@pytest.mark.parametrize("n", [10, 500])
def test_text_in_a_continuous_column_names_the_first_bad_row(n):
    X = _cells(np.random.default_rng(4), n)
    X[6, 1], X[8, 1] = "abc", "def"
    schema = infer_schema(X[:5], ["色泽", "x"], ["categorical", "continuous"])
    with pytest.raises(DataError, match="row 7 holds 'abc'"):
        encode_features(X, schema)
