"""The only code that touches ``st.session_state``, Streamlit caches, the URL and report mode."""
