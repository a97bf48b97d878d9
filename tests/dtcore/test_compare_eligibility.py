"""``dtcore compare`` scores a test as one C4.5 could make only when C4.5's own rule allows it
(two branches with at least MINOBJS weight), as the builder and the split explorer decide."""

import json

from tests.cli_runner import run_cli
from tests.datasets import DATA


def test_an_id_column_c45_refuses_is_not_its_candidate():
    """编号 as a category: 17 branches of one row each, so no branch holds 2 rows and C4.5
    (and the explorer: ``min_cases``) rejects it; compare must not call it possible, nor say
    that the gain ratio decided against it."""
    args = ("compare", DATA / "watermelon_3.0.csv", "--target", "好瓜", "--categorical", "编号")
    proc = run_cli(*args, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    first = json.loads(proc.stdout)["first_disagreement"]
    ids = [i for i, t in enumerate(first["tests"]) if t["name"] == "编号" and len(t["labels"]) == 17]
    assert ids, first["tests"]
    assert first["scores"][ids[0]]["c45"]["possible"] is False
    assert first["scores"][ids[0]]["id3"]["possible"] is True  # ID3 has no such rule by default
    text = run_cli(*args, "--format", "text").stdout
    c45_line = next(line for line in text.splitlines() if line.strip().startswith("C4.5 chose"))
    assert "编号" not in c45_line, c45_line
    assert "gain ratio divides the gain" not in text, text
