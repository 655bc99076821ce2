"""The outbox's event bodies, sealed a write at a time (core.personal.sealed_groups): a body carries the listener fields
an endpoint shares (name, e-mail, number), kept until delivered and then 30 days for a replay.

A write of many batches (a run's moves) seals them 250 batches to a group; a write of one or two (a live batch's
moves, a replay, a test event) goes into the station's open group, so that a day of live batches does not make a key
each. Erasing a listener writes the other batches of its groups again without the listener's events, under new
groups, and destroys the old groups' keys. A group whose batches have all gone (delivered and expired, or their
endpoint deleted) has its key destroyed by the next full run's sweep.
"""
from __future__ import annotations

from datetime import timedelta

import bson
from bson import ObjectId
from pymongo import DeleteOne, UpdateOne

from core.clock import utcnow
from core.db.quirks import IN_CHUNK, insert_all
from core.listeners import finding
from core.personal.sealed_groups import SealedGroups
from core.webhooks.models import WebhookBatch, WebhookKey

GROUPS = SealedGroups("webhooks", WebhookKey, size=250)
SHARED_UP_TO = 2  # batches a write puts in the station's open group
CHUNK = 100  # batches inserted together
SWEEP_AFTER = timedelta(days=1)  # a group younger than this may still be written to


def store(docs: list[dict]) -> None:
    """Insert these batch documents of one station, their events' bodies sealed (the rows keep their id, type and
    listener). If an erasure destroyed their open group before they were stored, they are sealed again apart."""
    if not docs:
        return
    company_id, bodies = docs[0]["company_id"], [[row["body"] for row in doc["events"]] for doc in docs]
    shared = len(docs) <= SHARED_UP_TO
    claimed = _seal(company_id, docs, bodies, shared)
    try:
        for start in range(0, len(docs), CHUNK):
            insert_all(WebhookBatch._get_collection(), docs[start:start + CHUNK])
    finally:
        lost = GROUPS.counted_in([(claimed, len(docs))] if shared else [])
    if lost:
        _seal(company_id, docs, bodies, shared=False)
        WebhookBatch._get_collection().bulk_write([UpdateOne(
            {"_id": doc["_id"], "bodies_group": claimed},
            {"$set": {"sealed_bodies": doc["sealed_bodies"], "bodies_group": doc["bodies_group"]}}) for doc in docs])


def opened(batches: list[dict]) -> list[dict]:
    """These batch documents (as read) with each event's body in place, their groups' keys unsealed together.
    Batches whose group's key is gone (an erasure wrote them again since they were read) are left out: a reader
    that needs them reads again."""
    values = GROUPS.open([(batch.get("bodies_group"), batch.get("sealed_bodies")) for batch in batches])
    kept = []
    for batch, value in zip(batches, values):
        if batch.get("sealed_bodies") is not None:  # else stored before sealing, bodies in its rows
            if value is None:
                continue
            for row, body in zip(batch["events"], bson.decode(value)["b"]):
                row["body"] = body
        batch.pop("sealed_bodies", None)
        batch.pop("bodies_group", None)
        kept.append(batch)
    return kept


def erase(company_id: int, originator: str) -> int:
    """Drop every event of the listener, and make every copy of them unreadable: the other batches of their groups
    are written again without them under new groups, a batch left empty goes, and the groups' keys are destroyed;
    how many batches held the listener's events."""
    collection, forms = WebhookBatch._get_collection(), list(finding.lookup(company_id, [originator]))
    held = list(collection.find({"company_id": company_id, "originators": {"$in": forms}},
                                {"bodies_group": 1, "events": 1, "company_id": 1}))
    groups = GROUPS.existing(b["bodies_group"] for b in held if b.get("bodies_group") is not None)
    GROUPS.settle(groups)  # every write that claimed room in one of them is stored
    members = [b for start in range(0, len(groups), IN_CHUNK) for b in collection.find(
        {"company_id": company_id, "bodies_group": {"$in": groups[start:start + IN_CHUNK]}})]  # the index alone
    members += [b for b in held if b.get("bodies_group") is None]  # stored before sealing
    batches = opened(members)
    for batch in batches:
        batch["events"] = [row for row in batch["events"] if row.get("originator") not in forms]
    kept = [batch for batch in batches if batch["events"]]
    if kept:
        _seal(company_id, kept, [[row["body"] for row in batch["events"]] for batch in kept], shared=False)
    writes = [UpdateOne({"_id": batch["_id"]}, {"$set": {
        "events": batch["events"], "sealed_bodies": batch["sealed_bodies"], "bodies_group": batch["bodies_group"],
        "originators": sorted({row["originator"] for row in batch["events"] if row["originator"]}),
        "count": len(batch["events"])}}) for batch in kept]
    writes += [DeleteOne({"_id": batch["_id"]}) for batch in batches if not batch["events"]]
    if writes:
        collection.bulk_write(writes, ordered=False)
    GROUPS.destroy(groups)
    return len(held)


def sweep(company_id: int) -> int:
    """Destroy the keys of the station's groups that no batch is sealed in any more; how many. The open group, and
    groups younger than SWEEP_AFTER, are left: a writer may be storing its batches in them."""
    before = ObjectId.from_datetime(utcnow() - SWEEP_AFTER)
    candidates = [doc["_id"] for doc in WebhookKey._get_collection().find({"company_id": company_id},
                                                                           {"_id": 1, "open_for": 1})
                  if doc["_id"] < before and doc.get("open_for") is None]
    batches = WebhookBatch._get_collection()
    idle = [group for group in candidates
            if batches.find_one({"company_id": company_id, "bodies_group": group}, {"_id": 1}) is None]
    if idle:
        GROUPS.destroy(idle)
    return len(idle)


def _seal(company_id: int, docs: list[dict], bodies: list[list[str]], shared: bool) -> ObjectId | None:
    """Seal each document's bodies (in place: rows lose theirs); the open group claimed when `shared`."""
    values = [bson.encode({"b": these}) for these in bodies]
    if shared:
        group, sealed = GROUPS.seal_shared(company_id, values)
        pairs = [(group, value) for value in sealed]
    else:
        group, pairs = None, GROUPS.seal_all(company_id, values)
    for doc, (in_group, value) in zip(docs, pairs):
        doc["events"] = [{name: v for name, v in row.items() if name != "body"} for row in doc["events"]]
        doc["sealed_bodies"], doc["bodies_group"] = value, in_group
    return group
