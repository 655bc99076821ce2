"""The form an originator is stored in: a keyed hash of station and originator, so that no store holds a listener's
number, while a listener is still found by its number at once (hash it, then look the hash up on the index; finding
a station's listeners by it is core.listeners.finding's).

The originator itself is sealed with the listener's other personal fields (core.listeners.sealed_profiles), which is
where a reader that meets a stored key learns whose it is. The hash is keyed by the server secret (`SECRET_KEY`,
kept outside the database): a copy of the database alone cannot confirm a guessed number. Keys start with `~`
(core.personal.keyed), which no originator may contain (core.listeners.identifiers), so a key is never taken for a
number and a document stored before keys (its originator plain) is told apart by its form. An erased listener is
stored under its pseudonym (core.personal.pseudonyms), plain: it names nobody.
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable

from pymongo import UpdateMany
from pymongo.errors import BulkWriteError

from core.config import active
from core.personal.keyed import PREFIX
from core.personal.pseudonyms import ERASED_PREFIX

KEYED_AT_ONCE = 1_000  # listeners whose plain documents `key_plain` writes in one bulk
DUPLICATE_KEY = 11000


def key_of(company_id: int, originator: str) -> str:
    """The stored form of one listener's originator."""
    return keys_of(company_id, [originator])[0]


def keys_of(company_id: int, originators: Iterable[str]) -> list[str]:
    """The stored forms of these originators, in order: keyed BLAKE2b of station and originator, 128 bits (a MAC
    in its own right, and a quarter of the time of HMAC-SHA256 here: about 1 µs a key)."""
    key, prefix = _key(active().secret_key), f"{company_id}:"
    return [PREFIX + hashlib.blake2b((prefix + originator).encode(), key=key, digest_size=16).hexdigest()
            for originator in originators]


@functools.lru_cache(maxsize=4)
def _key(secret: str) -> bytes:
    """The hash's key, derived from the server secret (BLAKE2b takes at most 64 bytes of key)."""
    return hashlib.sha256(b"originator keys:" + secret.encode()).digest()


def is_key(value: str) -> bool:
    return value.startswith(PREFIX)


def names_nobody(value: str) -> bool:
    """True for a value a store may hold as it is: a key, or an erased listener's pseudonym."""
    return is_key(value) or value.startswith(ERASED_PREFIX)


def key_plain(collection, company_id: int) -> int:
    """Store under their listeners' keys the documents of a keyed store (`collection`) stored before keys, their
    originator plain, KEYED_AT_ONCE listeners at a time; how many documents. Resumable: only documents whose
    originator is plain are written (an erased listener's pseudonym names nobody, and stays)."""
    found = collection.find({"company_id": company_id}, {"_id": 0, "originator": 1})
    plain, done = sorted({doc["originator"] for doc in found if not names_nobody(doc["originator"])}), 0
    for start in range(0, len(plain), KEYED_AT_ONCE):
        chunk = plain[start:start + KEYED_AT_ONCE]
        writes = [UpdateMany({"company_id": company_id, "originator": originator}, {"$set": {"originator": key}})
                  for originator, key in zip(chunk, keys_of(company_id, chunk), strict=True)]
        try:
            done += collection.bulk_write(writes, ordered=False).modified_count
        except BulkWriteError as error:  # a document under the key exists already, written since: it is the newer
            if any(e.get("code") != DUPLICATE_KEY for e in error.details.get("writeErrors", [])):
                raise
            done += error.details.get("nModified", 0)
            older = [chunk[e["index"]] for e in error.details["writeErrors"]]
            collection.delete_many({"company_id": company_id, "originator": {"$in": older}})
    return done
