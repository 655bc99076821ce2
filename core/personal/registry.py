"""The stores that can hold a value naming a listener, each declared once where it lives: its collection, its
fields that may hold a personal value (each sealed or keyed there) and those declared free of one, how a listener
is erased from it, and how a station's documents stored before sealing are sealed in place.

Erasure (core.privacy.erasure), the `encrypt` migration (core.privacy.encrypt) and the audit of stored fields walk
this registry; nothing else lists stores. A store is declared by the module that writes it, which core.service.startup
imports, so a feature that adds a store adds it here by being written, and a field nobody declared fails the audit
(tests/core/personal/test_registry_scan.py) with its collection and name.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from core.personal.spellings import Spellings

FIRST, AMONG, LAST = 0, 1, 2
"""When erasure reaches a store: the listener's own profile first (what is read of it to find them elsewhere is read
before), the snapshot last (it is rebuilt from what the others now hold)."""


@dataclass(frozen=True)
class Erasure:
    """One listener being erased, as every store's eraser sees them."""

    company_id: int
    originator: str
    pseudonym: str
    spellings: Spellings  # how free text may name them (core.personal.spellings)
    replacement: str = "[erased]"


@dataclass(frozen=True)
class Store:
    """A store that may hold a personal value."""

    name: str  # as erasure's receipt and the audit name it
    collection: str
    personal: tuple[str, ...] = ()  # fields that may name a listener: sealed, keyed, or a pseudonym
    free: tuple[str, ...] = ()  # fields declared to hold nothing a station sent about a listener
    erase: Callable[[Erasure], int] | None = None  # records touched
    migrate: Callable[[int], int] | None = None  # a station's documents stored plain, sealed or keyed; how many
    when: int = AMONG
    text: tuple[str, ...] = field(default=())  # of `personal`, the fields of free text that erasure scrubs


def by_listener(eraser: Callable[[int, str, str], int]) -> Callable[[Erasure], int]:
    """An eraser written as (company_id, originator, pseudonym) -> records touched, as a store's `erase`."""
    return lambda erasure: eraser(erasure.company_id, erasure.originator, erasure.pseudonym)


_STORES: dict[str, Store] = {}


def declare(store: Store) -> Store:
    """Add a store to the registry (once: a second store of the same name is a mistake of the code)."""
    known = _STORES.get(store.name)
    if known is not None and known != store:
        raise ValueError(f"two stores are declared as {store.name!r}")
    _STORES[store.name] = store
    return store


def stores() -> list[Store]:
    """Every declared store, in the order erasure reaches them."""
    return sorted(_STORES.values(), key=lambda store: (store.when, store.name))


def declared_fields(collection: str) -> tuple[set[str], set[str]]:
    """(personal, free) fields declared for a collection by every store that lives in it."""
    personal, free = set(), set()
    for store in _STORES.values():
        if store.collection == collection:
            personal.update(store.personal)
            free.update(store.free)
    return personal, free
