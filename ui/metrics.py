"""Old path of ``ui.services.metrics``, kept only because ui/training.py imports ``.metrics``.

ui/training.py is being rewritten elsewhere and must not be edited here; it moves into
``ui/services`` at merge, and this module goes with it.
"""
from ui.services.metrics import classification_scores, regression_scores  # noqa: F401
