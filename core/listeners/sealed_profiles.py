"""The stored listener documents: their personal fields (the originator, declared data but the two flags, tags,
inferred and promoted values) sealed as one envelope per listener, 250 listeners of a write to a group
(core.personal.sealed_groups), and each document found by the keyed hash of its originator
(core.personal.originator_keys). Here: what the envelope holds, and reading the documents opened.

One envelope, not a value per field, because a segmentation run reads every listener of the station: one AES-GCM
opening per listener. Writing them, each write conditional on the version it read, is core.listeners.sealed_writes.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

import bson

from core.db import ahead
from core.db.quirks import find_by_originator, looked_up
from core.listeners import finding
from core.listeners.fields import DECLARED_NAMES, FLAGS
from core.listeners.models import Listener, ProfileKey
from core.personal import originator_keys
from core.personal.sealed_groups import SealedGroups

GROUPS = SealedGroups("profiles", ProfileKey, size=250)
SEALED = (*(name for name in DECLARED_NAMES if name not in FLAGS), "inferred", "promoted", "ai_profile",
          "promotions")
"""The personal fields stored in a listener's envelope alone: everything personal about them but the consent flags
(asked of the database), including the AI's answer about them, kept for 30 days (core.ai.profile), and the history of
the values promoted to declared (core.ai.promote), so that an erasure reaches those too."""
ENVELOPE = ("originator", *SEALED)
"""What the envelope holds: the fields above, and the originator, which the document holds as its key."""
STORED = {"profile": 1, "profile_group": 1, "profile_version": 1}
OPENED_AT_ONCE = 1_000  # listeners whose envelopes a reader opens together
LOOKED_UP_AT_MOST = 2_000  # listeners new since the snapshot whose keys `originators_of` looks up rather than scan
KEYS_PER_LOOK_UP = 400
"""Originators keyed (about 1 µs each) in the time one listener is looked up (0.4 ms on the embedded database):
`originators_of` keys those at hand only when it has at least one in this many of them to name."""


def fields_of(projection: dict | None) -> dict | None:
    """A reader's projection, with the envelope wherever it asks for a sealed field or the originator (None: whole
    documents)."""
    if projection is None or not any(projection.get(name) for name in ENVELOPE):
        return projection
    return {**projection, **STORED}


def opened(docs: list[dict]) -> list[dict]:
    """These listener documents (as read) with their sealed fields in place of the envelope, the groups' keys
    unsealed together. A document stored before sealing reads as it is; one whose group's key is gone has no
    personal field."""
    values = GROUPS.open([(doc.get("profile_group"), doc.get("profile")) for doc in docs])
    codec = Listener._get_collection().codec_options
    for doc, value in zip(docs, values):
        sealed = doc.pop("profile", None)
        doc.pop("profile_group", None)
        doc.pop("profile_version", None)
        if sealed is not None and value is not None:
            doc.update(bson.decode(value, codec))
    return docs


def opened_stream(docs: Iterable[dict]) -> Iterator[dict]:
    """`opened`, OPENED_AT_ONCE documents at a time, for readers that stream a station."""
    for chunk in ahead.batches(docs, OPENED_AT_ONCE):
        yield from opened(chunk)


def find(company_id: int, originators: Iterable[str] | None = None, projection: dict | None = None,
         exact: bool = True) -> Iterator[dict]:
    """Stream the documents of the station's listeners, or of these (by their keys; see
    core.db.quirks.find_by_originator for `exact`), opened; the projection as readers write it (None: whole
    documents)."""
    collection, fields = Listener._get_collection(), fields_of(projection)
    if originators is None:
        return opened_stream(find_by_originator(collection, company_id, None, fields))
    forms = list(finding.lookup(company_id, originators))
    return opened_stream(find_by_originator(collection, company_id, forms, fields, exact,
                                            population=lambda: finding.station_keys(company_id)))


def find_one(company_id: int, originator: str, projection: dict | None = None) -> dict | None:
    """One listener's document, opened; None when there is none (an erased listener is stored under its
    pseudonym, so its number finds nothing)."""
    doc = Listener._get_collection().find_one(finding.matching(company_id, [originator]), fields_of(projection))
    return None if doc is None else opened([doc])[0]


def read(company_id: int, originators: list[str]) -> list[dict]:
    """These listeners' documents, opened."""
    return list(find(company_id, originators))


def existing(company_id: int, originators: list[str], stored: set[str] | None = None) -> set[str]:
    """Those of these listeners that are stored, by their keys alone (the index answers; nothing is opened), or
    from `stored`, the station's stored values as `stored_values` read them."""
    if stored is None:
        return set(unsealed_fields(company_id, originators, {}))
    return {originator for form, originator in finding.lookup(company_id, originators).items() if form in stored}


def unsealed_fields(company_id: int, originators: list[str], projection: dict) -> dict[str, dict]:
    """These listeners' stored fields outside the envelope (the projection's: `created_at`, a flag), by originator:
    found by their keys and named back by them, so that no envelope is opened for what names nobody."""
    forms = finding.lookup(company_id, originators)
    found = looked_up(Listener._get_collection(), company_id, list(forms), {"_id": 0, **projection, "originator": 1})
    return {forms[doc.pop("originator")]: doc for doc in found}


def stored_values(company_id: int) -> set[str]:
    """The values (keys; plain originators stored before keys) every stored listener of the station is stored
    under, in one pass over its index range: for a writer that asks about a good part of the station, a tenth of
    the cost per listener of look-ups (0.05 ms against 0.4 ms on the embedded database)."""
    found = Listener._get_collection().find({"company_id": company_id}, {"_id": 0, "originator": 1}, batch_size=5000)
    return {doc["originator"] for doc in found}


def originators_of(company_id: int, stored: list[str], among: list[str] | None = None) -> list[str]:
    """The originators of values as a keyed store holds them, in order: a key is matched to the originators `among`
    (those the caller has at hand, unless the keys to name are few of them: KEYS_PER_LOOK_UP), then looked up in the
    station's snapshot, else its listener's envelope is opened (all the station's, when more are new than
    LOOKED_UP_AT_MOST); a value stored plain (before keys, or an erased listener's pseudonym) is its own. A key whose
    listener is gone reads as it is."""
    keys = {value for value in stored if originator_keys.is_key(value)}
    if not keys:
        return list(stored)
    found = {}
    if among and len(keys) * KEYS_PER_LOOK_UP >= len(among):  # else keying all those at hand costs more
        found = {key: originator for key, originator in zip(originator_keys.keys_of(company_id, among), among)
                 if key in keys}
    found.update(finding.known(company_id, keys - set(found)))
    missing = sorted(keys - set(found))
    if missing:
        wanted = None if len(missing) > LOOKED_UP_AT_MOST else missing
        raw = find_by_originator(Listener._get_collection(), company_id, wanted, {"originator": 1, **STORED},
                                 population=lambda: finding.station_keys(company_id))
        for chunk in ahead.batches(raw, OPENED_AT_ONCE):
            stored_as = [doc["originator"] for doc in chunk]
            found.update(zip(stored_as, (doc.get("originator") for doc in opened(chunk)), strict=True))
    return [found.get(value, value) for value in stored]


def named(company_id: int, docs: list[dict], among: list[str] | None = None) -> list[dict]:
    """These documents of a keyed store, in place, with their listener's originator where they hold its key (see
    `originators_of`)."""
    originators = originators_of(company_id, [doc["originator"] for doc in docs], among)
    for doc, originator in zip(docs, originators, strict=True):
        doc["originator"] = originator
    return docs
