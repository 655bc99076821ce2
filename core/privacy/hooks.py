"""Stores that hold a listener's data besides the core ones register an eraser here, so erasure reaches them all."""
from __future__ import annotations

from collections.abc import Callable

Eraser = Callable[[int, str, str], int]  # (company_id, originator, pseudonym) -> records touched
_ERASERS: dict[str, Eraser] = {}


def register(store: str, eraser: Eraser) -> None:
    """Add a store to every erasure's receipt."""
    _ERASERS[store] = eraser


def run_hooks(company_id: int, originator: str, alias: str) -> dict[str, int]:
    """Run every registered eraser; returns records touched per store."""
    return {store: eraser(company_id, originator, alias) for store, eraser in sorted(_ERASERS.items())}
