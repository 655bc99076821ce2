"""What inference derives from a station, kept in this process while what it was derived from stands.

The caller names the key (core.ai.panel: how many listeners are erased and how many declared each field it learns
from), so that what happens all the time (live batches, the re-segmentation that follows every AI answer) keeps
what was learned, while an erasure, a promotion or an import of profiles has it learned again; and MAX_AGE bounds
how stale it gets otherwise. Building reads a bounded sample of the station, a few seconds.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

MAX_AGE_S = 24 * 3600

_store: dict[tuple[str, int], tuple[object, float, object]] = {}
_lock = threading.Lock()


def remembered(kind: str, company_id: int, key: object, build: Callable[[], T]) -> T:
    """The value of `kind` for the company built for `key`, built now when the kept one is for another key or
    older than MAX_AGE_S."""
    with _lock:
        kept = _store.get((kind, company_id))
    if kept is not None and kept[0] == key and time.monotonic() - kept[1] < MAX_AGE_S:
        return kept[2]
    value = build()
    with _lock:
        _store[(kind, company_id)] = (key, time.monotonic(), value)
    return value


def forget(company_id: int | None = None) -> None:
    """Drop what is kept for one company, or for all (tests)."""
    with _lock:
        for kind, company in list(_store):
            if company_id is None or company == company_id:
                del _store[(kind, company)]
