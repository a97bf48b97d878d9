"""Snapshot comparison for text outputs (JSON, DOT, rules, SVG, figure JSON) and screenshots.

Expected files live in ``tests/snapshots/<layer>/``. ``UPDATE_SNAPSHOTS=1`` rewrites them instead
of comparing (review the change with ``git diff`` before committing it). On a mismatch the actual
output is written to ``tests/snapshots/_actual/<layer>/`` beside a diff (unified diff for text;
for screenshots ``<name>.expected.png``, ``<name>.actual.png`` and ``<name>.diff.png`` with the
differing pixels in red), and the assertion names those files. A passing comparison removes the
files an earlier failure left there, so ``_actual/`` only ever shows current failures.

``layer`` and ``name`` may both contain ``/`` (e.g. layer ``dtcore/watermelon3-c45``).
"""

from __future__ import annotations

import difflib
import io
import os
import warnings
from pathlib import Path

SNAPSHOT_DIR = Path(__file__).parent / "snapshots"
ACTUAL_DIR = SNAPSHOT_DIR / "_actual"


def updating() -> bool:
    return os.environ.get("UPDATE_SNAPSHOTS", "") not in ("", "0", "false", "no")


def _write_new(expected_path: Path, data: bytes) -> None:
    """Store a snapshot (update mode, or first run outside CI); in CI a missing one fails."""
    if not updating():
        if os.environ.get("CI"):
            raise AssertionError(f"snapshot {expected_path} is missing; create it with UPDATE_SNAPSHOTS=1")
        warnings.warn(f"new snapshot written: {expected_path} (review it and commit it)", stacklevel=2)
    expected_path.parent.mkdir(parents=True, exist_ok=True)
    expected_path.write_bytes(data)


def _clear(*paths: Path) -> None:
    for p in paths:
        p.unlink(missing_ok=True)


def assert_text_snapshot(layer: str, name: str, text: str) -> None:
    expected_path = SNAPSHOT_DIR / layer / name
    actual_path = ACTUAL_DIR / layer / name
    diff_path = actual_path.with_name(actual_path.name + ".diff")
    if updating() or not expected_path.exists():
        _write_new(expected_path, text.encode("utf-8"))
        _clear(actual_path, diff_path)
        return
    expected = expected_path.read_bytes().decode("utf-8")
    if expected == text:
        _clear(actual_path, diff_path)
        return
    actual_path.parent.mkdir(parents=True, exist_ok=True)
    actual_path.write_bytes(text.encode("utf-8"))
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(True),
            text.splitlines(True),
            f"expected/{layer}/{name}",
            f"actual/{layer}/{name}",
            n=2,
        )
    )
    diff_path.write_text(diff, encoding="utf-8")
    shown = diff if len(diff) < 4000 else diff[:4000] + "\n… (diff cut; full diff in the .diff file)"
    raise AssertionError(
        f"text snapshot {layer}/{name} differs (actual: {actual_path}; "
        f"UPDATE_SNAPSHOTS=1 accepts it):\n{shown}"
    )


def assert_image_snapshot(
    layer: str, name: str, png: bytes, *, tolerance: float = 0.002, channel_tolerance: int = 16
) -> None:
    """Compare a PNG with the stored one: at most ``tolerance`` of the pixels may differ by more
    than ``channel_tolerance`` in some channel (anti-aliasing noise), and the sizes must agree.
    ``UPDATE_SNAPSHOTS=1`` rewrites only pictures outside the tolerance, so an update on another
    machine does not churn every PNG over invisible anti-aliasing differences.

    On failure: expected, actual and diff images (the diff on a canvas big enough for both when
    the sizes differ; red = differing pixels over a faded copy of the expected picture)."""
    import numpy as np
    from PIL import Image

    expected_path = SNAPSHOT_DIR / layer / name
    stem = name.rsplit(".", 1)[0]
    out = {k: ACTUAL_DIR / layer / f"{stem}.{k}.png" for k in ("expected", "actual", "diff")}
    if not expected_path.exists():
        _write_new(expected_path, png)
        _clear(*out.values())
        return
    expected = Image.open(expected_path).convert("RGB")
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = max(expected.width, actual.width), max(expected.height, actual.height)

    def canvas(img):
        c = np.full((h, w, 3), 255, dtype=np.int16)
        c[: img.height, : img.width] = np.asarray(img, dtype=np.int16)
        return c

    e, a = canvas(expected), canvas(actual)
    mask = (np.abs(e - a) > channel_tolerance).any(axis=2)
    if expected.size != actual.size:  # the margin only one picture covers differs entirely
        mask[expected.height :, :] = mask[:, expected.width :] = True
        mask[actual.height :, :] = mask[:, actual.width :] = True
    changed = int(mask.sum())
    share = changed / (w * h)
    if expected.size == actual.size and share <= tolerance:
        _clear(*out.values())  # within tolerance: an update keeps the stored file (no churn)
        return
    if updating():
        _write_new(expected_path, png)
        _clear(*out.values())
        return
    out["diff"].parent.mkdir(parents=True, exist_ok=True)
    actual.save(out["actual"])
    expected.save(out["expected"])
    faded = (e * 0.3 + 255 * 0.7).astype(np.uint8)
    faded[mask] = (255, 0, 0)
    Image.fromarray(faded).save(out["diff"])
    what = (
        f"size {actual.size} != expected {expected.size}"
        if expected.size != actual.size
        else f"{changed} pixels ({share:.2%}) differ, more than {tolerance:.2%}"
    )
    raise AssertionError(
        f"screenshot {layer}/{name}: {what}; expected/actual/diff images in "
        f"{out['diff'].parent} (UPDATE_SNAPSHOTS=1 accepts the new picture)"
    )
