"""Plotly figure builders, pure functions from plain arrays, sharing one style (``style``)."""
