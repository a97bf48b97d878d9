"""The Python and SQL exports give the model's predictions on every bundled sample, rows with
missing values included: the generated Python is executed in a fresh namespace, the generated
SQL is run by SQLite (stdlib sqlite3)."""

import math
import re
import sqlite3

import numpy as np
import pytest

from dtcore.export.python_code import to_python
from dtcore.export.sql import majority_branch_tree, quote_identifier, to_sql
from tests.dtcore.whatif_models import cases, fitted


def raw_rows(est, X, seed):
    """The sample's raw rows and again with 30 % of the cells blanked (None), as dicts."""
    names = est.schema_.names
    rng = np.random.default_rng(seed)
    X = np.asarray(X, dtype=object)
    holes = X.copy()
    holes[rng.random(X.shape) < 0.3] = None
    both = np.vstack([X, holes])
    return [dict(zip(names, r)) for r in both.tolist()], both


def model_or_skip(sample, algo):
    got = fitted(sample, algo)
    if got is None:
        pytest.skip("regression sample: CART only")
    return got


@pytest.mark.parametrize(("sample", "algo"), cases())
def test_generated_python_predicts_like_the_model(sample, algo):
    est, X, _ = model_or_skip(sample, algo)
    src = to_python(est)
    assert src == to_python(est)  # deterministic
    ns: dict = {}
    exec(compile(src, f"<{sample}-{algo}>", "exec"), ns)  # a fresh namespace, no imports needed
    rows, raw = raw_rows(est, X, seed=len(sample))
    Xe = est.encode(raw)
    if est.schema_.is_classifier:
        want = est.tree_.predict_proba(Xe)
        classes = est.schema_.classes
        for i, row in enumerate(rows):
            got = ns["predict_proba"](row)
            assert list(got) == list(classes)
            np.testing.assert_allclose(list(got.values()), want[i], rtol=0, atol=1e-12)
            top = np.sort(want[i])[-2:] if len(classes) > 1 else [0, 1]
            if top[1] - top[0] > 1e-9:
                assert ns["predict"](row) == classes[int(np.argmax(want[i]))]
    else:
        want = est.tree_.predict_value(Xe)
        got = [ns["predict"](row) for row in rows]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)


def sqlite_table(est, Xe):
    """An in-memory table "data": REAL columns for continuous features, TEXT for labels, NULL = missing."""
    con = sqlite3.connect(":memory:")
    feats = est.schema_.features
    cols = ", ".join(f"{quote_identifier(f.name)} {'TEXT' if f.is_categorical else 'REAL'}" for f in feats)
    con.execute(f"CREATE TABLE data (rowid_ INTEGER PRIMARY KEY, {cols})")
    rows = []
    for i, x in enumerate(Xe):
        cells = [
            None if math.isnan(v) else (f.categories[int(v)] if f.is_categorical else float(v))
            for f, v in zip(feats, x.tolist())
        ]
        rows.append([i, *cells])
    con.executemany(f"INSERT INTO data VALUES ({', '.join('?' * (len(feats) + 1))})", rows)
    return con


@pytest.mark.parametrize(("sample", "algo"), cases())
def test_generated_sql_predicts_like_the_model(sample, algo):
    est, X, _ = model_or_skip(sample, algo)
    _, raw = raw_rows(est, X, seed=len(sample) + 1)
    Xe = est.encode(raw)
    con = sqlite_table(est, Xe)
    sql = to_sql(est)
    assert sql == to_sql(est)
    got = con.execute(sql.replace('FROM "data";', 'FROM "data" ORDER BY rowid_;')).fetchall()
    assert len(got) == len(Xe)
    tree = est.tree_
    rule = majority_branch_tree(tree)  # what the SQL documents for C4.5's shared-out NULLs
    r, leaf, w = tree.route(Xe)
    single = np.bincount(r, minlength=len(Xe)) == 1  # rows the model routes to one leaf
    if est.schema_.is_classifier:
        classes = est.schema_.classes
        want = rule.predict_proba(Xe)
        model = tree.predict_proba(Xe)
        got_p = np.array([row[1:] for row in got], dtype=float)
        np.testing.assert_allclose(got_p, want, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got_p[single], model[single], rtol=0, atol=1e-12)
        assert [row[0] for row in got] == [classes[k] for k in np.argmax(want, axis=1)]
    else:
        want = rule.predict_value(Xe)
        np.testing.assert_allclose([row[0] for row in got], want, rtol=1e-12)
        np.testing.assert_allclose(np.array([row[0] for row in got])[single], tree.predict_value(Xe)[single])
    if not np.any((tree.feature >= 0) & (tree.missing_branch < 0)):
        assert single.all()  # CART: the SQL is the model on every row


