"""Bringing data in: import files as rows, row validation by kind, the importers of channels, shows, profiles and
interactions, and their reports."""
