"""An upload past a size limit: one line naming the limit, and the previous data stays."""

from tests.app.apptest import start
from tests.ui.test_upload_limits import xlsx_a1_xfd1

DATA = "pages/data.py"


def test_too_wide_upload_names_the_limit_and_keeps_the_data():
    at = start()
    at.switch_page(DATA).run()
    before = at.session_state["data"].name
    at.file_uploader(key="upload").set_value(("wide.xlsx", xlsx_a1_xfd1(), "application/zip")).run()
    assert not at.exception
    assert at.error and "wide" in at.error[0].value
    assert "too large to load" in at.error[0].value and "1,000 columns" in at.error[0].value
    assert "DTREE\\_MAX\\_COLUMNS" in at.error[0].value  # markdown-escaped
    assert at.session_state["data"].name == before  # previous data kept
