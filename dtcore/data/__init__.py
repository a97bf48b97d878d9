"""Data in: file readers (CSV/TSV, ARFF), the configured size limits, column roles and the task,
and the seeded row split the app and the CLI share. Nothing here grows a tree."""
