"""The frame: page list, sidebar (language, current data and model), session defaults.

Adding a page is one line in PAGES (plus its title in ui/catalogue/nav.py under ``nav.<name>``).
"""

from pathlib import Path

import streamlit as st

from ui import i18n
from ui.state import frame, model, opened, report_mode, state, url
from ui.state.state import t
from ui.views.text import TABLE_CSS, md_escape

#: (page file, catalogue key of its title, icon, default page?)
PAGES = [
    ("pages/data.py", "nav.data", ":material/table_view:", False),
    ("pages/train.py", "nav.train", ":material/account_tree:", True),
    ("pages/compare.py", "nav.compare", ":material/compare_arrows:", False),
    ("pages/growth.py", "nav.growth", ":material/timeline:", False),
    ("pages/splits.py", "nav.splits", ":material/query_stats:", False),
    ("pages/prune.py", "nav.prune", ":material/content_cut:", False),
]

st.set_page_config(page_title=t("app.title"), page_icon="🌳", layout="wide")
report_mode.apply()  # ?report=1: no chrome, no controls (ui/state/report_mode.py)
st.html(f"<style>{TABLE_CSS}</style>")  # the look of every table_html on every page

url.seed_from_url()
state.ensure_data()

pages = {
    path: st.Page(path, title=t(key), icon=icon, default=default, url_path=Path(path).stem)
    for path, key, icon, default in PAGES
}
nav = st.navigation(list(pages.values()))
frame.enter_frame(pages)  # back to the page a link opened first (ui/state/frame.py)

with st.sidebar:
    url.default("lang")
    st.radio(
        t("side.language"),
        i18n.LANGS,
        format_func=i18n.LANG_NAMES.get,
        key="lang",
        horizontal=True,
        on_change=state.on_language_change,
        **url.KEEP,
    )
    summary = st.container()

for notice in url.pop_url_notices():  # a shared link's values that could not be used
    st.warning(t("url.bad_value", **{k: md_escape(v) for k, v in notice.items()}), icon=":material/link_off:")

linked_upload = url.pending("upload")
loaded = state.data()
if linked_upload is not None and (loaded is None or loaded.source != "upload"):
    st.info(t("url.upload_link", name=md_escape(linked_upload)), icon=":material/upload_file:")

# pages return instead of calling st.stop(), so the summary below always reflects this run
nav.run()

with summary:
    st.subheader(t("side.data"))
    data = state.data()
    if data is None:
        st.caption(t("side.no_data"))
    else:
        st.markdown(
            t(
                "side.data_summary",
                name=md_escape(state.data_title(data)),
                rows=data.df.shape[0],
                cols=data.df.shape[1],
            )
        )
        target = state.target()
        if target:
            st.markdown(t("side.target", target=md_escape(target), task=t("task." + state.task())))
    st.subheader(t("side.model"))
    res = model.result()
    om = opened.opened()
    if om is not None:  # a model file opened on the Data page is what the pages show
        est = om.estimator
        st.markdown(
            t(
                "side.opened_summary",
                name=md_escape(om.name),
                tree=om.tree,
                nodes=est.node_count,
                depth=est.get_depth(),
                leaves=est.get_n_leaves(),
            )
        )
    elif res is None:
        st.caption(t("side.no_model"))
    else:
        est = res.estimator
        st.markdown(
            t(
                "side.model_summary",
                algorithm=t("algo." + res.algorithm),
                nodes=est.node_count,
                depth=est.get_depth(),
                leaves=est.get_n_leaves(),
            )
        )
    st.divider()
    st.caption(t("side.url_note"))
    if data is not None and data.source == "upload":
        st.caption(t("side.upload_url_note"))

url.write_url(model.url_extras())
