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


def test_numeric_object_columns_encode_as_the_cell_rules_say():
    """A DataFrame's numeric column arrives as Python numbers in an object array: converted at
    C speed, with None/NaN missing; a boolean or text cell still gets the per-cell rules."""
    from dtcore.schema import CONTINUOUS, Feature, Schema

    schema = Schema([Feature("x", CONTINUOUS)], "y", ("a", "b"))
    col = np.array([[1], [2.5], [None], [float("nan")], [np.float64(3)], [np.int64(4)]], dtype=object)
    got = encode_features(col, schema)[:, 0]
    np.testing.assert_array_equal(got, [1, 2.5, np.nan, np.nan, 3, 4])
    text = np.array([["1"], [" 2.5 "], ["?"], [""], ["3"], ["4"]], dtype=object)
    np.testing.assert_array_equal(encode_features(text, schema)[:, 0], [1, 2.5, np.nan, np.nan, 3, 4])
    with pytest.raises(DataError, match="row 2 holds True"):
        encode_features(np.array([[1.0], [True]], dtype=object), schema)


def test_categories_keep_first_appearance_and_tell_true_from_one():
    from dtcore.schema import categories_of

    cells = np.array([" b", "a", True, 1, 1.0, None, float("nan"), "?", "b", 3.0, "3"], dtype=object)
    assert categories_of(cells) == ("b", "a", "True", "1", "3")
    unhashable = np.empty(3, dtype=object)
    unhashable[:] = [[1, 2], [2, 1], [1, 2]]
    assert categories_of(unhashable) == ("[1, 2]", "[2, 1]")
