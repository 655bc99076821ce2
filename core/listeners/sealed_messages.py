"""The messages of interaction batches, sealed with those of other batches of the same write
(core.personal.sealed_groups): 250 of an import's batches to a group, or the live batches of the hour.

A data key per listener would cost 0.64 ms a listener to read (about a minute for a station of 100,000, at every
embedding and language inference); a group costs one unsealing per 250 batches. Erasing a listener writes the
other members' messages again under new groups, then destroys the old groups' keys: from then on no copy of the
erased listener's messages, in the oplog or a backup, can be read.
"""
from __future__ import annotations

from contextlib import contextmanager

import bson
from pymongo import UpdateOne

from core.db import ahead
from core.db.quirks import projection
from core.listeners import finding
from core.listeners.models import InteractionBatch, MessageKey
from core.personal.sealed_groups import SealedGroups

GROUPS = SealedGroups("messages", MessageKey, size=250)
"""Batches to a group. Erasing a listener writes again the other members of each group they are in (2 ms a batch on
the embedded database); reading a station's messages opens a key per group (about 1 ms)."""
SEALED_FIELDS = {"sealed_messages": 1, "message_group": 1}
"""What a reader of messages asks for, beside `messages` (batches stored before sealing)."""
RESEAL_BATCH = 1_000  # batches written again together, at erasure and migration


@contextmanager
def sealed(docs: list[dict], shared: bool = False):
    """These batch documents, for a write of them inside the block, with their messages sealed (in place). A few
    batches of a live batch go `shared` into the station's open group, which counts them in once the block ends.
    An erasure waits for them only so long (core.personal.sealed_groups.SETTLE_SECONDS): if it destroyed the group
    meanwhile, they are sealed again, from the messages still at hand, under a group of their own."""
    messages = [doc.get("messages") for doc in docs]
    claimed = seal(docs, shared)
    try:
        yield docs
    finally:
        lost = GROUPS.counted_in(claimed)
    if lost:
        _seal_again([{**doc, "messages": said} for doc, said in zip(docs, messages)
                     if doc.get("message_group") in lost], opened_already=True)


def seal(docs: list[dict], shared: bool = False) -> list[tuple]:
    """Seal these batch documents' messages in place, in new groups of a station's batches (`shared`: the station's
    open group), a batch without any message keeping none; the (group, count) claimed in open groups."""
    by_company: dict[int, list[dict]] = {}
    for doc in docs:
        if any(m is not None for m in doc.get("messages") or ()):
            by_company.setdefault(doc["company_id"], []).append(doc)
    claimed = []
    for company_id, with_messages in by_company.items():
        values = [bson.encode({"m": doc["messages"]}) for doc in with_messages]
        if shared:
            pairs = []
            for start in range(0, len(values), GROUPS.size):
                group, sealed_values = GROUPS.seal_shared(company_id, values[start:start + GROUPS.size])
                claimed.append((group, len(sealed_values)))
                pairs += [(group, value) for value in sealed_values]
        else:
            pairs = GROUPS.seal_all(company_id, values)
        for doc, (group, value) in zip(with_messages, pairs, strict=True):
            doc["sealed_messages"], doc["message_group"] = value, group
    for doc in docs:
        doc.pop("messages", None)
    return claimed


def opened(docs: list[dict]) -> list[dict]:
    """These batch documents (as read, with SEALED_FIELDS) with their `messages`, in place: their groups' keys are
    unsealed together. A batch whose group's key was destroyed since it was read (an erasure wrote it again) reads
    without messages."""
    values = GROUPS.open([(doc.get("message_group"), doc.get("sealed_messages")) for doc in docs])
    for doc, value in zip(docs, values):
        if doc.pop("sealed_messages", None) is not None:
            doc["messages"] = bson.decode(value)["m"] if value is not None else []
        doc.pop("message_group", None)
    return docs


def erase(company_id: int, originator: str) -> int:
    """Make every copy of this listener's messages unreadable: the other batches sealed with theirs are written again
    under new groups, theirs lose their messages, and the old groups' keys are destroyed; how many batches of others
    were written again."""
    collection, forms = InteractionBatch._get_collection(), finding.lookup(company_id, [originator])
    mine = {"company_id": company_id, "originator": {"$in": list(forms)}}
    groups = GROUPS.existing(doc["message_group"] for doc in collection.find(mine, {"message_group": 1})
                             if doc.get("message_group") is not None)
    GROUPS.settle(groups)  # every live batch that claimed room in one of them is stored
    members = collection.find({"company_id": company_id, "message_group": {"$in": groups}},  # the index alone
                              projection({"_id": 1, "company_id": 1, "originator": 1, **SEALED_FIELDS}))
    written = _seal_again(doc for doc in members if doc["originator"] not in forms)
    collection.update_many(mine, {"$unset": {"messages": "", **dict.fromkeys(SEALED_FIELDS, "")}})
    GROUPS.destroy(groups)
    return written


def seal_plain(company_id: int) -> int:
    """Seal in place the messages of batches stored before sealing, RESEAL_BATCH at a time (GROUPS.size to a group);
    how many batches. Resumable: only batches still holding plain messages are read."""
    plain = InteractionBatch._get_collection().find({"company_id": company_id, "messages": {"$exists": True}},
                                                    {"_id": 1, "company_id": 1, "messages": 1})
    return _seal_again(plain, opened_already=True)


def _seal_again(docs, opened_already: bool = False) -> int:
    """Write these batches' messages (`docs`: their `_id`, `company_id` and messages, plain or sealed) under new
    groups."""
    collection, done = InteractionBatch._get_collection(), 0
    for chunk in ahead.batches(docs, RESEAL_BATCH):
        seal(chunk if opened_already else opened(chunk))
        collection.bulk_write([UpdateOne({"_id": doc["_id"]}, _stored(doc)) for doc in chunk], ordered=False)
        done += len(chunk)
    return done


def _stored(doc: dict) -> dict:
    """The update that stores a batch's messages as `seal` left them."""
    if "sealed_messages" not in doc:
        return {"$unset": {"messages": "", **dict.fromkeys(SEALED_FIELDS, "")}}
    return {"$set": {"sealed_messages": doc["sealed_messages"], "message_group": doc["message_group"]},
            "$unset": {"messages": ""}}
