"""REP's tie rule on the Pruning page (issue 27, item 7): on the textbook's watermelon 2.0
training / validation rows with ID3, "keep" draws Zhou's figure 4.7 (10 nodes, 7 leaves, 71.4 %
on the validation rows), "prune" (the default, SPEC §8) the 脐部 stump at the same 71.4 %; the
rule's value stays the same id in both languages and travels in the URL."""

from tests.app.apptest import start

PRUNE = "pages/prune.py"


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def after_title(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith(("**After", "**剪枝后")))


def decisions(at):
    return next(d.value for d in at.dataframe if d.value.columns[-1] in ("Decision", "判断"))


def error_rates(at) -> tuple:
    df = next(d.value for d in at.dataframe if d.value.columns[0] in ("Measure", "指标"))
    return next(
        tuple(row[1:3]) for row in df.itertuples(index=False) if "validation" in row[0] or "验证" in row[0]
    )


def test_keep_draws_figure_4_7_and_prune_the_stump():
    at = start(sample="watermelon_2.0_split", algo="id3", prune_method="rep")
    at.switch_page(PRUNE).run()
    no_exception(at)
    radio = at.radio(key="prune_rep_ties")
    assert radio.value == "prune" and radio.options == [
        "prune (Occam's razor)",
        "keep (the textbook's figure 4.7)",
    ]
    assert any("figure 4.7" in c.value and "71.4 %" in c.value for c in at.caption)  # the sample's note
    assert "4 nodes, 3 leaves" in after_title(at)
    df = decisions(at)
    assert list(df["Decision"]) == [
        "pruned: accuracy rises",
        "pruned: accuracy unchanged (Occam's razor)",
        "pruned: accuracy rises",
        "pruned: accuracy unchanged (Occam's razor)",
        "kept: accuracy would fall",
    ]
    stump_errors = error_rates(at)

    radio.set_value("keep").run()
    no_exception(at)
    assert "10 nodes, 7 leaves" in after_title(at)  # figure 4.7
    df = decisions(at)
    assert list(df["Test"]) == ["纹理", "色泽", "色泽", "根蒂", "脐部"]  # ⑥ ⑤ ② ③ ①, the book's order
    assert list(df["Accuracy with the subtree"]) == ["42.9%", "57.1%", "57.1%", "71.4%", "71.4%"]
    assert list(df["Accuracy as a leaf"]) == ["57.1%", "57.1%", "71.4%", "71.4%", "42.9%"]
    assert list(df["Decision"]) == [
        "pruned: accuracy rises",
        "kept: accuracy unchanged (the book's rule)",
        "pruned: accuracy rises",
        "kept: accuracy unchanged (the book's rule)",
        "kept: accuracy would fall",
    ]
    assert error_rates(at) == stump_errors  # the same validation error either way: 28.6 %
    assert stump_errors[1] == "28.6%"
    assert at.query_params["prune_rep_ties"] == "keep"

    at.session_state["lang"] = "zh"  # (the sidebar's switch; the browser test clicks it)
    at.run()
    no_exception(at)
    radio = at.radio(key="prune_rep_ties")
    assert radio.value == "keep" and radio.options == ["剪枝（奥卡姆剃刀）", "保留（教材图 4.7）"]
    assert "10 个节点" in after_title(at)
    assert list(decisions(at)["判断"])[1] == "保留：精度不变（教材的做法）"


def test_the_rule_comes_from_the_link_and_a_bad_value_falls_back_to_prune():
    at = start(PRUNE, sample="watermelon_2.0_split", algo="id3", prune_method="rep", prune_rep_ties="keep")
    no_exception(at)
    assert at.radio(key="prune_rep_ties").value == "keep"
    assert "10 nodes, 7 leaves" in after_title(at)
    at = start(PRUNE, sample="watermelon_2.0_split", algo="id3", prune_method="rep", prune_rep_ties="book")
    no_exception(at)
    assert at.radio(key="prune_rep_ties").value == "prune"
    assert "4 nodes, 3 leaves" in after_title(at)


def test_other_methods_show_no_tie_rule():
    at = start(PRUNE, sample="watermelon_2.0_split", algo="id3", prune_method="pep")
    no_exception(at)
    assert not [r for r in at.radio if r.key == "prune_rep_ties"]
    assert not [d for d in at.dataframe if d.value.columns[-1] == "Decision"]
