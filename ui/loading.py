"""Old path of ``ui.services.loading``, kept only because ui/training.py imports ``.loading``.

ui/training.py is being rewritten elsewhere and must not be edited here; it moves into
``ui/services`` at merge, and this module goes with it.
"""
from ui.services.loading import _is_missing, raw_rows  # noqa: F401
