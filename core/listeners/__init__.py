"""Listeners as stored: the field lists defined once, declared data, interactions in per-listener batches, the
columnar snapshot that every filter reads, the written forms of originators and numbers, keyed pseudonyms
and the suppression list."""
