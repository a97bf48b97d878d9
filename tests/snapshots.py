"""Snapshot comparison for text outputs (JSON, DOT, rules, SVG, figure JSON) and screenshots.

Expected files live in ``tests/snapshots/<layer>/``. ``UPDATE_SNAPSHOTS=1`` rewrites them instead
of comparing (review the change with ``git diff`` before committing it). On a mismatch the actual
output is written to ``tests/snapshots/_actual/`` beside a diff (unified diff for text; an image
with the differing pixels in red for screenshots), and the assertion names those files.
"""
from __future__ import annotations

import difflib
import io
import os
from pathlib import Path

SNAPSHOT_DIR = Path(__file__).parent / "snapshots"
ACTUAL_DIR = SNAPSHOT_DIR / "_actual"


def updating() -> bool:
    return os.environ.get("UPDATE_SNAPSHOTS", "") not in ("", "0", "false", "no")


def assert_text_snapshot(layer: str, name: str, text: str) -> None:
    expected_path = SNAPSHOT_DIR / layer / name
    if updating() or not expected_path.exists():
        if not updating() and os.environ.get("CI"):
            raise AssertionError(f"snapshot {expected_path} is missing; create it with UPDATE_SNAPSHOTS=1")
        expected_path.parent.mkdir(parents=True, exist_ok=True)
        expected_path.write_text(text, encoding="utf-8")
        return
    expected = expected_path.read_text(encoding="utf-8")
    if expected == text:
        return
    actual_path = ACTUAL_DIR / layer / name
    actual_path.parent.mkdir(parents=True, exist_ok=True)
    actual_path.write_text(text, encoding="utf-8")
    diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                        f"expected/{layer}/{name}", f"actual/{layer}/{name}", n=2))
    (actual_path.parent / (name + ".diff")).write_text(diff, encoding="utf-8")
    shown = diff if len(diff) < 4000 else diff[:4000] + "\n… (diff cut; full diff in the .diff file)"
    raise AssertionError(f"text snapshot {layer}/{name} differs (actual: {actual_path}; "
                         f"UPDATE_SNAPSHOTS=1 accepts it):\n{shown}")


def assert_image_snapshot(layer: str, name: str, png: bytes, *, tolerance: float = 0.002,
                          channel_tolerance: int = 16) -> None:
    """Compare a PNG with the stored one: at most ``tolerance`` of the pixels may differ by more
    than ``channel_tolerance`` in some channel (anti-aliasing noise), and the sizes must agree."""
    from PIL import Image, ImageChops

    expected_path = SNAPSHOT_DIR / layer / name
    if updating() or not expected_path.exists():
        if not updating() and os.environ.get("CI"):
            raise AssertionError(f"snapshot {expected_path} is missing; create it with UPDATE_SNAPSHOTS=1")
        expected_path.parent.mkdir(parents=True, exist_ok=True)
        expected_path.write_bytes(png)
        return
    expected = Image.open(expected_path).convert("RGB")
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    out_dir = ACTUAL_DIR / layer
    stem = name.rsplit(".", 1)[0]
    if expected.size != actual.size:
        out_dir.mkdir(parents=True, exist_ok=True)
        actual.save(out_dir / f"{stem}.actual.png")
        expected.save(out_dir / f"{stem}.expected.png")
        raise AssertionError(f"screenshot {layer}/{name}: size {actual.size} != expected {expected.size} "
                             f"(actual written to {out_dir})")
    diff = ImageChops.difference(expected, actual)
    # a pixel differs when any of its channels is past the tolerance
    bands = [b.point(lambda v: 255 if v > channel_tolerance else 0) for b in diff.split()]
    mask = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    changed = sum(1 for v in mask.getdata() if v)
    share = changed / (expected.size[0] * expected.size[1])
    if share <= tolerance:
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    actual.save(out_dir / f"{stem}.actual.png")
    expected.save(out_dir / f"{stem}.expected.png")
    red = Image.new("RGB", expected.size, (255, 0, 0))
    faded = Image.blend(expected, Image.new("RGB", expected.size, (255, 255, 255)), 0.7)
    Image.composite(red, faded, mask).save(out_dir / f"{stem}.diff.png")
    raise AssertionError(f"screenshot {layer}/{name}: {changed} pixels ({share:.2%}) differ, more than "
                         f"{tolerance:.2%}; expected/actual/diff images in {out_dir} "
                         "(UPDATE_SNAPSHOTS=1 accepts the new picture)")
