"""Saved audiences and custom segments: a theme turned into search queries, run through semantic search within the
shared filters, saved with the strategy that found them so that a refresh can re-run it."""
