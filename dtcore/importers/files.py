"""``load_model``: a model file of any format dtcore reads, told apart by its content, not its
name: dtcore's own JSON (``"format": "dtcore-model"``), XGBoost's JSON model (a ``learner``
entry), LightGBM's ``dump_model()`` JSON (``"name": "tree"`` and ``tree_info``), LightGBM's text
model (``tree`` then ``version=``), and PMML (an XML document whose root is ``PMML``). ``tree``
picks a member of an ensemble (a dtcore model holds one tree: only 0)."""

from __future__ import annotations

import json
from pathlib import Path

from dtcore.base import BaseTreeEstimator
from dtcore.export.model_json import FORMAT, model_from_dict
from dtcore.importers.assemble import imported_class
from dtcore.importers.lightgbm import (
    from_lightgbm_dump,
    from_lightgbm_text,
    is_lightgbm_dump,
    is_lightgbm_text,
)
from dtcore.importers.pmml import from_pmml, is_pmml
from dtcore.importers.xgboost_json import from_xgboost_json, is_xgboost_json

#: the formats ``load_model`` reads, for messages and help texts
OTHER_FORMATS = "an XGBoost JSON model, a LightGBM model (dump_model JSON or text) or a PMML TreeModel"
FORMATS = f"a dtcore model JSON, {OTHER_FORMATS}"


def load_model(path: str | Path, tree: int | None = None) -> BaseTreeEstimator:
    """The model in ``path``, whichever of :data:`FORMATS` it is; ``tree`` (default 0) picks a
    member of an XGBoost/LightGBM ensemble or a PMML document's TreeModels."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a model dtcore reads: not UTF-8 text ({FORMATS})") from None
    return model_from_text(text, tree, str(path))


def model_from_text(text: str, tree: int | None = None, name: str = "the model") -> BaseTreeEstimator:
    """The model a file's text holds (``load_model`` without the file: the app's upload). Text
    that is neither LightGBM's nor PMML is read as JSON, with JSON's errors."""
    stripped = text.lstrip()
    if is_lightgbm_text(stripped):
        return from_lightgbm_text(stripped, tree or 0)
    if is_pmml(stripped):
        return from_pmml(stripped, tree or 0)
    try:
        d = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{name} is not valid JSON ({exc.msg} at line {exc.lineno}); dtcore reads {FORMATS}"
        ) from None
    except RecursionError:
        raise ValueError(f"{name} is not a dtcore model: nested too deeply") from None
    if is_xgboost_json(d):
        return from_xgboost_json(d, tree or 0)
    if is_lightgbm_dump(d):
        return from_lightgbm_dump(d, tree or 0)
    if not isinstance(d, dict) or "format" not in d:
        raise ValueError(
            f'{name} is not a dtcore model (the JSON has no "format": "{FORMAT}") nor {OTHER_FORMATS}'
        )
    if tree not in (None, 0):
        raise ValueError(f"tree={tree}: a dtcore model holds one tree (0)")
    if d.get("origin") is not None and d.get("algorithm") == "cart" and isinstance(d.get("task"), str):
        return model_from_dict(d, imported_class(d["task"]))  # an imported tree saved: it saves again
    return model_from_dict(d)
