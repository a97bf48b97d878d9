"""The Data page says which data is loaded (issue 16, item 15): after an upload the sample box
shows no sample; picking a sample empties the upload box; every column of a 12-column table
shows in the role grid without an inner scroll."""

from __future__ import annotations

from tests.app.apptest import start
from ui.views.tables import GRID_ROW_PX, role_grid_height

DATA = "pages/data.py"


def _upload(at, name: str, n_cols: int = 3):
    header = ",".join(f"c{i}" for i in range(n_cols - 1)) + ",y"
    rows = "".join(
        ",".join(str((r * (i + 1)) % 7) for i in range(n_cols - 1)) + f",{'ab'[r % 2]}\n" for r in range(40)
    )
    uploader = at.get("file_uploader")[0]
    at.file_uploader(key=uploader.proto.id and uploader.key).set_value(
        (name, (header + "\n" + rows).encode(), "text/csv")
    ).run()


def test_upload_then_sample_then_upload_again():
    at = start()
    at.switch_page(DATA).run()
    _upload(at, "mine.csv", n_cols=12)
    assert not at.exception
    assert at.session_state["data"].name == "mine.csv"
    box = at.selectbox(key="sample")
    assert box.value is None  # the placeholder, not "Watermelon 3.0"
    assert "uploaded file is loaded" in box.proto.placeholder
    assert len(at.dataframe[1].value) == 12  # the role grid: one row per column
    box.set_value("watermelon_3.0").run()  # the sample the box showed before can be picked now
    assert not at.exception
    assert at.session_state["data"].name == "watermelon_3.0"
    assert next(e.key for e in at.main if type(e).__name__ == "FileUploader") != "upload"  # a fresh box
    _upload(at, "again.csv")
    assert at.session_state["data"].name == "again.csv" and at.selectbox(key="sample").value is None


def test_role_grid_is_tall_enough_for_every_column_up_to_its_cap():
    assert role_grid_height(12) == GRID_ROW_PX * 13 + 3  # 12 rows and the header, no inner scroll
    assert role_grid_height(500) == role_grid_height(30)  # a very wide table scrolls inside
