"""The snapshot helpers fail, report and update as docs/contributing.md says (on temporary folders)."""

import io

import pytest
from PIL import Image, ImageDraw

from tests import snapshots


@pytest.fixture
def dirs(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_DIR", tmp_path / "snap")
    monkeypatch.setattr(snapshots, "ACTUAL_DIR", tmp_path / "snap" / "_actual")
    monkeypatch.delenv("UPDATE_SNAPSHOTS", raising=False)
    monkeypatch.delenv("CI", raising=False)
    return tmp_path / "snap"


def png(label: str, size=(200, 60), dot=None) -> bytes:
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    d.text((10, 20), label, fill="black")
    if dot:
        d.point(dot, fill="black")
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def test_text_mismatch_writes_actual_and_diff_then_update_accepts(dirs, monkeypatch):
    with pytest.warns(UserWarning, match="new snapshot"):
        snapshots.assert_text_snapshot("dtcore/case", "tree.dot", "samples = 17\n")
    snapshots.assert_text_snapshot("dtcore/case", "tree.dot", "samples = 17\n")
    with pytest.raises(AssertionError, match=r"-samples = 17\n\+samples: 17"):
        snapshots.assert_text_snapshot("dtcore/case", "tree.dot", "samples: 17\n")
    actual = dirs / "_actual" / "dtcore" / "case"
    assert (actual / "tree.dot").read_text() == "samples: 17\n"
    assert "+samples: 17" in (actual / "tree.dot.diff").read_text()
    monkeypatch.setenv("UPDATE_SNAPSHOTS", "1")
    snapshots.assert_text_snapshot("dtcore/case", "tree.dot", "samples: 17\n")
    assert (dirs / "dtcore" / "case" / "tree.dot").read_text() == "samples: 17\n"
    assert not (actual / "tree.dot").exists() and not (actual / "tree.dot.diff").exists()


def test_missing_snapshot_fails_in_ci(dirs, monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(AssertionError, match="missing"):
        snapshots.assert_text_snapshot("x", "y.txt", "z")


def test_image_tolerance_diff_images_and_update(dirs, monkeypatch):
    with pytest.warns(UserWarning):
        snapshots.assert_image_snapshot("browser", "tree.png", png("samples = 17"))
    stored = (dirs / "browser" / "tree.png").read_bytes()
    snapshots.assert_image_snapshot(
        "browser", "tree.png", png("samples = 17", dot=(150, 5))
    )  # 1 pixel: noise
    with pytest.raises(AssertionError, match="pixels"):
        snapshots.assert_image_snapshot("browser", "tree.png", png("samples: 17"))
    out = dirs / "_actual" / "browser"
    for kind in ("expected", "actual", "diff"):
        assert Image.open(out / f"tree.{kind}.png").size == (200, 60)
    diff = Image.open(out / "tree.diff.png").convert("RGB")
    assert (255, 0, 0) in {c for _, c in diff.getcolors(10_000)}
    with pytest.raises(AssertionError, match="size"):
        snapshots.assert_image_snapshot("browser", "tree.png", png("samples = 17", size=(210, 60)))
    assert Image.open(out / "tree.diff.png").size == (210, 60)
    monkeypatch.setenv("UPDATE_SNAPSHOTS", "1")
    snapshots.assert_image_snapshot("browser", "tree.png", png("samples = 17", dot=(150, 5)))
    assert (dirs / "browser" / "tree.png").read_bytes() == stored  # within tolerance: kept
    snapshots.assert_image_snapshot("browser", "tree.png", png("samples: 17"))
    assert (dirs / "browser" / "tree.png").read_bytes() == png("samples: 17")
    assert not (out / "tree.diff.png").exists()
