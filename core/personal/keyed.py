"""Keyed hashes: what stands in a store, a lock or a log line for a value a station sent us that may name a
listener (a number, an interaction id its CRM wrote with the number in it, a search's words).

One primitive, BLAKE2b keyed by a key derived from the server secret (`SECRET_KEY`, kept outside the database), with
a purpose of its own per use (BLAKE2b's personalisation), so that a hash made for one use never matches another's:
a copy of the database, a log or a backup alone cannot confirm a guessed number. Stable for the same input, so a
hash still finds, de-duplicates and correlates.
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable

from core.config import active

INTERACTION = b"interaction"
LOG = b"log subject"
TAG = b"tag"
PREFIX = "~"
"""How a keyed value begins: no originator, interaction id or pseudonym may (core.listeners.identifiers)."""


def keyed(purpose: bytes, values: Iterable[str], digest_size: int = 16) -> list[str]:
    """The keyed hashes of these values for one purpose, in order, each `~` and hex (about 1 µs a value)."""
    key = _key(active().secret_key)
    return [PREFIX + hashlib.blake2b(value.encode(), key=key, person=purpose, digest_size=digest_size).hexdigest()
            for value in values]


def is_keyed(value: str) -> bool:
    return value.startswith(PREFIX)


def interaction_keys(company_id: int, given: Iterable[str]) -> list[str]:
    """The stored idempotency keys of interactions whose plain keys (core.ingest.rows: `id:` and the interaction id a
    station gave, or `row:` and a digest of the row) are these; a key already keyed is kept as it is, so that a
    batch stored before keys compares with a new row's (the `encrypt` migration keys them in place)."""
    given = list(given)
    plain = [value for value in given if not is_keyed(value)]
    made = iter(keyed(INTERACTION, (f"{company_id}:{value}" for value in plain)))
    return [value if is_keyed(value) else next(made) for value in given]


def tag_keys(company_id: int, tags: Iterable[str]) -> list[str]:
    """What stands for a station's tags where they are counted outside the sealed snapshot (a run's rollup): a tag
    is a station's free text, and may hold a number ("call 082 999 0001")."""
    return keyed(TAG, (f"{company_id}:{tag}" for tag in tags))


def log_subject(value: str) -> str:
    """What a log line says for a value that may name a listener (a request's path and query): 12 hex digits, to
    follow one subject through the logs without reading it."""
    return keyed(LOG, [value], digest_size=6)[0]


@functools.lru_cache(maxsize=4)
def _key(secret: str) -> bytes:
    """The hashes' key, derived from the server secret (BLAKE2b takes at most 64 bytes of key)."""
    return hashlib.sha256(b"personal keyed hashes:" + secret.encode()).digest()
