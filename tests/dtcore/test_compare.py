"""ID3, C4.5 and CART compared (``dtcore.analysis.compare``, ``dtcore compare``): SPEC §10's numbers at the
first disagreement on watermelon 2.0, the golf table (Quinlan) and Li Hang's loan table."""

import json

import numpy as np
import pytest

from dtcore.analysis import compare as C
from dtcore.cli import prepare_training
from dtcore.data.readers import read_table
from dtcore.data.rowsplit import split_rows
from tests.datasets import DATA
from tests.dtcore.test_cli import assert_user_error, dtcore
from tests.dtcore.test_explain import LOAN

MELON = DATA / "watermelon_2.0.csv"

# Quinlan's weather ("golf" / play tennis) table, nominal
GOLF = """outlook,temperature,humidity,windy,play
sunny,hot,high,false,no
sunny,hot,high,true,no
overcast,hot,high,false,yes
rainy,mild,high,false,yes
rainy,cool,normal,false,yes
rainy,cool,normal,true,no
overcast,cool,normal,true,yes
sunny,mild,high,false,no
sunny,cool,normal,false,yes
rainy,mild,normal,false,yes
sunny,mild,normal,true,yes
overcast,mild,high,true,yes
overcast,hot,normal,false,yes
rainy,mild,high,true,no
"""


def run(path, target, keys=None, valid=0, test=0, **roles):
    X, y, feats, kinds, cats, classes, task = prepare_training(read_table(path), target, **roles)
    rows = split_rows(np.arange(len(y)), valid, test, 0, y)
    fit_kw = dict(feature_names=feats, feature_kinds=kinds or None, categories=cats or None, classes=classes)
    return C.compare(X, y, rows, task=task, keys=keys, fit_kw={**fit_kw, "target_name": target})


def feature_row(d, name):
    return next(r for r in d.features if r.name == name)


def test_watermelon_first_disagreement_has_spec_numbers():
    c = run(MELON, "好瓜")
    assert [e.key for e in c.entries] == ["id3", "c45", "cart"]
    d = c.first
    assert d.depth == 0 and d.path == [] and d.n_rows == 17
    # SPEC §10: Gain(D, a) for every feature, ID3's criterion
    gains = {"色泽": 0.108, "根蒂": 0.143, "敲声": 0.141, "纹理": 0.381, "脐部": 0.289, "触感": 0.006}
    for name, g in gains.items():
        assert feature_row(d, name).scores["id3"].gain == pytest.approx(g, abs=5e-4)
        assert feature_row(d, name).scores["c45"].gain == pytest.approx(g, abs=5e-4)
    assert feature_row(d, "触感").scores["id3"].iv == pytest.approx(0.874, abs=5e-4)
    assert feature_row(d, "色泽").scores["id3"].iv == pytest.approx(1.580, abs=5e-4)
    # ID3 and C4.5 agree on 纹理 three ways; CART tests 纹理 = 清晰 against the rest
    assert d.chosen["id3"] == d.chosen["c45"] != d.chosen["cart"]
    multi, binary = d.tests[d.chosen["id3"]], d.tests[d.chosen["cart"]]
    assert multi.name == binary.name == "纹理" and len(multi.labels) == 3 and len(binary.labels) == 2
    s = d.scores[d.chosen["id3"]]
    assert s["id3"].score == pytest.approx(0.381, abs=5e-4)
    assert s["c45"].gain_ratio == pytest.approx(0.381 / 1.447, abs=5e-4) and s["c45"].above_average
    assert not s["cart"].possible and s["id3"].possible
    # Gini(D) = 1 − (8/17)² − (9/17)² = 0.498; 纹理 = 清晰 (9 rows: 7 是 / 2 否) against 8 rows (1 / 7)
    gini = 1 - (8 / 17) ** 2 - (9 / 17) ** 2
    after = 9 / 17 * (1 - (7 / 9) ** 2 - (2 / 9) ** 2) + 8 / 17 * (1 - (1 / 8) ** 2 - (7 / 8) ** 2)
    assert d.scores[d.chosen["cart"]]["cart"].decrease == pytest.approx(gini - after, abs=1e-12)
    assert d.average_gain == pytest.approx(np.mean(list(gains.values())), abs=1e-3)
    kinds = {n.kind for n in C.notes(c.first, c.entries)}
    assert {"chose", "binary"} <= kinds
    assert json.dumps(c.to_dict(), ensure_ascii=False, allow_nan=False)


def test_an_identifier_kept_shows_why_gain_ratio_exists():
    """SPEC §10: with 编号 categorical, Gain(编号) = 0.998 and IV(编号) = 4.087: ID3 takes it,
    C4.5 does not. Its gain ratio is lower (0.244 < 0.263), but C4.5 could not make the test at
    all (17 branches of one row: none holds MINOBJS = 2), so no note says the ratio decided."""
    c = run(MELON, "好瓜", ["id3", "c45"], categorical=["编号"])
    d = c.first
    by_id3, by_c45 = d.tests[d.chosen["id3"]], d.tests[d.chosen["c45"]]
    assert by_id3.name == "编号" and by_c45.name == "纹理"
    s = d.scores[d.chosen["id3"]]
    assert s["id3"].gain == pytest.approx(0.998, abs=5e-4)
    assert s["c45"].split_info == pytest.approx(4.087, abs=5e-4)
    assert s["c45"].gain_ratio < d.scores[d.chosen["c45"]]["c45"].gain_ratio
    assert s["c45"].possible is False and s["id3"].possible is True
    assert not [n for n in C.notes(c.first, c.entries) if n.kind == "penalised"]


