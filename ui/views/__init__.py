"""Pure builders of what pages show as text, DOT and tables (no Streamlit, no Plotly)."""
