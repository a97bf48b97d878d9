"""Opening the app in Streamlit's AppTest, with URL parameters, as a shared link would."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.frame_pictures import remember_pictures

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class PageTest(AppTest):
    """AppTest that, after every run (``at.run()`` and a widget's ``.run()`` alike), notes the
    tree pictures the run sent whole, as the page's own picture store does (``frame.js``): a
    later run that sends only a picture's digest is then read back as that picture
    (``frame_pictures.frame_data``), whichever runs a test looked at."""

    def _run(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        out = super()._run(*args, **kwargs)
        remember_pictures(out)
        return out


def start(page: str | None = None, *, direct: bool = False, **query) -> AppTest:
    """Run the app with ``query`` in the URL. ``page`` is then opened by switching to it, or,
    with ``direct``, is the first page the app runs (a link straight to that page)."""
    at = PageTest(APP, default_timeout=60)  # (from_file makes a plain AppTest)
    for k, v in query.items():
        at.query_params[k] = v
    if page and direct:
        at.switch_page(page)
        return at.run()
    at.run()
    if page:
        at.switch_page(page).run()
    return at


def upload_table(rows: int, seed: int = 0, regression: bool = False, flip: float = 0.0, valid: int = 0):
    """A generated table uploaded on the Data page, every row a training row (but ``valid``
    percent of them): two numeric columns of 3 decimals (thousands of distinct values on 10⁴
    rows) and a yes/no target with ``flip`` of its labels flipped (or, with ``regression``, a
    numeric one); returns (the AppTest, the features)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(rows, 2)), 3)
    above = (X[:, 0] + X[:, 1] > 0) != (rng.random(rows) < flip)
    y = np.round(X[:, 0] * 2 + X[:, 1] ** 2, 3) if regression else np.where(above, "yes", "no")
    csv = "a,b,y\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(X.tolist(), y))
    at = start("pages/data.py")
    at.file_uploader(key="upload").set_value(("table.csv", csv.encode(), "text/csv")).run()
    at.slider(key="valid").set_value(valid).run()
    at.slider(key="test").set_value(0).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, X
