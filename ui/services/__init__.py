"""Plain Python work behind the pages (loading, forcing, pruning, scores): no Streamlit here."""
