"""bench/bench_library.py's table: the ratio is ours / peer on CPU, judged against the goal, and
``--write-doc`` writes that table to a Markdown page (run on made-up timings: the benchmark
itself takes minutes)."""

from __future__ import annotations

from bench.bench_library import Line, Memory, Timing, table, write_doc


def test_table_ratio_goal_and_missing_peer(tmp_path):
    lines = [
        Line("predict", Timing(0.1, 0.2), Timing(0.125, 0.3), "scikit-learn", 1.0, "511 nodes"),
        Line("ID3 fit", Timing(1.2, 1.3), Timing(0.6, 1.1), "Weka Id3", 0.3),
        Line("alone", Timing(1.0, 1.0), None, "Weka Id3 (not run: no java)", 0.3),
        Line("fit memory", Memory(197.4), Memory(131.6), "scikit-learn", 2.0),
    ]
    rows = table(lines)
    assert rows[0].startswith("| what | dtcore | peer | ratio (CPU or MB) | goal | met |")
    assert "| 0.80× | ≤ 1.0× | yes | 511 nodes |" in rows[2]
    assert "| 2.00× | ≤ 0.3× | no |" in rows[3]
    assert "0.100 s CPU (0.200 s wall)" in rows[2]
    assert "| — | ≤ 0.3× | — |" in rows[4]
    assert "| 197 MB | scikit-learn: 132 MB | 1.50× | ≤ 2.0× | yes |" in rows[5]  # megabytes, not seconds
    page = tmp_path / "speed-library.md"
    write_doc(rows, 3, page)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Library speed against the peers\n")
    assert "\n".join(rows) in text
    assert "best of\n3 rounds" in text
