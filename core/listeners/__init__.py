"""Listeners as stored: the field lists defined once, declared data, interactions in per-listener batches, the
columnar snapshot that every filter reads, keyed pseudonyms and the suppression list."""
