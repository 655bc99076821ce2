"""The columnar snapshot of a company's listeners: every filterable field, one numpy array per field.

Written once per segmentation run as one GridFS file (cheap on any MongoDB, and on the embedded database, which pays
per document), held in memory per process keyed by the company's file id: filters, counts and pages are vectorised.
The columns that name nobody are memory maps of a copy on the host's disk, shared by its processes
(core.listeners.host_columns).

Live interactions do not rewrite the file: each batch adds a delta document (the re-profiled rows, numbered) on top
of it, which every process applies when the company's `data_version` moved; the next published file folds them in.

Files and deltas are sealed under a data key per file, destroyed when a newer file replaces it (their stored format
is core.listeners.snapshot_files). A backup restored from before the company's latest run therefore names a file
nobody can read: the snapshot is lost (`SnapshotLost`), and being derived data it is rebuilt by a full segmentation
run (`when_lost`) before anyone reads it.

Columns are of the kinds core.listeners.columns declares (codes, member matrices, text, numbers); the `Snapshot`
itself and what joins and splices snapshots are in core.listeners.snapshot_rows, and named here too.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from gridfs.errors import NoFile

from core.errors import DomainError
from core.listeners import snapshot_files
from core.listeners.snapshot_files import KeyDestroyed
from core.listeners.snapshot_rows import Snapshot, concat, empty, latest_rows, splice_in_place
from core.listeners.snapshot_rows import splice as splice  # the runs' name for it, with the others here
from core.stations.companies import bump_version
from core.stations.models import Company

READ_ATTEMPTS = 3  # reads of the company's current file, should each find it pruned by a newer one meanwhile


class SnapshotLost(DomainError):
    """The company's current snapshot file cannot be read, and no newer one replaced it: its key was destroyed (a
    backup of the data restored from before a later run) or the file is gone. Until a full run rebuilds it, 503."""

    status = 503
    retry_after = 60

    def __init__(self, company_id: int):
        super().__init__("This station's listeners are being rebuilt after a restore of its data; "
                         "try again in a few minutes.")
        self.company_id = company_id



@dataclass(frozen=True)
class _Cached:
    """A process's view of one company: the file it read, the version it saw, the last delta it applied."""

    file_id: object
    version: int
    seq: int
    snapshot: Snapshot


_cache: dict[int, _Cached] = {}
_cache_lock = threading.Lock()


def current(company_id: int, rebuild: bool = True) -> Snapshot:
    """The company's latest snapshot: this process's copy while the company's data version has not moved; else the
    new file, or only the deltas written since (one small query, whatever the number of listeners). A lost one
    (`SnapshotLost`) is what `when_lost` registered answers (rebuilt), unless `rebuild` is False."""
    try:
        return _read_current(company_id)
    except SnapshotLost:
        if not rebuild or not _rebuilders:
            raise
    return _rebuilders[-1](company_id)


Rebuild = Callable[[int], Snapshot]
_rebuilders: list[Rebuild] = []


def when_lost(rebuild: Rebuild) -> None:
    """Have `rebuild(company_id)` answer `current` for a company whose snapshot is lost: a new one it published, or
    SnapshotLost when it cannot; registered by the segmentation package (a full run)."""
    if rebuild not in _rebuilders:
        _rebuilders.append(rebuild)


def _read_current(company_id: int) -> Snapshot:
    for _ in range(READ_ATTEMPTS - 1):
        try:
            return _current(company_id)
        except (NoFile, KeyDestroyed):  # a newer file was published, and this one pruned, while it was read
            continue
    return _current(company_id)


def _pointer(company_id: int) -> tuple[object, int]:
    """The company's current file and data version."""
    company = Company._get_collection().find_one({"company_id": company_id},
                                                 {"_id": 0, "snapshot_file": 1, "data_version": 1}) or {}
    return company.get("snapshot_file"), company.get("data_version", 0)


