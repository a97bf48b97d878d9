"""ARFF reading and writing: declared order kept, quoting, missing values, errors that help."""

import numpy as np
import pytest

from dtcore.c45 import C45Classifier
from dtcore.data.arff import quote, read_arff, write_arff
from dtcore.schema import DataError
from tests.datasets import DATA


def test_declared_order_and_missing_values_kept():
    d = read_arff(DATA / "labor.arff")
    assert d.names[0] == "duration" and d.kinds[0] == "continuous"
    # declared {none,tcf,tc}, not first-appearance order
    assert d.categories["pension"] == ("none", "ret_allw", "empl_contr")
    assert d.classes == ("bad", "good")
    assert d.rows.shape == (57, 17)
    assert any(v is None for v in d.rows[:, 1])  # '?' → missing
    assert all(isinstance(v, float) for v in d.rows[:, 0] if v is not None)


def test_quoted_names_and_values():
    d = read_arff(DATA / "vote.arff")
    assert d.names[0] == "handicapped-infants"
    assert d.categories["handicapped-infants"] == ("n", "y")
    assert d.classes == ("democrat", "republican")
    text = (
        "@relation 'my rel'\n@attribute 'a b' {'x, y','it''s'}\n"
        "@attribute c numeric % comment\n@attribute cls {p,q}\n@data\n"
        "'x, y',1.5,p\n'it\\'s',?,q\n% comment line\n{0 'x, y', 2 q}\n"
    )
    text = text.replace("'it''s'", "'it\\'s'")
    d = read_arff(text)
    assert d.relation == "my rel"
    assert d.names == ["a b", "c", "cls"]
    assert d.categories["a b"] == ("x, y", "it's")
    assert d.rows[0].tolist() == ["x, y", 1.5, "p"]
    assert d.rows[1].tolist() == ["it's", None, "q"]
    assert d.rows[2].tolist() == ["x, y", 0.0, "q"]  # sparse row, omitted numeric = 0


def test_round_trip_preserves_everything():
    names = ["颜色", "size x", "y"]
    kinds = ["categorical", "continuous", "categorical"]
    rows = np.array([["红", 1.25, "否"], [None, 3.0, "是"], ["蓝,绿", float("nan"), "否"]], dtype=object)
    cats = {"颜色": ("蓝,绿", "红"), "y": ("是", "否")}
    text = write_arff(None, names, kinds, rows, cats, relation="t")
    d = read_arff(text)
    assert d.names == names and d.kinds == kinds
    assert d.categories["颜色"] == ("蓝,绿", "红") and d.classes == ("是", "否")
    assert d.rows[0].tolist() == ["红", 1.25, "否"]
    assert d.rows[1, 0] is None and d.rows[2, 1] is None and d.rows[2, 0] == "蓝,绿"


def test_to_xy_feeds_fit_with_declared_classes(tmp_path):
    d = read_arff(DATA / "contact-lenses.arff")
    X, y, kw = d.to_xy()
    est = C45Classifier().fit(X, y, **kw)
    assert tuple(est.schema_.classes) == d.classes
    assert est.schema_.features[0].categories == d.categories["age"]
    # writing to a file and reading back gives the same rows
    p = tmp_path / "cl.arff"
    write_arff(p, d.names, d.kinds, d.rows, d.categories, relation=d.relation)
    again = read_arff(p)
    assert again.rows.tolist() == d.rows.tolist() and again.categories == d.categories


@pytest.mark.parametrize(
    "text, needle",
    [
        ("@relation r\n@attribute a {x,y}\n@data\nz\n", "not among the declared values"),
        ("@relation r\n@attribute a date\n@data\n", "not supported"),
        ("@relation r\n@attribute a numeric\n@data\nabc\n", "is numeric but holds"),
        ("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1\n", "1 values for 2"),
        ("@relation r\n@attribute a numeric\n", "no @data"),
    ],
)
def test_errors_name_the_problem(text, needle):
    with pytest.raises(DataError, match=needle):
        read_arff(text)


def test_quote_only_when_needed():
    assert quote("abc") == "abc"
    assert quote("a b") == "'a b'"
    assert quote("it's") == "'it\\'s'"
    assert quote("?") == "'?'"
    assert quote("纹理") == "纹理"
