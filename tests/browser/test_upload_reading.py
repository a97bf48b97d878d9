"""A file that takes seconds to read says so while it is read: an Excel upload of 10⁵ rows took
some 12 s with nothing on the page but Streamlit's small running mark. The Data page shows
"Reading <name> …" under the upload box until the table is in."""

from __future__ import annotations

import re
import zipfile

import numpy as np
import pytest

from tests.browser.test_screenshots import open_page, script_done

pytestmark = pytest.mark.browser


def number_book(path, rows: int, columns: int) -> None:
    """An .xlsx of a header row (x0, x1, …, y) and ``rows`` rows of numbers, its XML written
    directly (openpyxl took 2 s to write what this writes in 0.2 s; openpyxl reads both alike)."""
    rng = np.random.default_rng(0)
    values = rng.normal(size=(rows, columns))
    names = [f"x{j}" for j in range(columns)] + ["y"]
    letters = [chr(ord("A") + j) for j in range(columns + 1)]
    head = "".join(f'<c r="{c}1" t="inlineStr"><is><t>{n}</t></is></c>' for c, n in zip(letters, names))
    body = [f'<row r="1">{head}</row>']
    for i, row in enumerate(values, start=2):
        cells = "".join(f'<c r="{c}{i}"><v>{v!r}</v></c>' for c, v in zip(letters, row.tolist()))
        label = "a" if row[0] > 0 else "b"
        body.append(
            f'<row r="{i}">{cells}<c r="{letters[-1]}{i}" t="inlineStr"><is><t>{label}</t></is></c></row>'
        )
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
        ),
        "_rels/.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
            '<sheet name="data" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{main}"><sheetData>{"".join(body)}</sheetData></worksheet>',
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, text)


def test_a_slow_excel_upload_says_it_is_being_read(page, app_url, tmp_path):
    book = tmp_path / "slow *book* <i>x.xlsx"  # the name is user data: shown as text
    number_book(book, 25_000, 7)  # some 2 s to read here: past the spinner's 0.5 s delay anywhere
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