def _current(company_id: int) -> Snapshot:
    file_id, version = _pointer(company_id)
    with _cache_lock:
        cached = _cache.get(company_id)
    if cached and cached.file_id == file_id and cached.version == version:
        return cached.snapshot
    try:
        if cached and cached.file_id == file_id:
            base, seq = cached.snapshot, cached.seq
        else:
            base, seq = (snapshot_files.load(file_id) if file_id is not None else empty(company_id)), -1
        snapshot, seq = _with_deltas(base, file_id, seq)
    except (NoFile, KeyDestroyed) as error:
        if _pointer(company_id)[0] != file_id:  # replaced meanwhile: the caller reads the newer one
            raise
        forget(company_id)  # a publish points at its file before it destroys older keys: this one is lost
        raise SnapshotLost(company_id) from error
    with _cache_lock:
        _cache[company_id] = _Cached(file_id, version, seq, snapshot)
    return snapshot


def version(company_id: int, snap: Snapshot) -> tuple | None:
    """(file, data version) of this process's copy of the company's snapshot when `snap` is that copy, else None:
    what a value computed from the whole snapshot is kept under (a live batch changes rows in place and moves it)."""
    with _cache_lock:
        cached = _cache.get(company_id)
    return (cached.file_id, cached.version) if cached is not None and cached.snapshot is snap else None



def _with_deltas(base: Snapshot, file_id, after: int) -> tuple[Snapshot, int]:
    """The base with the deltas written on it after sequence number `after`; and the last one applied."""
    query = {"company_id": base.company_id, "base": file_id, "seq": {"$gt": after}}
    found = list(snapshot_files.deltas().find(query, {"_id": 0}).sort("seq", 1))
    if not found:
        return base, after
    rows = latest_rows(concat(snapshot_files.read_all([(doc["data"], doc) for doc in found])))
    return splice_in_place(base, rows), found[-1]["seq"]


def append_delta(previous: Snapshot, fresh: Snapshot) -> Snapshot:
    """Record re-profiled rows on top of the company's current file without rewriting it; returns the view they give
    on `previous` (this process keeps it: `previous` itself, changed in place, where `splice_in_place` can). The caller
    holds the company's segment lease, so deltas are numbered in the order they are written; the version moves again
    once the delta is stored, so a reader never skips it."""
    company_id = fresh.company_id
    file_id = (Company._get_collection().find_one({"company_id": company_id}, {"snapshot_file": 1}) or {}).get(
        "snapshot_file")
    data = snapshot_files.sealed(company_id, file_id, fresh)
    try:
        merged = splice_in_place(previous, fresh)
        seq = bump_version(company_id)
        snapshot_files.deltas().insert_one({"company_id": company_id, "base": file_id, "seq": seq, "data": data})
        version = bump_version(company_id)
    except BaseException:
        forget(company_id)  # the rows written in place are not stored: read the company afresh
        raise
    with _cache_lock:
        _cache[company_id] = _Cached(file_id, version, seq, merged)
    return merged


def publish(snapshot: Snapshot) -> object:
    """Save the snapshot, make it the company's current one and drop the older files and the deltas it includes.

    The caller holds the company's segment lease and built `snapshot` on `current()`, deltas included."""
    file_id = snapshot_files.save(snapshot)
    company = Company.objects(company_id=snapshot.company_id).modify(set__snapshot_file=file_id,
                                                                     inc__data_version=1, new=True, upsert=True)
    with _cache_lock:
        _cache[snapshot.company_id] = _Cached(file_id, company.data_version, -1, snapshot)
    snapshot_files.prune(snapshot.company_id, keep=file_id)
    return file_id



def forget(company_id: int) -> None:
    """Drop this process's copy of one company (the next read loads it again)."""
    with _cache_lock:
        _cache.pop(company_id, None)


def clear_cache() -> None:
    """Forget every cached snapshot (tests and operators)."""
    with _cache_lock:
        _cache.clear()