def test_exports_escape_user_text():
    """Names and labels with quotes, backslashes and newlines stay data in both exports."""
    from dtcore.estimators import make_estimator

    names = ['a"b', "c'd\n); DROP TABLE data; --"]
    X = [["x'1", 1.0], ['y"2\\', 2.0], ["x'1", 3.0], ['y"2\\', 4.0]]
    est = make_estimator("cart", "classification").fit(
        X, ["'p'", 'q"', "'p'", 'q"'], feature_names=names, feature_kinds=["categorical", "continuous"]
    )
    ns: dict = {}
    exec(to_python(est), ns)
    assert ns["predict"]({names[0]: "x'1", names[1]: 1.0}) == "'p'"
    assert ns["predict"]({names[0]: 'y"2\\', names[1]: 1.0}) == 'q"'
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE data ({quote_identifier(names[0])} TEXT, {quote_identifier(names[1])} REAL)")
    con.executemany("INSERT INTO data VALUES (?, ?)", [("x'1", 1.0), ('y"2\\', 1.0)])
    assert [r[0] for r in con.execute(to_sql(est))] == ["'p'", 'q"']
    with pytest.raises(ValueError, match="NUL"):
        quote_identifier("a\x00b")


def test_a_test_with_thousands_of_labels_exports_in_linear_time_and_predicts_alike():
    """Each of 20 000 labels its own branch (ID3, multiway): the Python and SQL exports once
    scanned the whole category table for every branch (8 000 labels: 24 s and 78 s; 20 000 would
    be minutes). Both finish well within a hang guard and predict what the model predicts."""
    import time

    from dtcore.id3 import ID3Classifier

    n = 20_000
    labels = np.array([f"lab{i}" for i in range(n)], dtype=object)
    x = np.concatenate([labels, labels])
    y = np.array(["ab"[(i * 7) % 3 % 2] for i in range(n)] * 2, dtype=object)
    est = ID3Classifier().fit(x[:, None], y)
    assert est.tree_.n_branches[0] == n
    start = time.process_time()
    src, sql = to_python(est), to_sql(est)
    assert time.process_time() - start < 60  # a hang guard, not a benchmark (0.3 s here)
    ns: dict = {}
    exec(compile(src, "<labels>", "exec"), ns)
    picks = [0, 1, 2, n // 2, n - 1]
    want = est.predict(labels[picks][:, None])
    assert [ns["predict"]({"x0": labels[i]}) for i in picks] == list(want)
    # the SQL's prediction for each label (sqlite would take seconds over 20 000 WHENs; the
    # samples' SQL runs in sqlite above): its own branch, or the missing branch's NOT IN list
    whens = re.findall(r"WHEN (.*)\n\s+THEN '(\w)'", sql.split(" END AS ")[0])
    assert len(whens) == n
    missing_branch = whens[0]
    assert missing_branch[0].startswith('("x0" IS NULL OR "x0" NOT IN (')
    for i, w in zip(picks, want, strict=True):
        own = [then for cond, then in whens if cond == f"\"x0\" IN ('{labels[i]}')"]
        if own:
            assert own == [w]
        else:  # it is the missing branch's label
            assert f"'{labels[i]}'" not in missing_branch[0] and missing_branch[1] == w