def test_golf_table(tmp_path):
    p = tmp_path / "golf.csv"
    p.write_text(GOLF, encoding="utf-8")
    c = run(p, "play")
    d = c.first
    assert d.depth == 0
    row = feature_row(d, "outlook")
    assert row.scores["id3"].gain == pytest.approx(0.247, abs=5e-4)  # Quinlan (1986)
    assert row.scores["c45"].gain_ratio == pytest.approx(0.156, abs=5e-4)
    assert feature_row(d, "humidity").scores["id3"].gain == pytest.approx(0.152, abs=5e-4)
    assert feature_row(d, "windy").scores["id3"].gain == pytest.approx(0.048, abs=5e-4)
    cart = d.tests[d.chosen["cart"]]
    assert cart.name == "outlook" and sorted(cart.labels) == ["= overcast", "∈ {sunny, rainy}"]
    # Gini(D) = 0.459; outlook = overcast (4 yes) against 10 rows (5 / 5): 10/14 · 0.5
    assert d.scores[d.chosen["cart"]]["cart"].decrease == pytest.approx(
        1 - (9 / 14) ** 2 - (5 / 14) ** 2 - 10 / 14 * 0.5
    )
    for e in c.entries:
        assert e.scores["train"]["accuracy"] == 1.0


def test_loan_table_trees_agree_everywhere(tmp_path):
    """Li Hang's loan table: every algorithm tests 有自己的房子, then 有工作: the same trees."""
    p = tmp_path / "loan.csv"
    p.write_text(LOAN, encoding="utf-8")
    c = run(p, "类别")
    assert c.first is None and C.notes(c.first, c.entries) == []
    assert np.array_equal(c.agreement, np.ones((3, 3)))
    for e in c.entries:
        t = e.estimator.tree_
        assert e.estimator.schema_.features[t.feature[0]].name == "有自己的房子"
        assert (e.nodes, e.leaves, e.depth) == (5, 3, 2)


def test_scores_split_and_agreement_on_a_larger_set():
    c = run(DATA / "credit-g.csv", "class", ["id3", "c45", "cart", "cart-entropy"], valid=20, test=20)
    assert {s: v.size for s, v in c.rows.items()} == {"train": 600, "valid": 200, "test": 200}
    assert c.agree_on == "test"
    M = c.agreement
    assert M.shape == (4, 4) and np.allclose(M, M.T) and np.allclose(np.diag(M), 1)
    preds = [e.predictions["test"] for e in c.entries]
    differ = np.array([len({str(p[i]) for p in preds}) > 1 for i in range(200)])
    assert np.array_equal(np.sort(c.disagree_rows), np.sort(c.rows["test"][differ]))
    for e in c.entries:
        assert set(e.scores) == {"train", "valid", "test"} and len(e.cv) == 5
        assert 0 <= e.scores["test"]["accuracy"] <= 1
    assert c.first is not None
    # the highlighted path in each fitted tree starts at the root
    assert all(p[0] == 0 for p in c.first.final.values())


def test_regression_compares_criteria():
    c = run(DATA / "diabetes.csv", "target", valid=0, test=25)
    assert [e.key for e in c.entries] == list(C.DEFAULTS["regression"])
    for e in c.entries:
        assert (
            set(e.scores["test"]) == {"rmse", "mae"} and e.scores["test"]["rmse"] >= e.scores["test"]["mae"]
        )
    with pytest.raises(ValueError, match="does not grow regression"):
        C.resolve(["id3"], "regression")


def test_cli_compare_text_and_json():
    proc = dtcore("compare", MELON, "--target", "好瓜", "--format", "text")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert (
        "first disagreement at the root" in out
        and "ID3 gain 0.381" in out
        and "CART only makes binary" in out
    )
    assert "fit ms" not in out  # timing is opt-in: the output is deterministic
    again = dtcore("compare", MELON, "--target", "好瓜", "--format", "text")
    assert again.stdout == out
    proc = dtcore(
        "compare",
        MELON,
        "--target",
        "好瓜",
        "--algorithms",
        "id3,c45",
        "--categorical",
        "编号",
        "--format",
        "json",
    )
    d = json.loads(proc.stdout)
    assert [a["key"] for a in d["algorithms"]] == ["id3", "c45"]
    f = d["first_disagreement"]
    assert f["tests"][f["chosen"]["id3"]]["name"] == "编号"
    assert f["scores"][f["chosen"]["id3"]]["id3"]["gain"] == pytest.approx(0.998, abs=5e-4)


def test_cli_compare_user_errors():
    assert_user_error(
        dtcore("compare", MELON, "--target", "好瓜", "--algorithms", "id3,forest"), "unknown algorithm"
    )


