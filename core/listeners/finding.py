"""Finding a station's listeners by the stored form of their originator (core.personal.originator_keys): which values
to ask a store for, whether a station may still hold plain originators (stored before keys), and its listeners' keys
in sorted order for reads of many.
"""
from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np

from core.listeners import snapshot
from core.personal.originator_keys import PREFIX, is_key, keys_of
from core.personal.pseudonyms import ERASED_PREFIX
from core.stations.models import Company

PLAIN_ASKED_EVERY_S = 60.0
PLAIN_BYTES = "S64"  # room for any originator (core.listeners.identifiers), and so for a key
_population: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # company -> `_index`
_keyed: set[int] = set()  # stations known to hold no plain originator
_plain: dict[int, float] = {}  # stations that did when last asked -> when


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
