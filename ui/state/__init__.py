"""The Streamlit state every page shares: ``st.session_state`` (the data, roles, task, split,
language), the URL and report mode, the current model and its cache, the heavy-job slots, the
large-data source and its Dask fit, and the frame every page runs in.

A page's own sections, state and caches are ``ui.sections``'; nothing here imports them.
"""
