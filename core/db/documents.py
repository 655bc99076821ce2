"""The registry of stored documents: each package declares its own, and their indexes are made at start-up.

A package's `models` module marks each mongoengine Document with `@stored`; `core.service.startup` imports every package
and calls `ensure_indexes` once per process, so the database layer never imports the packages above it.
"""
from __future__ import annotations

_DOCUMENTS: list[type] = []


def stored(document: type) -> type:
    """Class decorator: the document's indexes are created at start-up."""
    if document not in _DOCUMENTS:
        _DOCUMENTS.append(document)
    return document


def documents() -> tuple[type, ...]:
    """Every registered document class, in registration order."""
    return tuple(_DOCUMENTS)


def ensure_indexes() -> None:
    """Create every declared index (idempotent); every listener query starts with company_id."""
    for document in _DOCUMENTS:
        document.ensure_indexes()
