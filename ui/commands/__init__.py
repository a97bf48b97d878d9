"""Command-line entry points that draw the app's pictures (``python -m ui.commands.<name>``)."""
