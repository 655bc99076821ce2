"""The listener package's stores of personal values, declared to the registry (core.personal.registry): the
listeners' own documents, which erasure reaches first, and their interaction batches; the suppressed numbers
(keyed) and the files of the columnar snapshot (sealed), which the snapshot's store erases (core.segmentation.personal).

A listener's document keeps its row under the pseudonym with every declared field cleared; its sealed fields go
with their group's key. A batch's messages go the same way, and its idempotency keys, keyed hashes already, are
keyed again under the erasure's own purpose, so that no later import of the same rows finds them as the person's.
"""
from __future__ import annotations

from bson import ObjectId

from core.clock import utcnow
from core.config import active
from core.listeners import events, finding, sealed_messages, sealed_writes, snapshot_files, station_copies
from core.listeners.fields import DECLARED, DECLARED_NAMES
from core.listeners.models import InteractionBatch, Listener
from core.personal import originator_keys
from core.personal.pseudonyms import keyed_hash
from core.personal.registry import FIRST, Erasure, Store, declare


def erase_profile(erasure: Erasure) -> int:
    """The sealed fields made unreadable in every copy (their group's key destroyed), every declared field unset,
    the row kept under the pseudonym. A new `profile_version` makes a writer that read the listener before fail
    its write."""
    company_id, originator = erasure.company_id, erasure.originator
    sealed_writes.erase(company_id, originator)
    unset = {field.name: "" for field in DECLARED if field.kind != "list"}
    result = Listener._get_collection().update_one(
        finding.matching(company_id, [originator]),
        {"$set": {"originator": erasure.pseudonym, "tags": [], "inferred": {}, "promoted": {},
                  "erased_at": utcnow(), "profile_version": ObjectId()},
         "$unset": {**unset, "profile": "", "profile_group": ""}})
    station_copies.forget(company_id)  # the station's copy of its listeners holds their fields as they were
    return result.modified_count


def erase_interactions(erasure: Erasure) -> int:
    """Messages made unreadable in every copy (their groups' keys destroyed); the batches moved to the pseudonym,
    their idempotency keys keyed again."""
    company_id, secret = erasure.company_id, active().secret_key
    sealed_messages.erase(company_id, erasure.originator)
    col, touched = InteractionBatch._get_collection(), 0
    for batch in list(col.find(finding.matching(company_id, [erasure.originator]), {"keys": 1})):
        keys = [events.ERASED_KEY + keyed_hash(secret, key)[:32] for key in batch.get("keys", [])]
        col.update_one({"_id": batch["_id"]}, {"$set": {"originator": erasure.pseudonym, "keys": keys}})
        touched += len(keys)
    station_copies.forget(company_id)  # after the move: a copy read before it is never read again
    return touched


def _migrate_interactions(company_id: int) -> int:
    """Messages sealed, idempotency keys and originators keyed, of batches stored before each was."""
    done = (sealed_messages.seal_plain(company_id) + events.key_plain_keys(company_id)
            + originator_keys.key_plain(InteractionBatch._get_collection(), company_id))
    station_copies.forget(company_id)  # their originators keyed in place
    return done


LISTENERS = declare(Store(
    "listeners", "listeners", when=FIRST, erase=erase_profile, migrate=sealed_writes.seal_plain,
    personal=("originator", "profile", *DECLARED_NAMES,
              "inferred", "promoted"),  # what AI guessed of the listener, and copied into declared fields: sealed
    # in `profile` since; stored plain (then cleared) before, which `encrypt` seals
    free=("_id", "company_id", "profile_group", "profile_version", "created_at", "erased_at")))
INTERACTIONS = declare(Store(
    "interactions", "interactions", erase=erase_interactions, migrate=_migrate_interactions,
    personal=("originator", "keys", "messages", "sealed_messages"),
    free=("_id", "company_id", "import_id", "n", "times", "channels", "timeslots", "campaigns", "message_group")))
SUPPRESSIONS = declare(Store("suppressions", "suppressions", personal=("number_hash",),  # keyed
                               free=("_id", "company_id", "created_at")))
SNAPSHOT_FILES = declare(Store(
    "snapshot_files", f"{snapshot_files.BUCKET}.files",
    personal=("metadata",),  # the vocabulary (every tag, place, language...) of a file written before sealing
    free=("_id", "filename", "length", "chunkSize", "uploadDate")))
STATION_COPY_FILES = declare(Store(
    "station_copy_files", f"{station_copies.BUCKET}.files",
    free=("_id", "filename", "length", "chunkSize", "uploadDate", "metadata")))  # station, kind, epoch, time
STATION_COPY_CHUNKS = declare(Store("station_copy_chunks", f"{station_copies.BUCKET}.chunks", personal=("data",),
                                    free=("_id", "files_id", "n")))  # sealed
SNAPSHOT_CHUNKS = declare(Store("snapshot_chunks", f"{snapshot_files.BUCKET}.chunks", personal=("data",),  # sealed
                                free=("_id", "files_id", "n")))
