"""The form an originator is stored in: a keyed hash of station and originator, so that no store holds a listener's
number, while a listener is still found by its number at once (hash it, then look the hash up on the index).

The originator itself is sealed with the listener's other personal fields (core.listeners.sealed_profiles), which is
where a reader that meets a stored key learns whose it is. The hash is keyed by the server secret (`SECRET_KEY`,
kept outside the database): a copy of the database alone cannot confirm a guessed number. Keys start with `~`,
which no originator may contain (core.listeners.identifiers), so a key is never taken for a number and a document
stored before keys (its originator plain) is told apart by its form. An erased listener is stored under its
pseudonym (core.listeners.pseudonyms), plain: it names nobody.
"""
from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Iterable

import numpy as np
from pymongo import UpdateMany
from pymongo.errors import BulkWriteError

from core.config import active
from core.listeners import snapshot
from core.listeners.pseudonyms import ERASED_PREFIX
from core.stations.models import Company

PREFIX = "~"
KEYED_AT_ONCE = 1_000  # listeners whose plain documents `key_plain` writes in one bulk
DUPLICATE_KEY = 11000

PLAIN_ASKED_EVERY_S = 60.0
PLAIN_BYTES = "S64"  # room for any originator (core.listeners.identifiers), and so for a key
_population: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # company -> `_index`
_keyed: set[int] = set()  # stations known to hold no plain originator
_plain: dict[int, float] = {}  # stations that did when last asked -> when


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


def lookup(company_id: int, originators: Iterable[str]) -> dict[str, str]:
    """Stored value -> originator, for finding these listeners: each one's key; an erased listener's pseudonym as it
    is (stored plain: it names nobody); and, in a station whose stores may still hold plain originators (stored
    before keys, until `flask --app wsgi encrypt` has keyed them), the plain originator too."""
    originators = list(dict.fromkeys(originators))
    found = dict(zip(keys_of(company_id, originators), originators, strict=True))
    plain = keyed(company_id)
    found.update((originator, originator) for originator in originators
                 if originator.startswith(ERASED_PREFIX) or not (plain or is_key(originator)))
    return found


def keyed(company_id: int) -> bool:
    """Whether no store of the station holds a plain originator any more: a yes is kept for good (it never turns
    back), a no asked again after PLAIN_ASKED_EVERY_S."""
    if company_id in _keyed:
        return True
    asked = _plain.get(company_id)
    if asked is not None and time.monotonic() - asked < PLAIN_ASKED_EVERY_S:
        return False
    company = Company._get_collection().find_one({"company_id": company_id}, {"originators_keyed": 1}) or {}
    if company.get("originators_keyed"):
        _keyed.add(company_id)
        return True
    _plain[company_id] = time.monotonic()
    return False


def forget() -> None:
    """Forget what this process knows of the stations (a database restored to an earlier state)."""
    _keyed.clear()
    _plain.clear()
    _population.clear()


def mark_keyed(company_id: int) -> None:
    """Record that no store of the station holds a plain originator any more (`encrypt`, once it has keyed them)."""
    Company._get_collection().update_one({"company_id": company_id}, {"$set": {"originators_keyed": True}})
    _plain.pop(company_id, None)


def matching(company_id: int, originators: Iterable[str]) -> dict:
    """The query for the documents of these listeners in a store keyed by originator (for a few: `$in` on the
    (company_id, originator) index)."""
    return {"company_id": company_id, "originator": {"$in": list(lookup(company_id, originators))}}


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


def station_keys(company_id: int) -> np.ndarray:
    """The values the station's listeners (as of its snapshot) are stored under, sorted: the population by which
    core.db.quirks.find_by_originator decides between index ranges and look-ups. Their keys, and in a station that
    may still hold plain originators their plain originators too, which a look-up also asks for (`lookup`):
    without them a group of plain originators in key order would look dense, and be read as one range."""
    originators, keys, _ = _index(company_id)
    if keyed(company_id):
        return keys
    return np.sort(np.concatenate([keys.astype(PLAIN_BYTES), originators.astype(PLAIN_BYTES)]))


def known(company_id: int, keys: Iterable[str]) -> dict[str, str]:
    """Key -> originator for those of these keys whose listener is in the station's snapshot (a search of its sorted
    keys; nothing read); the others are new since, or erased."""
    originators, sorted_keys, order = _index(company_id)
    wanted = np.asarray(list(keys), dtype=sorted_keys.dtype)
    if not len(wanted) or not len(sorted_keys):
        return {}
    at = np.minimum(np.searchsorted(sorted_keys, wanted), len(sorted_keys) - 1)
    hit = sorted_keys[at] == wanted
    return dict(zip(wanted[hit].astype(str).tolist(), originators[order[at[hit]]].tolist(), strict=True))


def in_key_order(company_id: int, originators: np.ndarray) -> np.ndarray:
    """The positions of these originators (a snapshot's) in the order of their keys: the order in which the index
    holds their documents, so that a reader of many (an export) reads index ranges rather than look-ups, which
    cost four to six times as much per document on the embedded database."""
    return _index(company_id, originators)[2]


def _index(company_id: int, originators: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a snapshot's originators, their keys sorted, the row of each sorted key), kept for the last snapshot asked
    about (the station's current one unless told). Keys as bytes: a quarter of the memory of str (3.3 MB per
    100,000 listeners)."""
    originators = snapshot.current(company_id).originators if originators is None else originators
    cached = _population.get(company_id)
    if cached is None or cached[0] is not originators:
        keys = np.asarray(keys_of(company_id, originators.tolist()), dtype=f"S{len(PREFIX) + 32}")
        order = np.argsort(keys, kind="stable").astype(np.int32)
        cached = _population[company_id] = (originators, keys[order], order)
    return cached
