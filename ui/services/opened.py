"""A model file opened in the app (no pickles: dtcore JSON, XGBoost/LightGBM JSON or LightGBM
text, PMML), read through ``dtcore.importers.model_from_text``; errors become catalogue keys."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from dtcore.base import BaseTreeEstimator
from dtcore.importers import model_from_text

#: the file types the "Open a model" box takes
MODEL_TYPES = ("json", "txt", "pmml", "xml")
#: larger model files are refused before they are read (a tree of 100 000 nodes is far smaller)
MAX_MODEL_BYTES = 64 * 1024 * 1024


class OpenError(ValueError):
    """A model file the app cannot open: a catalogue key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(f"{key}: {params}")
        self.key = key
        self.params = params


@dataclass(frozen=True)
class OpenedModel:
    """The model of one opened file: its name, content digest, the member picked, the estimator."""

    name: str
    digest: str
    tree: int
    estimator: BaseTreeEstimator


def open_model(name: str, data: bytes, tree: int = 0) -> OpenedModel:
    """The tree ``tree`` of the model file ``data``; :class:`OpenError` when it cannot be read."""
    if len(data) > MAX_MODEL_BYTES:
        raise OpenError("opened.too_big", mb=MAX_MODEL_BYTES // (1024 * 1024))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OpenError("opened.not_text") from None
    try:
        est = model_from_text(text, tree, name)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        # the importers' ValueErrors name what cannot map; a damaged file's structure errors
        # (a missing key, a wrong type) are told in one line, never as a traceback
        detail = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        raise OpenError("opened.failed", detail=detail) from None
    return OpenedModel(name, hashlib.sha256(data).hexdigest(), tree, est)
