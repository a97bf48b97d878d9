"""The Streamlit app's code, in layers: session (Streamlit state), services, views, figures, commands."""
