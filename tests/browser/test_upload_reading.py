"""A file that takes seconds to read says so while it is read: an Excel upload of 10⁵ rows took
some 12 s with nothing on the page but Streamlit's small running mark. The Data page shows
"Reading <name> …" under the upload box until the table is in."""

from __future__ import annotations

import re

import numpy as np
import pytest

from bench.workbook import write_xlsx
from tests.browser.test_screenshots import open_page, script_done

pytestmark = pytest.mark.browser


def test_a_slow_excel_upload_says_it_is_being_read(page, app_url, tmp_path):
    book = tmp_path / "slow *book* <i>x.xlsx"  # the name is user data: shown as text
    values = np.random.default_rng(0).normal(size=(25_000, 7))
    rows = ([*r, "a" if r[0] > 0 else "b"] for r in values.tolist())
    write_xlsx(book, [f"x{j}" for j in range(7)] + ["y"], rows)  # 2 s to read: past the spinner's 0.5 s
    open_page(page, app_url, "data", lang="en")
    script_done(page, timeout=60_000)
    page.locator('input[type=file][accept*=".xlsx"]').first.set_input_files(str(book))
    notice = page.get_by_text("Reading slow *book* <i>x.xlsx …")
    notice.first.wait_for(state="visible", timeout=30_000)
    spinner = page.locator('[data-testid="stSpinner"]')
    assert spinner.count() == 1 and spinner.locator("em, i").count() == 0  # the name as text
    page.locator('[data-testid="stSidebar"]').get_by_text(re.compile(r"25[, ]?000 rows")).first.wait_for(
        timeout=120_000
    )
    script_done(page, timeout=120_000)
    assert notice.count() == 0, "the notice stays only while the file is read"
