"""The tree in a Jupyter notebook: ``dtcore.show(model, x=row)`` and the fitted estimators'
``_repr_html_`` give the standalone page (``dtcore.export.html``) inside an ``<iframe srcdoc>``,
so two views in one notebook share no ids, scripts or styles, and the page's script runs in a
sandbox (``allow-scripts`` only: no access to the notebook, no network origin of its own).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dtcore.export.dot import to_dot
from dtcore.export.html import to_html
from dtcore.export.render import GraphvizMissing, render

if TYPE_CHECKING:
    from dtcore.base import BaseTreeEstimator

#: the iframe's height in pixels: the frame, the search line and the sample's form
VIEW_HEIGHT = 900


@dataclass(frozen=True)
class TreeView:
    """A notebook's view of a tree: the standalone page's HTML, shown in an iframe."""

    page: str
    height: int = VIEW_HEIGHT

    def _repr_html_(self) -> str:
        return (
            f'<iframe srcdoc="{html.escape(self.page, quote=True)}" sandbox="allow-scripts" '
            f'style="width: 100%; height: {int(self.height)}px; border: 0;" '
            'title="decision tree"></iframe>'
        )


def _row_as_mapping(model: BaseTreeEstimator, x: Any) -> dict[str, object]:
    """A sample given as a mapping (column → value), a pandas Series or one-row DataFrame (read
    by duck typing), or a sequence of values in the model's feature order."""
    names = model.schema_.names
    if hasattr(x, "columns") and hasattr(x, "iloc"):  # a DataFrame: its first row
        frame: Any = x
        if len(frame) != 1:
            raise ValueError(f"x is a table of {len(frame)} rows; give one row")
        x = {str(c): frame.iloc[0][c] for c in frame.columns}
    elif hasattr(x, "index") and hasattr(x, "to_dict") and not isinstance(x, Mapping):  # a Series
        series: Any = x
        x = {str(k): v for k, v in series.to_dict().items()}
    if isinstance(x, Mapping):
        return {str(k): v for k, v in x.items()}
    values = list(x)
    if len(values) != len(names):
        raise ValueError(f"x has {len(values)} values; the model has {len(names)} features ({names})")
    return dict(zip(names, values))


def show(
    model: BaseTreeEstimator, x: Any = None, *, precision: int = 3, height: int = VIEW_HEIGHT
) -> TreeView:
    """The tree's pan/zoom view for a notebook, with ``x``'s path drawn when given (a mapping
    column → value, a pandas Series or one-row DataFrame, or the values in feature order).
    Needs Graphviz's ``dot`` (``GraphvizMissing`` otherwise)."""
    if not hasattr(model, "tree_"):
        raise ValueError(f"this {type(model).__name__} is not fitted yet: call fit first")
    sample = None if x is None else _row_as_mapping(model, x)
    svg = render(to_dot(model, precision=precision), "svg").decode("utf-8")
    return TreeView(to_html(model, svg, sample=sample), height)


def repr_html(model: BaseTreeEstimator) -> str | None:
    """A fitted estimator's notebook view (None, so that the text repr shows, when it is not
    fitted or Graphviz is missing)."""
    if not hasattr(model, "tree_"):
        return None
    try:
        return show(model)._repr_html_()
    except GraphvizMissing:
        return None
