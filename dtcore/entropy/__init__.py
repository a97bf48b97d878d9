"""entropy."""
