"""Opening the app in Streamlit's AppTest, with URL parameters, as a shared link would."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def start(page: str | None = None, *, direct: bool = False, **query) -> AppTest:
    """Run the app with ``query`` in the URL. ``page`` is then opened by switching to it, or,
    with ``direct``, is the first page the app runs (a link straight to that page)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    if page and direct:
        at.switch_page(page)
        return at.run()
    at.run()
    if page:
        at.switch_page(page).run()
    return at
