"""Where the tests find the data sets: the copies bundled with the app in assets/samples (the
same files as ../shared/datasets, so a clean checkout needs nothing beside it)."""

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "assets" / "samples"
