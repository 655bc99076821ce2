"""A station's interactions as one columnar copy: what a whole-station read (a full run, the churn backtest, the
history rebuild, a bound search over most of a station) reads instead of every batch document.

The batch documents stay the source of truth. The copy is one GridFS file per station, sealed under a key of its own
as a snapshot file is (core.listeners.snapshot_files), written by the station's full run from what it read. A read
takes the copy and the batches written since (by the time in their `_id`, from MARGIN before the copy's read began,
so that a batch whose insert was under way meanwhile is read too), and never the same batch twice. The embedded
database pays per document: 100,000 batches of 2M interactions are read in about 23 s, the same columns as one
file in about 0.3 s (bench/README.md#the-events-copy).

Batches are appended and never changed, but for erasure (moved to the pseudonym) and `encrypt` (keyed in place).
Both call `forget` after they changed them: it moves the station's `events_epoch` on and deletes its copies, and a
copy made at another epoch is never read. A run that read before the change writes its copy at the old epoch, so
it is deleted as soon as it is written.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

import bson
import gridfs
import numpy as np
from bson import ObjectId

from core.clock import as_utc, utcnow
from core.db.connection import get_db
from core.db.quirks import projection
from core.personal.vault import is_envelope
from core.personal.vault_connection import key_vault
from core.stations.models import Company

BUCKET = "event_copies"
MARGIN = timedelta(minutes=10)
"""How long before a copy's read began a batch is still read from the collection, so that a batch made before the
read and stored after it is not missed: longer than an insert is under way (the driver gives up on one after two
minutes, and retries it once) and than the hosts' clocks differ (the `_id`'s time is the writer's)."""
TIME, CHANNEL, SLOT = np.dtype("<i8"), np.dtype("<i2"), np.dtype("<i4")
"""How a batch packs its times, channels and timeslots (core.listeners.events)."""


@dataclass
class Columns:
    """Batches of interactions as flat columns; batch b owns `counts[b]` consecutive interactions and belongs to
    `originators[owner[b]]` (as stored: keyed, or a pseudonym)."""

    originators: list[str]
    owner: np.ndarray  # int32 per batch
    counts: np.ndarray  # int64 per batch
    made: np.ndarray  # int64 per batch: the seconds in its `_id`
    times: np.ndarray  # int64 per interaction, epoch milliseconds
    channels: np.ndarray  # int16
    timeslots: np.ndarray  # int32, -1 for no show
    campaigns: np.ndarray  # int16, into vocab
    vocab: list[str]  # sorted

    @property
    def batches(self) -> int:
        return len(self.owner)


def columns_of(docs: Iterable[dict], progress: Callable[[int], None] | None = None) -> Columns:
    """The columns of batch documents as stored (with `_id` when they are to be copied)."""
    index: dict[str, int] = {}
    owner, counts, made, times, channels, timeslots, campaigns = [], [], [], [], [], [], []
    for n, doc in enumerate(docs, 1):
        owner.append(index.setdefault(doc["originator"], len(index)))
        counts.append(len(doc["campaigns"]))
        made.append(int(doc["_id"].generation_time.timestamp()) if "_id" in doc else 0)
        times.append(doc["times"])
        channels.append(doc["channels"])
        timeslots.append(doc["timeslots"])
        campaigns.extend(doc["campaigns"])
        if progress and n % 5000 == 0:
            progress(5000)
    names = np.array(campaigns, dtype=object).astype(str) if campaigns else np.zeros(0, dtype=str)
    vocab, codes = np.unique(names, return_inverse=True) if len(names) else ([], np.zeros(0, dtype=np.int64))
    return Columns(list(index), np.asarray(owner, dtype=np.int32), np.asarray(counts, dtype=np.int64),
                   np.asarray(made, dtype=np.int64), unpack(times, TIME, np.int64),
                   unpack(channels, CHANNEL, np.int16), unpack(timeslots, SLOT, np.int32),
                   np.asarray(codes, dtype=np.int16), [str(v) for v in vocab])


def station_columns(company_id: int, read: Callable[[dict], Iterable[dict]], keep: bool = False,
                    progress: Callable[[int], None] | None = None) -> Columns:
    """Every batch of the station: its copy and the batches since, or every batch when it has none. `read(query)`
    gives the station's batch documents matching `query` (with their `_id`). With `keep` (a full run, under the
    station's lease) what was read is copied for the next read, unless nothing was added to the copy."""
    began, epoch = utcnow(), _epoch(company_id)
    copy = current(company_id, epoch)
    if copy is None:
        found = columns_of(read({}), progress)
    else:
        since = copy[1] - MARGIN
        recent = columns_of(read({"_id": {"$gte": ObjectId.from_datetime(since)}}))
        found = joined(older_than(copy[0], int(since.timestamp())), recent)
    if keep and (copy is None or found.batches != copy[0].batches or found.counts.sum() != copy[0].counts.sum()):
        save(company_id, found, began, epoch)
    return found