def test_extra_contenders_carry_their_own_settings():
    X, y, feats, kinds, cats, classes, task = prepare_training(read_table(MELON), "好瓜")
    extra = {"mine": ("C4.5 unpruned", "c45", {"prune": False, "collapse": False})}
    rows = {"train": np.arange(len(y))}
    c = C.compare(X, y, rows, keys=["c45", "mine"], fit_kw={"feature_names": feats}, extra=extra)
    mine = c.entries[1]
    assert mine.label == "C4.5 unpruned" and mine.estimator.get_params()["prune"] is False
    assert mine.nodes >= c.entries[0].nodes and mine.estimator.prune_steps_ == []
    with pytest.raises(ValueError, match="does not grow regression"):
        C.resolve(["mine"], "regression", extra)


def test_same_rows_nodes_follow_the_rows():
    X, y, feats, kinds, cats, classes, task = prepare_training(read_table(MELON), "好瓜")
    rows = {"train": np.arange(len(y))}
    c = C.compare(X, y, rows, keys=["id3", "c45"], fit_kw={"feature_names": feats})
    # the root's rows are every tree's root; ID3 and C4.5 both split 纹理 three ways at the root
    assert C.same_rows_nodes(c, "id3", 0, X) == {"id3": 0, "c45": 0}
    id3 = c.entries[0].estimator.tree_
    kids = id3.children_of(0).tolist()
    got = [C.same_rows_nodes(c, "id3", k, X)["c45"] for k in kids]
    c45 = c.entries[1].estimator.tree_
    assert got == c45.children_of(0).tolist()


def test_disagreement_does_not_import_compare():
    """compare imports disagreement; the records both read live in compare_records, so the
    reverse import (even under TYPE_CHECKING or inside a function) would be a cycle."""
    import ast
    from pathlib import Path

    import dtcore.analysis.disagreement as D

    tree = ast.parse(Path(D.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert "dtcore.analysis.compare" not in imported
    assert not any(
        isinstance(n, ast.ImportFrom)
        and n.module == "dtcore.analysis"
        and "compare" in [a.name for a in n.names]
        for n in ast.walk(tree)
    )


def test_each_runner_up_is_another_feature_scored_as_the_chosen_test():
    """The runner-up beside a contender's choice is the best feature other than the one its tree
    tests, in the same measure as that test's score (CART: the impurity decrease at the node, not
    scikit-learn's weighted improvement): a 10⁵-row regression printed "chose 特征9 (64.113) …
    runner-up 特征9 (0.010)"."""
    import pandas as pd

    df = pd.read_csv(DATA / "vote.csv", dtype=str, keep_default_na=False)
    X, y = df.drop(columns=["Class"]).to_numpy(object), df["Class"].to_numpy(object)
    c = C.compare(X, y, {"train": np.arange(len(df))}, fit_kw={"feature_names": list(df.columns[:-1])})
    d = c.first
    assert d is not None and d.n_rows < len(df)  # below the root: the two CART scales differ there
    for e in c.entries:
        i = d.chosen[e.key]
        if i is None:
            continue
        r = d.runner_up[e.key]
        assert r is not None and r.feature != d.tests[i].feature, e.key
    # CART's: the decrease at the node, as the explorer's worked arithmetic (the Splits page) has it
    from dtcore import explain

    cart = next(e for e in c.entries if e.algorithm == "cart")
    est = cart.estimator
    Xe = est.encode(X)
    ye = np.array([list(est.schema_.classes).index(v) for v in y])
    nd = explain.explainer_data(est, Xe, ye, None, d.nodes[cart.key])
    rep = explain.report_for(nd)
    r = d.runner_up[cart.key]
    assert r is not None and len(df) > nd.N  # below the root: the weighted scale is smaller
    here = explain.arithmetic(nd, rep.features[r.feature].test, rep).decrease
    assert r.score == pytest.approx(here, rel=1e-9)


def test_the_command_line_tells_a_tie_as_a_tie(monkeypatch):
    """``dtcore compare`` says a contender's test ties with another that scores the same (to the
    last bits of the sums), and "over" only where the scores differ (``ChoseNote.tied``)."""
    import dataclasses

    import pandas as pd

    from dtcore.analysis.compare_records import ChoseNote
    from dtcore.cli.compare import sentences

    df = pd.read_csv(DATA / "buys_computer.csv", dtype=str, keep_default_na=False)
    X, y = df.drop(columns=["buys_computer"]).to_numpy(object), df["buys_computer"].to_numpy(object)
    c = C.compare(X, y, {"train": np.arange(len(df))}, fit_kw={"feature_names": list(df.columns[:-1])})
    note = next(n for n in c.notes() if isinstance(n, ChoseNote) and n.other is not None)
    assert not note.tied and any(" over " in s for s in sentences(c))
    level = dataclasses.replace(note, other_score=note.score * (1 + 1e-15))
    assert level.tied and not dataclasses.replace(note, other_score=note.score * (1 + 1e-9)).tied
    monkeypatch.setattr(type(c), "notes", lambda self: [level])
    said = sentences(c)[0]
    assert ", tied with " in said and " over " not in said
