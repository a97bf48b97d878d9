"""Words of thresholds: C4.5's stored threshold (release 8: the largest training value ≤ the cut)
shown with the midpoint the textbook prints (dtcore/export/thresholds.py)."""

WORDS: dict[str, tuple[str, str]] = {
    # "密度 ≤ 0.36 (midpoint 0.3815)" in the split explorer
    "thresholds.midpoint_after": (" (midpoint {value})", "（中点 {value}）"),
}