def older_than(columns: Columns, seconds: int) -> Columns:
    """The batches made before `seconds` (epoch), every column cut to them."""
    keep = columns.made < seconds
    events = np.repeat(keep, columns.counts)
    return Columns(columns.originators, columns.owner[keep], columns.counts[keep], columns.made[keep],
                   columns.times[events], columns.channels[events], columns.timeslots[events],
                   columns.campaigns[events], columns.vocab)


def joined(first: Columns, second: Columns) -> Columns:
    """The batches of both, their listeners and campaign types named once."""
    index = {originator: i for i, originator in enumerate(first.originators)}
    for originator in second.originators:
        index.setdefault(originator, len(index))
    moved = np.asarray([index[o] for o in second.originators], dtype=np.int32)
    vocab = sorted(set(first.vocab) | set(second.vocab))
    return Columns(list(index), np.concatenate([first.owner, moved[second.owner] if second.batches else
                                                np.zeros(0, dtype=np.int32)]).astype(np.int32),
                   np.concatenate([first.counts, second.counts]), np.concatenate([first.made, second.made]),
                   np.concatenate([first.times, second.times]), np.concatenate([first.channels, second.channels]),
                   np.concatenate([first.timeslots, second.timeslots]),
                   np.concatenate([_recoded(first, vocab), _recoded(second, vocab)]).astype(np.int16), vocab)


def current(company_id: int, epoch: int | None = None) -> tuple[Columns, datetime] | None:
    """The station's copy and when its read began; None when it has none at its epoch, or its key was destroyed."""
    epoch = _epoch(company_id) if epoch is None else epoch
    stored = files().find_one({"metadata.company_id": company_id, "metadata.epoch": epoch},
                              sort=[("uploadDate", -1)])
    if stored is None:
        return None
    data = gridfs.GridFSBucket(get_db(), BUCKET).open_download_stream(stored["_id"]).read()
    blob = key_vault().unseal_bytes([data])[0] if is_envelope(data) else None
    if blob is None:
        return None
    return _unpacked(blob), as_utc(stored["metadata"]["began"])


def save(company_id: int, columns: Columns, began: datetime, epoch: int) -> ObjectId | None:
    """Write the copy, sealed under a key of its own, and delete the station's others; none (and None) when the
    station's epoch moved on meanwhile (an erasure changed the batches after this copy was read)."""
    file_id = ObjectId()
    sealed = key_vault().seal_bytes(key_name(company_id, file_id), _packed(columns))
    gridfs.GridFSBucket(get_db(), BUCKET).upload_from_stream_with_id(
        file_id, f"company-{company_id}", sealed,
        metadata={"company_id": company_id, "epoch": epoch, "began": began, "sealed": True})
    if _epoch(company_id) != epoch:
        _delete(company_id, {"_id": file_id})
        return None
    _delete(company_id, {"_id": {"$ne": file_id}})
    return file_id


def forget(company_id: int) -> int:
    """After the station's batches changed in place: no copy made before is read again (its key destroyed, the file
    deleted); how many copies."""
    Company._get_collection().update_one({"company_id": company_id}, {"$inc": {"events_epoch": 1}})
    return _delete(company_id, {})


def key_name(company_id: int, file_id) -> str:
    return f"events:{company_id}:{file_id}"


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


def _epoch(company_id: int) -> int:
    company = Company._get_collection().find_one({"company_id": company_id}, projection({"events_epoch": 1}))
    return int((company or {}).get("events_epoch") or 0)


def _packed(columns: Columns) -> bytes:
    buffer = io.BytesIO()
    buffer.write(bson.encode({"originators": columns.originators, "vocab": columns.vocab}))
    np.savez(buffer, owner=columns.owner, counts=columns.counts, made=columns.made, times=columns.times,
             channels=columns.channels, timeslots=columns.timeslots, campaigns=columns.campaigns)
    return buffer.getvalue()


def _unpacked(blob: bytes) -> Columns:
    size = int.from_bytes(blob[:4], "little")
    names = bson.decode(blob[:size])
    stream = io.BytesIO(blob)
    stream.seek(size)
    with np.load(stream, allow_pickle=False) as arrays:
        return Columns(list(names["originators"]), arrays["owner"], arrays["counts"], arrays["made"],
                       arrays["times"], arrays["channels"], arrays["timeslots"], arrays["campaigns"],
                       list(names["vocab"]))


def _recoded(columns: Columns, vocab: list[str]) -> np.ndarray:
    """The campaign codes of `columns` as indexes into `vocab` (which holds every type of theirs)."""
    if not columns.vocab:
        return np.zeros(len(columns.campaigns), dtype=np.int16)
    return np.searchsorted(np.asarray(vocab), np.asarray(columns.vocab))[columns.campaigns]


def unpack(chunks: list[bytes], packed: np.dtype, native) -> np.ndarray:
    """Packed little-endian columns of several batches as one array in the machine's own order."""
    return np.frombuffer(b"".join(chunks), dtype=packed).astype(native)
