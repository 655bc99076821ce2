"""A snapshot as stored: one GridFS file per segmentation run and a delta document per live batch on top of it, each
one blob (what goes beside the columns as BSON, then the columns as npz) sealed (core.personal.vault) under a data key
per file, destroyed when a newer file replaces it: a copy of an older one, in a backup or the oplog, is unreadable
from then on (docs/decisions.md §7). A file's columns that name nobody are read as the host's shared memory maps
(core.listeners.host_columns).

Separate from core.listeners.snapshot, which keeps each process's copy of a company's snapshot current and publishes
new ones, because this is the format alone: what a backup holds, what `encrypt` seals, and what the benchmarks time.
"""
from __future__ import annotations

import io

import bson
import gridfs
import numpy as np
from bson import ObjectId

from core.db.connection import get_db
from core.listeners import host_columns
from core.listeners.columns import with_added
from core.listeners.models import SnapshotDelta
from core.listeners.snapshot_rows import Snapshot
from core.personal.vault import is_envelope
from core.personal.vault_connection import key_vault
from core.stations.models import Company

BUCKET = "snapshots"


class KeyDestroyed(LookupError):
    """A stored file or delta whose key was destroyed: the file was replaced (meanwhile, or before a backup of it
    was restored)."""


def blob_of(header: dict, arrays: dict[str, np.ndarray]) -> bytes:
    """What goes beside the columns (BSON), then the columns (npz), as one blob: the format of snapshot files and
    deltas, and of a station's copies (core.listeners.event_copies)."""
    buffer = io.BytesIO()
    buffer.write(bson.encode(header))
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def parts_of(blob: bytes) -> tuple[dict, io.BytesIO]:
    """The header of a blob `blob_of` made, and a stream at its columns (for `np.load`)."""
    size = int.from_bytes(blob[:4], "little")
    stream = io.BytesIO(blob)  # shares the bytes; the zip reader allows the header in front of the npz
    stream.seek(size)
    return bson.decode(blob[:size]), stream


def packed(snapshot: Snapshot) -> bytes:
    """The snapshot as one blob, for files and deltas alike. Sealed whole (`sealed`), so that no value, nor a
    vocabulary of values, is written plain."""
    vocab = {k: list(v) for k, v in snapshot.vocab.items()}
    return blob_of({"company_id": snapshot.company_id, "vocab": vocab, "meta": snapshot.meta}, snapshot.cols)


def unpacked(blob: bytes, file_id=None) -> Snapshot:
    """The snapshot in `blob` (as `packed` makes it). A file's (`file_id`) columns that name nobody are the host's
    shared maps."""
    header, stream = parts_of(blob)
    return _from_arrays(stream, header, file_id)


def _from_arrays(stream, metadata: dict, file_id) -> Snapshot:
    with np.load(stream, allow_pickle=False) as arrays:
        cols = (host_columns.columns(metadata["company_id"], file_id, arrays) if file_id is not None
                else {name: arrays[name] for name in arrays.files})
    cols, vocab = with_added(cols, metadata["vocab"])
    return Snapshot(metadata["company_id"], cols, vocab, metadata.get("meta", {}))


def read(data: bytes, metadata: dict, file_id=None) -> Snapshot:
    """A stored file or delta (`read_all`)."""
    return read_all([(data, metadata)], file_id)[0]


def read_all(stored: list[tuple[bytes, dict]], file_id=None) -> list[Snapshot]:
    """Stored files or deltas, their keys unsealed together: sealed, or plain as they were written before sealing
    (their vocabulary beside them in the metadata; the next publish seals the company's snapshot). KeyDestroyed when
    a key was destroyed (the file was replaced)."""
    envelopes = [data for data, _ in stored if is_envelope(data)]
    blobs = iter(key_vault().unseal_bytes(envelopes) if envelopes else [])
    found = []
    for data, metadata in stored:
        if not is_envelope(data):
            found.append(_from_arrays(io.BytesIO(data), metadata, file_id))
            continue
        blob = next(blobs)
        if blob is None:
            raise KeyDestroyed(f"the key of snapshot file {metadata.get('base', file_id)} was destroyed")
        found.append(unpacked(blob, file_id))
    return found


def key_name(company_id: int, file_id) -> str:
    """The data key a snapshot file, and every delta written on it, is sealed under; destroyed with the file."""
    return f"snapshot:{company_id}:{file_id}"


def sealed(company_id: int, file_id, snapshot: Snapshot) -> bytes:
    return key_vault().seal_bytes(key_name(company_id, file_id), packed(snapshot))


def save(snapshot: Snapshot) -> object:
    """Write the snapshot as one GridFS file, sealed under a key of its own; returns its id. Old files are removed by
    `prune`."""
    file_id = ObjectId()
    data = sealed(snapshot.company_id, file_id, snapshot)
    fs = gridfs.GridFSBucket(get_db(), BUCKET)
    fs.upload_from_stream_with_id(file_id, f"company-{snapshot.company_id}", data,
                                  metadata={"company_id": snapshot.company_id, "sealed": True})
    return file_id


def load(file_id) -> Snapshot:
    """Read a snapshot file back."""
    fs = gridfs.GridFSBucket(get_db(), BUCKET)
    stream = fs.open_download_stream(file_id)
    return read(stream.read(), stream.metadata, file_id)


def prune(company_id: int, keep) -> None:
    """Destroy the keys of the company's snapshot files other than `keep` and of the deltas written on them, then
    delete them: a copy of any of them (a backup) is unreadable from then on. Keys first, so that a prune cut short
    leaves files nobody can read, which the next prune deletes, rather than keys nobody would destroy."""
    fs = gridfs.GridFSBucket(get_db(), BUCKET)
    stale_files = {"metadata.company_id": company_id, "_id": {"$ne": keep}}
    stale = [doc["_id"] for doc in get_db()[f"{BUCKET}.files"].find(stale_files, {"_id": 1})]
    stale_bases = deltas().distinct("base", {"company_id": company_id, "base": {"$ne": keep}})
    key_vault().destroy({key_name(company_id, file_id) for file_id in [*stale, *stale_bases]})
    for file_id in stale:
        fs.delete(file_id)
    deltas().delete_many({"company_id": company_id, "base": {"$ne": keep}})


def deltas():
    return SnapshotDelta._get_collection()


def stored_plain(company_id: int) -> bool:
    """Whether the company's current file, or a delta on it, was written before sealing (its vocabulary beside
    it): what `flask --app wsgi encrypt` seals."""
    company = Company._get_collection().find_one({"company_id": company_id}, {"snapshot_file": 1}) or {}
    file_id = company.get("snapshot_file")
    stored = get_db()[f"{BUCKET}.files"].find_one({"_id": file_id}, {"metadata.sealed": 1}) if file_id else None
    plain_file = stored is not None and not (stored.get("metadata") or {}).get("sealed")
    return plain_file or deltas().count_documents({"company_id": company_id, "vocab": {"$exists": True}}) > 0
