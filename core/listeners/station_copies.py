"""Copies of what a whole-station read takes (its interactions, its listeners), one sealed GridFS file per station and
kind, so that a full run reads a file and what changed since rather than a document per listener.

MongoDB's documents stay the source of truth; a copy is written by the station's full run from what it read, sealed
under a key of its own as a snapshot file is (core.listeners.snapshot_files). A read takes the copy and the
documents whose version (an ObjectId made when they were written) is younger than MARGIN before the copy's read
began. A change that gives no new version (an erasure moving interactions to the pseudonym, `encrypt` keying
originators in place) calls `forget` after it: the station's `copies_epoch` moves on and its copies are deleted,
and a copy made at another epoch is never read, so one a run read before the change is deleted as it is written.
Each kind's format is its own module's (core.listeners.event_copies, core.listeners.listener_copies).
"""
from __future__ import annotations

from datetime import datetime, timedelta

import gridfs
from bson import ObjectId

from core.clock import as_utc
from core.db.connection import get_db
from core.db.quirks import projection
from core.personal.vault import is_envelope
from core.personal.vault_connection import key_vault
from core.stations.models import Company

BUCKET = "station_copies"
MARGIN = timedelta(minutes=10)
"""How long before a copy's read began a document is still read from its collection, so that one written before
the read and stored after it is not missed: longer than a write is under way (the driver gives up on one after two
minutes, and retries it once) and than the hosts' clocks differ (an ObjectId's time is its writer's)."""

WORTH_FROM = 5_000
"""Documents a whole-station read must take before a full run copies them: fewer are read in well under a second,
and a copy costs about a tenth of a second to write at every run."""


def worth_copying(documents: int) -> bool:
    return documents >= WORTH_FROM


def since(began: datetime) -> ObjectId:
    """The least version a read must take beside a copy whose read began then."""
    return ObjectId.from_datetime(began - MARGIN)


def epoch(company_id: int) -> int:
    company = Company._get_collection().find_one({"company_id": company_id}, projection({"copies_epoch": 1}))
    return int((company or {}).get("copies_epoch") or 0)


def current(company_id: int, kind: str, at_epoch: int) -> tuple[bytes, datetime] | None:
    """The station's copy of this kind (opened) and when its read began; None when it has none at this epoch, or
    its key was destroyed."""
    stored = files().find_one({"metadata.company_id": company_id, "metadata.kind": kind, "metadata.epoch": at_epoch},
                              sort=[("uploadDate", -1)])
    if stored is None:
        return None
    data = gridfs.GridFSBucket(get_db(), BUCKET).open_download_stream(stored["_id"]).read()
    blob = key_vault().unseal_bytes([data])[0] if is_envelope(data) else None
    return None if blob is None else (blob, as_utc(stored["metadata"]["began"]))


def save(company_id: int, kind: str, blob: bytes, began: datetime, at_epoch: int) -> ObjectId | None:
    """Write the copy, sealed under a key of its own, and delete the station's others of this kind; none (and
    None) when the station's epoch moved on meanwhile (its documents changed in place after this copy was read)."""
    file_id = ObjectId()
    sealed = key_vault().seal_bytes(key_name(company_id, file_id), blob)
    gridfs.GridFSBucket(get_db(), BUCKET).upload_from_stream_with_id(
        file_id, f"company-{company_id}-{kind}", sealed,
        metadata={"company_id": company_id, "kind": kind, "epoch": at_epoch, "began": began, "sealed": True})
    if epoch(company_id) != at_epoch:
        _delete(company_id, {"_id": file_id})
        return None
    _delete(company_id, {"metadata.kind": kind, "_id": {"$ne": file_id}})
    return file_id


def forget(company_id: int) -> int:
    """After documents of the station changed in place: no copy made before is read again (its key destroyed, the
    file deleted); how many copies."""
    Company._get_collection().update_one({"company_id": company_id}, {"$inc": {"copies_epoch": 1}})
    return _delete(company_id, {})


def key_name(company_id: int, file_id) -> str:
    return f"copy:{company_id}:{file_id}"


def files():
    return get_db()[f"{BUCKET}.files"]


def _delete(company_id: int, which: dict) -> int:
    """Destroy the keys of these copies of the station, then delete them (keys first: a delete cut short leaves a
    file nobody can read)."""
    stale = [doc["_id"] for doc in files().find({"metadata.company_id": company_id, **which}, projection({"_id": 1}))]
    key_vault().destroy({key_name(company_id, file_id) for file_id in stale})
    bucket = gridfs.GridFSBucket(get_db(), BUCKET)
    for file_id in stale:
        bucket.delete(file_id)
    return len(stale)
