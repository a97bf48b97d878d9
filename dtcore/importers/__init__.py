"""Trees trained elsewhere, read into dtcore's own ``Tree``: scikit-learn estimators by duck
typing (``sklearn.from_sklearn``), XGBoost's JSON model (``xgboost_json``), LightGBM's JSON dump
and text model (``lightgbm``), PMML 4.x ``TreeModel`` (``pmml``); ``files.load_model`` tells the
formats apart by content; ``restate.restate`` recomputes an imported tree's node statistics from
labelled rows. None of those libraries is imported: dtcore stays numpy-only."""

from __future__ import annotations

from dtcore.export.origin import ModelOrigin
from dtcore.importers.files import FORMATS, load_model, model_from_text
from dtcore.importers.pmml import PMMLError
from dtcore.importers.restate import restate
from dtcore.importers.sklearn import from_sklearn

__all__ = ["FORMATS", "ModelOrigin", "PMMLError", "from_sklearn", "load_model", "model_from_text", "restate"]
