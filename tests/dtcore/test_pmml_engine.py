"""The PMML export scored by an independent engine, ``pypmml`` (PMML4S on the installed Java),
against ``predict``/``predict_proba`` on every bundled sample (watermelon, iris, breast cancer,
the regression sets, ...): exact probabilities and values without missing values, and with
missing values and unseen labels wherever the file's strategy maps (``defaultChild``: every CART
tree). For C4.5/ID3's ``weightedConfidence`` PMML4S reads one level only (the children of the
first node that meets a missing value, not scored further, and that node's own distribution as
the probabilities), where PMML 4.4 scores each child recursively as dtcore does: the rows where
both readings coincide are checked exactly, and one row where they differ pins the difference
(docs/standalone-and-notebook.md says the same)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dtcore import CARTClassifier
from dtcore.export.pmml import to_pmml
from tests.dtcore.whatif_models import cases, fitted, with_holes

pytestmark = pytest.mark.slow  # a JVM starts (once for the module)


@pytest.fixture(scope="module")
def engine():
    """pypmml's ``Model`` class, its JVM started once for the module."""
    from pypmml import Model

    Model.fromString(to_pmml(fitted("watermelon_2.0", "cart")[0])).predict({})  # start the JVM
    return Model


def frame_of(est, Xe: np.ndarray) -> pd.DataFrame:
    """Encoded rows as the raw table an engine reads: labels as text, numbers, None = missing."""
    cols = {}
    for j, f in enumerate(est.schema_.features):
        col = Xe[:, j]
        if f.is_categorical:
            cols[f.name] = [None if np.isnan(v) else f.categories[int(v)] for v in col]
        else:
            cols[f.name] = [None if np.isnan(v) else float(v) for v in col]
    return pd.DataFrame(cols)


def clear_winner(proba: np.ndarray) -> np.ndarray:
    """Rows whose top class leads the next by more than rounding (ties break differently)."""
    if proba.shape[1] < 2:
        return np.ones(len(proba), dtype=bool)
    top = np.sort(proba, axis=1)
    return top[:, -1] - top[:, -2] > 1e-9


def assert_scores_match(engine, est, Xe, table=None):
    out = engine.fromString(to_pmml(est)).predict(frame_of(est, Xe) if table is None else table)
    s = est.schema_
    if s.is_classifier:
        want = est.tree_.predict_proba(Xe)
        got = np.column_stack([out[f"probability_{c}"].to_numpy(dtype=float) for c in s.classes])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
        said = out[f"predicted_{s.target}"].to_numpy(dtype=object)
        top = np.asarray(s.classes, dtype=object)[np.argmax(want, axis=1)]
        clear = clear_winner(want)
        assert list(said[clear]) == list(top[clear])
    else:
        want = est.tree_.predict_value(Xe)
        got = out[f"predicted_{s.target}"].to_numpy(dtype=float)
        np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)


@pytest.mark.parametrize(("sample", "algo"), cases())
def test_engine_scores_the_complete_training_rows_as_dtcore(engine, sample, algo):
    """Every tree on its training rows with no missing value (CART's: on every row)."""
    got = fitted(sample, algo)
    if got is None:
        pytest.skip("regression sample: CART only")
    est, _, Xe = got
    if algo != "cart":
        Xe = Xe[~np.isnan(Xe).any(axis=1)]
    assert_scores_match(engine, est, Xe)


@pytest.mark.parametrize("sample", sorted({s for s, _ in cases()}))
def test_engine_follows_carts_missing_value_directions(engine, sample):
    """defaultChild maps CART's learned direction exactly: 30 % of the cells blanked, and a
    label the model never saw (invalid, so missing: ``invalidValueTreatment="asMissing"``)."""
    est, _, Xe = fitted(sample, "cart")
    holes = with_holes(Xe, seed=3)
    table = frame_of(est, holes)
    for j, f in enumerate(est.schema_.features):
        if f.is_categorical:
            table.iloc[::7, j] = "never seen"
            holes[::7, j] = np.nan  # what dtcore's encoder makes of it
    assert_scores_match(engine, est, holes, table)


