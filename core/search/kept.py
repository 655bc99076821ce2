"""What the search modules keep per station: values worked out from a station's objects (its snapshot, its vector
index), kept until those objects change, and a lock per station for the work of catching its indexes up.

The objects are known by weak references and compared by identity, never by `id()`: CPython gives a new object the
address of a freed one, so a new snapshot or index of the same length and version took the old one's value (search
scored listeners by other listeners' vectors that way). A weak reference cannot be taken by a freed object's heir.
"""
from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class KeptPerStation(Generic[T]):
    """One value per station, made again when any of the objects it came from is not the same object, or when the
    plain part of its key (versions, lengths, settings) differs."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[tuple, Hashable, T]] = {}

    def get(self, company_id: int, sources: Sequence[object], key: Hashable, make: Callable[[], T]) -> T:
        """The station's kept value if it came from `sources` (the same objects) under `key`, else `make()`, kept."""
        found = self._kept.get(company_id)
        if found is not None and found[1] == key and _same(found[0], sources):
            return found[2]
        value = make()
        self._kept[company_id] = (tuple(weakref.ref(source) for source in sources), key, value)
        return value

    def peek(self, company_id: int, sources: Sequence[object], key: Hashable) -> T | None:
        """The station's kept value if it came from `sources` under `key`, else None (nothing is made)."""
        found = self._kept.get(company_id)
        return found[2] if found is not None and found[1] == key and _same(found[0], sources) else None


def _same(refs: tuple, sources: Sequence[object]) -> bool:
    return len(refs) == len(sources) and all(ref() is source for ref, source in zip(refs, sources))


class LockPerStation:
    """A lock per station (and model): catching one station's index up reads and tokenises what was written since,
    seconds at 100,000 listeners, and must not hold up the searches of the process's other stations, as one lock
    for all of them did."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def __call__(self, key: Hashable) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())
