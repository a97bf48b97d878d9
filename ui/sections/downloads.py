"""The Train page's download buttons: one table of formats, every payload built only when its
button is clicked (a 30 000-node tree's JSON and DOT take seconds to write)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dtcore import export
from dtcore.base import BaseTreeEstimator
from ui.state.state import t


@dataclass(frozen=True)
class Download:
    label: str  # catalogue key of the button's label
    build: Callable[[BaseTreeEstimator], str | bytes]  # est → the file's content
    suffix: str
    mime: str
    icon: str | None = None
    needs_dot: bool = False  # drawn by Graphviz's dot: disabled where it is missing
    help: str | None = None  # catalogue key


# the builders look ``export`` up when called, so a test may watch them
FORMATS = {
    "json": Download(
        "download.json",
        lambda e: export.dumps_model(e),
        ".json",
        "application/json",
        ":material/data_object:",
    ),
    "dot": Download("download.dot", lambda e: export.to_dot(e), ".dot", "text/vnd.graphviz"),
    "svg": Download(
        "download.svg",
        lambda e: export.render(export.to_dot(e), "svg"),
        ".svg",
        "image/svg+xml",
        ":material/image:",
        True,
    ),
    "png": Download(
        "download.png",
        lambda e: export.render(export.to_dot(e), "png", dpi=144),
        ".png",
        "image/png",
        ":material/image:",
        True,
    ),
    "rules": Download(
        "download.rules", lambda e: export.to_text(e), "-rules.txt", "text/plain", ":material/list:"
    ),
    "pdf": Download(
        "download.pdf",
        lambda e: export.render(export.to_dot(e), "pdf"),
        ".pdf",
        "application/pdf",
        ":material/picture_as_pdf:",
        True,
    ),
    "html": Download(
        "download.html",
        lambda e: export.to_html(e, export.render(export.to_dot(e), "svg").decode("utf-8")),
        ".html",
        "text/html",
        ":material/web:",
        True,
        help="download.html_help",
    ),
    "python": Download(
        "download.python",
        lambda e: export.to_python(e),
        ".py",
        "text/x-python",
        ":material/code:",
        help="download.code_help",
    ),
    "sql": Download(
        "download.sql",
        lambda e: export.to_sql(e),
        ".sql",
        "application/sql",
        ":material/database:",
        help="download.code_help",
    ),
}


def graphviz_missing() -> bool:
    return shutil.which("dot") is None


def download_row(cells: Sequence, est, stem: str, formats: Sequence[str]) -> None:
    """One button per format in ``cells``; each payload is written when its button is clicked."""
    no_dot = graphviz_missing()
    for cell, name in zip(cells, formats):
        d = FORMATS[name]
        cell.download_button(
            t(d.label),
            lambda d=d: d.build(est),
            f"{stem}{d.suffix}",
            d.mime,
            on_click="ignore",
            icon=d.icon,
            disabled=d.needs_dot and no_dot,
            help=t(d.help) if d.help else None,
        )
