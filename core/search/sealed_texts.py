"""The texts stored with the vectors (what each listener said, their traits), sealed a group at a time.

Every write of vectors seals its texts 250 to a group, each group under a content key of its own, itself sealed
under a data key per group (core.personal.vault): one pass through libmongocrypt per 250 texts, and
AES-GCM in C for each text. Reading 100,000 texts costs under a second more (a data key per listener would cost
0.64 ms a listener, about a minute at 100,000). Each stored document lists every group a text of its
listener was ever sealed in (`text_groups`). Erasing a listener writes again, under new groups, the texts of the
others still sealed in those groups, then destroys the groups' keys: every copy of the listener's texts, in the oplog
or a backup, is unreadable from then on.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
from bson import Binary, ObjectId
from pymongo import UpdateOne

from core.db import ahead
from core.db.quirks import IN_CHUNK
from core.listeners import sealed_profiles
from core.personal.sealed_groups import SealedGroups
from core.search.models import ListenerEmbedding, TextKey

GROUPS = SealedGroups("texts", TextKey, size=250)
"""Texts to a group: erasing a listener writes again, with their vectors, the other members of each group they are in
(about 3.5 ms a text on the embedded database); building an index opens a key per group (about 1 ms)."""


def sealed(company_id: int, texts: list[str]) -> list[tuple[ObjectId, Binary]]:
    """Each text's (group, sealed text), sealed GROUPS.size to a new group."""
    return GROUPS.seal_all(company_id, [text.encode() for text in texts])


def stored(group: ObjectId, sealed_text: Binary, **fields) -> dict:
    """The update that stores a sealed text (with `fields`) in its document, in place of a plain one."""
    return {"$set": {"sealed_text": sealed_text, "text_group": group, **fields}, "$unset": {"text": ""},
            "$addToSet": {"text_groups": group}}


def opened(docs: list[dict]) -> list[str]:
    """The text of each stored document, in order: "" where it has none, or where its group's key was destroyed
    since it was read (its text was then written again under a later `seq`, which every reader comes to)."""
    texts = GROUPS.open([(doc.get("text_group"), doc.get("sealed_text")) for doc in docs])
    return [(doc.get("text") or "") if doc.get("sealed_text") is None  # stored before sealing
            else (text or b"").decode() for doc, text in zip(docs, texts)]


def groups_of(keys: list[dict]) -> list[ObjectId]:
    """Every group a text of the listener stored under these keys (one per model) was sealed in, whose key still
    exists."""
    collection, fields = ListenerEmbedding._get_collection(), {"text_groups": 1, "text_group": 1}
    groups = {group for key in keys for doc in collection.find(key, fields)
              for group in [*doc.get("text_groups", []), doc.get("text_group")] if group is not None}
    return GROUPS.existing(groups)


def members(company_id: int, groups: list[ObjectId]) -> list[dict]:
    """The stored documents whose text is sealed in these groups."""
    fields = {"_id": 0, "originator": 1, "model": 1, "sealed_text": 1, "text_group": 1, "vector": 1}
    return [doc for start in range(0, len(groups), IN_CHUNK) for doc in ListenerEmbedding._get_collection().find(
        {"company_id": company_id, "text_group": {"$in": groups[start:start + IN_CHUNK]}}, fields)]


def seal_again(company_id: int, groups: list[ObjectId], write: Callable, batch: int) -> None:
    """Write the texts still sealed in these groups again under new groups, with their vectors, `batch` at a time
    (`write` is core.search.vectors': new `seq`s, so every process reads them again), then destroy the groups'
    keys, so that no copy of an erased listener's text can be read."""
    if not groups:  # a listener never embedded
        return
    docs = sealed_profiles.named(company_id, members(company_id, groups))
    texts = opened(docs)
    for model in {doc["model"] for doc in docs}:
        rows = [(doc["originator"], text, np.frombuffer(doc["vector"], dtype=np.float32))
                for doc, text in zip(docs, texts) if doc["model"] == model]
        for start in range(0, len(rows), batch):
            originators, kept_texts, kept_vectors = zip(*rows[start:start + batch])
            write(company_id, model, list(originators), list(kept_texts), np.vstack(kept_vectors))
    GROUPS.destroy(groups)


def seal_plain(company_id: int, batch: int) -> int:
    """Seal in place the texts stored before sealing, `batch` at a time (their `seq` unchanged: the text is the
    same); how many. Resumable: only documents still holding a plain text are read."""
    collection, done = ListenerEmbedding._get_collection(), 0
    plain = collection.find({"company_id": company_id, "text": {"$exists": True}}, {"_id": 1, "text": 1})
    for docs in ahead.batches(plain, batch):
        texts = sealed(company_id, [doc.get("text") or "" for doc in docs])
        collection.bulk_write([UpdateOne({"_id": doc["_id"], "text": {"$exists": True}},  # not embedded meanwhile
                                         stored(group, text)) for doc, (group, text) in zip(docs, texts)],
                              ordered=False)
        done += len(docs)
    return done
