"""cart."""
