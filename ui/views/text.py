"""Text the pages write: user text made safe for Markdown, training errors as text (numbers are
``dtcore.numbers``').

User text (file names, column names, labels): Streamlit Markdown also reads ``:color[...]`` directives, ``$`` maths and emoji shortcodes, so
every punctuation character Markdown could act on is backslash-escaped and ``<`` becomes an entity.

GitHub-flavoured Markdown also turns bare ``https://…``, ``www.…`` and ``a@b.c`` into links, and
does so on the text *after* escapes are decoded, so backslashes cannot stop it: an invisible
WORD JOINER (U+2060) is put inside ``://``, ``www.`` and before ``@``, which the autolinker then
no longer recognises; the text still reads exactly as typed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Protocol

#: the pages' translation function: ``t(key, **values)`` → text in the user's language
Translate = Callable[..., str]


class KeyedError(Protocol):
    """A ``TrainingError`` or ``LoadError``: a catalogue key and the values that fill it in."""

    key: str
    params: dict[str, object]


_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~:$>=])")
WJ = "\u2060"
_AUTOLINK = re.compile(r"(:)(?=//)|(?i:(www))(?=\.)|()(?=@)")


def md_escape(text: object) -> str:
    """``text`` shown literally inside Markdown (newlines become spaces)."""
    s = re.sub(r"[\r\n\t]+", " ", str(text))
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    s = _AUTOLINK.sub(lambda m: (m.group(1) or m.group(2) or "") + WJ, s)
    return _SPECIAL.sub(r"\\\1", s)


def html_text(text: object) -> str:
    """User text inside raw HTML that a Markdown element shows (an SVG's text or attribute, a
    ``<pre>``): markup characters, quotes and colons as entities, control characters (a line
    break would end the Markdown HTML block) and characters XML forbids as spaces."""
    clean = "".join(
        " " if unicodedata.category(c) in ("Cc", "Cs") or c in "\ufffe\uffff" else c for c in str(text)
    )
    # ":" as an entity: Streamlit's Markdown rewrites ":material/" to ":material_" in its whole
    # source, raw HTML included, before it parses it (the DOM decodes the entity back)
    return escape(clean, quote=True).replace(":", "&#58;")


#: st.code's look: monospace, the lines as written, a light panel
PRE_STYLE = (
    "white-space: pre-wrap; font-family: 'Source Code Pro', monospace; font-size: 0.875rem; "
    "line-height: 1.6; background: rgba(172, 177, 195, 0.15); border-radius: 0.5rem; "
    "padding: 0.75rem 1rem; margin-bottom: 1rem"
)


def pre_html(lines: Iterable[object]) -> str:
    """Lines of user text as a preformatted block for ``st.markdown(..., unsafe_allow_html=True)``:
    monospaced like ``st.code`` without its 1.5 MB syntax highlighter, which the browser fetched
    and ran on every cold visit of Train & tree for the what-if's mixing lines (issue 26)."""
    body = "&#10;".join(html_text(line) for line in lines)  # one line of HTML: no blank line ends it
    # a <div>: Streamlit's Markdown turns a <pre> into a div of its own that folds the lines
    return f'<div class="dt-pre" style="{PRE_STYLE}">{body}</div>'


@dataclass(frozen=True)
class TextTable:
    """A small table of text cells (headers and rows as shown), drawn by ``table_html``."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def column(self, name: str) -> list[str]:
        """The cells of the column headed ``name``, top to bottom."""
        i = self.columns.index(name)
        return [row[i] for row in self.rows]

    @classmethod
    def of_frame(cls, frame: Any, index_header: str | None = None) -> TextTable:
        """A small pandas DataFrame as text cells; ``index_header``: its index as a first column
        headed so (None: the index is left out)."""
        columns = [str(c) for c in frame.columns]
        rows = [[str(v) for v in row] for row in frame.itertuples(index=False, name=None)]
        if index_header is not None:
            columns = [index_header, *columns]
            rows = [[str(i), *row] for i, row in zip(frame.index, rows)]
        return cls(tuple(columns), tuple(tuple(r) for r in rows))

    @classmethod
    def of_rows(cls, rows: Sequence[Mapping[str, object]]) -> TextTable:
        """Rows given as {header: cell} (every row with the first row's headers), cells as text."""
        columns = tuple(rows[0]) if rows else ()
        return cls(columns, tuple(tuple(str(row[c]) for c in columns) for row in rows))


#: st.dataframe's look for a few rows: full width, thin rules, a shaded header; a box of a given
#: height scrolls its rows under an opaque header. One stylesheet the frame puts on every page
#: (app.py), not a style per cell: that repeated ~110 bytes in every cell of every table sent.
TABLE_CSS = (
    ".dt-table{width:100%;border-collapse:collapse;font-size:0.875rem;margin-bottom:1rem}"
    ".dt-table th,.dt-table td{border:1px solid rgba(49,51,63,0.1);padding:0.25rem 0.5rem;text-align:left}"
    ".dt-table th{background:rgba(172,177,195,0.15);font-weight:600}"
    ".dt-table-box{overflow:auto}"
    ".dt-table-box .dt-table th{background:#f3f3f6;position:sticky;top:0}"
)


def table_html(table: TextTable, max_height: str | None = None) -> str:
    """A ``TextTable`` as one line of HTML for ``st.markdown(..., unsafe_allow_html=True)``: a few
    rows drawn without ``st.dataframe``'s grid, whose 1.2 MB of scripts the browser fetched and
    ran on every cold visit of Train & tree for the what-if's three tables (issue 26). Styled by
    ``TABLE_CSS``. ``max_height`` (CSS): the table scrolls inside a box that tall, its header kept
    in view."""
    head = "".join(f"<th>{html_text(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{html_text(c)}</td>" for c in row) + "</tr>" for row in table.rows)
    table_text = f'<table class="dt-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    if max_height is None:
        return table_text
    return f'<div class="dt-table-box" style="max-height: {max_height}">{table_text}</div>'


def training_error(exc: KeyedError, t: Translate) -> str:
    """A ``TrainingError`` in the user's language (``t``: translation): its values escaped, an
    algorithm or task named by its title."""
    params = {k: md_escape(v) if isinstance(v, str) else v for k, v in exc.params.items()}
    if "algorithm" in params:
        params["algorithm"] = t(f"algo.{exc.params['algorithm']}")
    if "task" in params:
        params["task"] = t(f"task.{exc.params['task']}")
    return t(exc.key, **params)


def sentence(text: str) -> str:
    """``text`` ending with a full stop (messages from the library often have none, and the app
    puts another sentence after them)."""
    text = str(text).rstrip()
    return text if not text or text[-1] in ".!?。！？…" else text + "."
