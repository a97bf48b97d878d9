"""The Streamlit app's code, in layers: state (Streamlit state), sections (of the pages), services, views,
figures, the text catalogue, commands."""
