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
MEANING = b"value meant"
PREFIX = "~"
"""How a keyed value begins: no originator, interaction id or pseudonym may (core.listeners.identifiers)."""


def keyed(purpose: bytes, values: Iterable[str], digest_size: int = 16) -> list[str]:
    """The keyed hashes of these values for one purpose, in order, each `~` and hex (about 1 µs a value)."""
    keyed_template = _template(active().secret_key, purpose, digest_size)
    hashes = []
    for value in values:
        hasher = keyed_template.copy()
        hasher.update(value.encode())
        hashes.append(PREFIX + hasher.hexdigest())
    return hashes


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


def interaction_key(company_id: int, plain: str) -> str:
    """interaction_keys of one plain key: an import keys every row it reads, and the lists cost more than the hash."""
    if is_keyed(plain):
        return plain
    hasher = _template(active().secret_key, INTERACTION, 16).copy()
    hasher.update(f"{company_id}:{plain}".encode())
    return PREFIX + hasher.hexdigest()


def tag_keys(company_id: int, tags: Iterable[str]) -> list[str]:
    """What stands for a station's tags where they are counted outside the sealed snapshot (a run's rollup): a tag
    is a station's free text, and may hold a number ("call 082 999 0001")."""
    return keyed(TAG, (f"{company_id}:{tag}" for tag in tags))


def log_subject(value: str) -> str:
    """What a log line says for a value that may name a listener (a request's path and query): 12 hex digits, to
    follow one subject through the logs without reading it."""
    return keyed(LOG, [value], digest_size=6)[0]


@functools.lru_cache(maxsize=16)
def _template(secret: str, purpose: bytes, digest_size: int):
    """A hasher keyed for one purpose, copied for each value: BLAKE2b compresses its key block once, not per value."""
    return hashlib.blake2b(key=_key(secret), person=purpose, digest_size=digest_size)


@functools.lru_cache(maxsize=4)
def _key(secret: str) -> bytes:
    """The hashes' key, derived from the server secret (BLAKE2b takes at most 64 bytes of key)."""
    return hashlib.sha256(b"personal keyed hashes:" + secret.encode()).digest()