#: fitted trees with no test whose children are all leaves mixing to its own distribution: the
#: check below has nothing to blank there (``test_the_left_out_trees_have_no_such_test`` holds it)
NO_LEAF_PARENT = {("iris", "c45")}


def leaf_parent_rows(est, Xe) -> list:
    """Training rows, each with its only missing value at a test whose children are leaves and
    whose own distribution is their share-weighted mix (up to 3 rows per such test)."""
    t = est.tree_
    dist = t.leaf_distribution()
    rows = []
    for n in np.flatnonzero(t.feature >= 0):
        kids = t.children_of(n)
        above = {int(t.feature[a]) for a in t.path_to(int(n))[:-1]}
        if (t.feature[kids] >= 0).any() or int(t.feature[n]) in above:
            continue  # not leaves below, or the feature tested higher up too
        share = t.weighted_n[kids] / t.weighted_n[kids].sum()
        if not np.allclose(share @ dist[kids], dist[n], rtol=0, atol=1e-12):
            continue  # e.g. an empty leaf labelled with its parent's counts
        r, w = t.reach(Xe, n)
        r = r[w == 1][:3]
        block = Xe[r].copy()
        block[:, t.feature[n]] = np.nan
        rows.append(block)
    return rows


@pytest.mark.parametrize(
    ("sample", "algo"), [c for c in cases() if c[1] != "cart" and c not in NO_LEAF_PARENT]
)
def test_engine_shares_out_a_missing_value_over_leaves_as_c45(engine, sample, algo):
    """weightedConfidence where PMML4S's one-level reading is the recursive rule: the row's only
    missing value sits at a test whose children are leaves and whose own distribution is their
    share-weighted mix (so the one-level answer is the whole answer)."""
    est, _, Xe = fitted(sample, algo)
    rows = leaf_parent_rows(est, Xe)
    assert rows, f"{sample}/{algo} has no such test: add it to NO_LEAF_PARENT"
    holes = np.vstack(rows)
    assert np.isnan(holes).any(axis=1).all()
    assert_scores_match(engine, est, holes)


@pytest.mark.parametrize(("sample", "algo"), sorted(NO_LEAF_PARENT))
def test_the_left_out_trees_have_no_such_test(sample, algo):
    est, _, Xe = fitted(sample, algo)
    assert not leaf_parent_rows(est, Xe)


def test_engine_reads_weighted_confidence_one_level_only(engine):
    """Where the readings differ: a row missing the root's feature, known below. PMML 4.4 (and
    dtcore) score every root branch on with the row's other values and mix the leaves by the
    branches' shares; PMML4S 1.5.8 stops at the root and answers with the root's distribution."""
    est, _, Xe = fitted("watermelon_2.0", "id3")
    t = est.tree_
    row = Xe[:1].copy()
    row[0, t.feature[0]] = np.nan
    out = engine.fromString(to_pmml(est)).predict(frame_of(est, row))
    got = np.array([out[f"probability_{c}"][0] for c in est.schema_.classes])
    want = est.tree_.predict_proba(row)[0]
    assert not np.allclose(got, want, atol=1e-6)  # the engine's reading, not the standard's
    np.testing.assert_allclose(got, t.leaf_distribution()[0], rtol=0, atol=1e-12)


def test_engine_reads_category_sets_with_quotes_spaces_and_markup(engine):
    """CART subsets whose labels hold what an Array or XML must escape."""
    labels = ['a "quoted" one', "back\\slash", "two words", "<b>&amp;</b>", "plain", "中文 标签"]
    rng = np.random.default_rng(5)
    x = rng.choice(labels, size=240)
    noise = rng.random(240)
    y = np.where(np.isin(x, labels[::2]) ^ (noise < 0.1), "yes", "no")
    X = np.column_stack([x, rng.normal(size=240).round(3)]).astype(object)
    X[:, 1] = X[:, 1].astype(float)
    est = CARTClassifier(max_depth=4).fit(
        X, y, feature_names=['kind "k"', "x<1>"], feature_kinds=["categorical", "continuous"]
    )
    assert est.tree_.is_categorical_test(0)
    assert_scores_match(engine, est, est.encode(X))
