"""Domain of the Listener Segmentation Service: every rule lives here, nothing of Flask does.

Arranged by capability in layers that import only downwards (tests/test_layering.py holds the order): config,
errors and clock at the bottom; then db and text (sentences, CSV cells, query values); stations and access; listeners;
segmentation; explore; search; ingest; privacy; demo; and startup, the composition root that wires them together.
"""
