"""bench/lines_pruning.py on a small tree: the two pruning lines, judged against issue 28's
goals in CPU seconds (the real run, on 10⁵ rows, takes a minute)."""

from __future__ import annotations

from bench.bench_library import Line
from bench.lines_pruning import CCP_CV_GOAL, EBP_GOAL, pruning_lines


def test_two_lines_against_the_goals(capsys):
    lines = pruning_lines(1, rows=1000)
    assert [type(ln) for ln in lines] == [Line, Line]
    ebp, cv = lines
    assert ebp.what.startswith("EBP, ") and ebp.what.endswith("-node tree")
    assert cv.what.startswith("CCP with 10-fold CV, ")
    for line, goal in ((ebp, EBP_GOAL), (cv, CCP_CV_GOAL)):
        assert line.peer is not None and line.peer.cpu == goal and line.goal == 1.0
        assert line.ratio == line.ours.cpu / goal and line.met == "yes"
    assert "growing the 10 fold trees" in cv.note
    printed = capsys.readouterr().out.splitlines()
    assert [row.split(" | ")[0] for row in printed] == [f"| {ebp.what}", f"| {cv.what}"]


def test_no_lines_when_others_are_asked_for():
    assert pruning_lines(1, ["predict"]) == []
