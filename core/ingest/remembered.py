"""Mappings a station confirmed, remembered per kind and set of headers: the next file with the same headers (in any
order, spelt with any case or spacing) is mapped as the last one was, and the producer still sees the preview.

A file exported without its header row has a listener's row for headers, so headers are personal until shown
otherwise: a mapping is found by a keyed hash of the station and its headers (core.personal.keyed, which a copy of
the database alone cannot confirm a guess of), and its columns are kept sealed under a key of its own
(`mapping:<company>:<id>:<version>`). Erasure deletes the mappings whose columns name the erased listener and
destroys their keys. Mappings stored before kept their columns plain under an unkeyed SHA-1: they still read, and
`seal_plain` seals them in place.
"""
from __future__ import annotations

import hashlib
import json

import bson
from bson import Binary, ObjectId

from core.clock import utcnow
from core.ingest.headers import normalised
from core.ingest.models import RememberedMapping
from core.personal.keyed import keyed
from core.personal.registry import Erasure
from core.personal.vault_connection import key_vault

HEADERS = b"import headers"  # the keyed hashes' purpose (core.personal.keyed)
Pairs = list[tuple[str, str | None]]


def key_name(company_id: int, mapping_id: ObjectId, version: str) -> str:
    """The name of the data key a remembered mapping's columns are sealed under."""
    return f"mapping:{company_id}:{mapping_id}:{version}"


def _names(columns: list[str]) -> str:
    """The same for the same headers in any order or spelling of case, spaces and punctuation."""
    return json.dumps(sorted(normalised(column) or column for column in columns), ensure_ascii=False)


def _key(company_id: int, columns: list[str]) -> str:
    """The look-up of a station's mapping for these headers: a keyed hash."""
    return keyed(HEADERS, [f"{company_id}:{_names(columns)}"])[0]


def _plain_key(columns: list[str]) -> str:
    """The look-up of a mapping stored before sealing: an unkeyed SHA-1 of the headers."""
    return hashlib.sha1(_names(columns).encode()).hexdigest()


def _sealed(company_id: int, mapping_id: ObjectId, version: str, pairs: Pairs) -> dict:
    envelope = key_vault().seal_bytes(key_name(company_id, mapping_id, version),
                                      bson.encode({"pairs": [list(pair) for pair in pairs]}))
    return {"sealed": Binary(envelope), "sealed_key": version}


def remember(company_id: int, kind: str, pairs: Pairs, date_order: str = "") -> None:
    """Keep the mapping a producer (or a client) confirmed for these headers, replacing the one kept before (the
    station's imports run one at a time: core.ingest.jobs)."""
    mappings = RememberedMapping._get_collection()
    columns = [column for column, _ in pairs]
    query = {"company_id": company_id, "kind": kind, "headers": _key(company_id, columns)}
    found = mappings.find_one(query, {"sealed_key": 1})
    mapping_id, version = (found["_id"], found["sealed_key"]) if found else (ObjectId(), str(ObjectId()))
    fields = {**_sealed(company_id, mapping_id, version, pairs), "date_order": date_order, "updated_at": utcnow()}
    if found:
        mappings.update_one({"_id": mapping_id}, {"$set": fields})
    else:
        mappings.insert_one({"_id": mapping_id, **query, **fields})
    mappings.delete_many({"company_id": company_id, "kind": kind, "headers": _plain_key(columns)})  # kept before


def recall(company_id: int, kind: str, columns: list[str]) -> tuple[dict[str, str | None], str, object] | None:
    """({column: field or None} for these columns, its date order, when it was confirmed), or None when this
    station has confirmed no mapping for these headers."""
    keyed_key = _key(company_id, columns)
    found = sorted(RememberedMapping._get_collection().find(
        {"company_id": company_id, "kind": kind, "headers": {"$in": [keyed_key, _plain_key(columns)]}}),
        key=lambda doc: doc["headers"] != keyed_key)
    pairs = opened_pairs(found[:1])
    if not found or pairs[0] is None:
        return None
    by_name = {normalised(column) or column: name for column, name in pairs[0]}
    return ({column: by_name.get(normalised(column) or column) for column in columns},
            found[0].get("date_order", ""), found[0].get("updated_at"))


def opened_pairs(docs: list[dict]) -> list[Pairs | None]:
    """The stored mappings' (column, field) pairs, unsealed together; None where a key was destroyed."""
    sealed = [i for i, doc in enumerate(docs) if doc.get("sealed") is not None]
    opened = key_vault().unseal_bytes([bytes(docs[i]["sealed"]) for i in sealed]) if sealed else []
    pairs: list[Pairs | None] = [[(pair["column"], pair["field"]) for pair in doc.get("pairs") or []]
                                 for doc in docs]  # stored before sealing
    for i, data in zip(sealed, opened):
        pairs[i] = None if data is None else [(column, name) for column, name in bson.decode(data)["pairs"]]
    return pairs


def seal_plain(company_id: int) -> int:
    """Seal the station's mappings stored before sealing, each found by its keyed hash from now on (one the station
    has confirmed again since, sealed, is the one kept); how many. Resumable: a mapping is rewritten in one update,
    and only mappings still plain are read."""
    mappings = RememberedMapping._get_collection()
    plain = list(mappings.find({"company_id": company_id, "pairs": {"$exists": True}}))
    for doc in plain:
        pairs = [(pair["column"], pair["field"]) for pair in doc["pairs"] or []]
        headers = _key(company_id, [column for column, _ in pairs])
        if mappings.find_one({"company_id": company_id, "kind": doc["kind"], "headers": headers}, {"_id": 1}):
            mappings.delete_one({"_id": doc["_id"]})
            continue
        mappings.update_one({"_id": doc["_id"], "pairs": {"$exists": True}},
                            {"$set": {"headers": headers, **_sealed(company_id, doc["_id"], str(ObjectId()), pairs)},
                             "$unset": {"pairs": ""}})
    return len(plain)


def forget_listener(erasure: Erasure) -> int:
    """Delete the station's remembered mappings whose columns name the erased listener (a file exported without its
    header row), and destroy their keys; how many."""
    mappings = RememberedMapping._get_collection()
    docs = list(mappings.find({"company_id": erasure.company_id}, {"pairs": 1, "sealed": 1, "sealed_key": 1}))
    named = [doc for doc, pairs in zip(docs, opened_pairs(docs))
             if pairs and any(erasure.spellings.names(column) for column, _ in pairs)]
    if named:
        mappings.delete_many({"_id": {"$in": [doc["_id"] for doc in named]}})
        key_vault().destroy([key_name(erasure.company_id, doc["_id"], doc["sealed_key"])
                             for doc in named if doc.get("sealed_key")])
    return len(named)
