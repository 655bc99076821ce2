"""The columnar snapshot of a company's listeners: every filterable field, one numpy array per field.

Written once per segmentation run as a single GridFS file (cheap on any MongoDB, and on the embedded database,
which pays per document), and held in memory per process, keyed by the file id recorded on the company, so that
filters, counts and pages are evaluated by vectorised passes instead of scans of MongoDB.

Column kinds (see `KINDS`): `cat` int16 codes into `vocab[name]` (-1 = absent); `multi` an n x len(vocab) boolean
matrix; `text` lower-cased UTF-8 bytes for partial matching; everything else a plain numeric array.
"""
from __future__ import annotations

import io
import threading
from dataclasses import dataclass, field

import gridfs
import numpy as np

from core.db.connection import get_db
from core.listeners.fields import CATEGORICAL, INFERRED_SINGLE, PARTIAL_TEXT
from core.stations.models import Company

BUCKET = "snapshots"
KINDS = {
    "cat": ("segment", "first_segment", *CATEGORICAL, *INFERRED_SINGLE, "peak_time_of_day"),
    "multi": ("tags", "inferred_interests", "channels", "timeslots", "campaign_types", "public_holidays",
              "missing_fields"),
    "text": PARTIAL_TEXT,
}
KIND_OF = {name: kind for kind, names in KINDS.items() for name in names}


@dataclass
class Snapshot:
    """The listeners of one company as columns; row i of every column is the listener originators[i]."""

    company_id: int
    cols: dict[str, np.ndarray]
    vocab: dict[str, list] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    _rows: dict | None = None

    def __len__(self) -> int:
        return len(self.cols["originator"])

    @property
    def originators(self) -> np.ndarray:
        return self.cols["originator"]

    def row_of(self, originator: str) -> int | None:
        """The row of a listener, None when not in the snapshot."""
        if self._rows is None:
            self._rows = {o: i for i, o in enumerate(self.originators.tolist())}
        return self._rows.get(originator)

    def take(self, rows: np.ndarray) -> Snapshot:
        """A snapshot of the given rows (indices or a boolean mask), same vocabularies."""
        return Snapshot(self.company_id, {k: v[rows] for k, v in self.cols.items()}, self.vocab, dict(self.meta))

    def labels(self, name: str) -> np.ndarray:
        """A categorical column as its values (None where absent)."""
        values = np.array(list(self.vocab[name]) + [None], dtype=object)
        return values[self.cols[name]]


def empty(company_id: int) -> Snapshot:
    """A snapshot with no listeners."""
    return Snapshot(company_id, {"originator": np.array([], dtype="U1")}, {}, {})


def concat(parts: list[Snapshot]) -> Snapshot:
    """Rows of several snapshots of one company, with vocabularies merged and codes remapped."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty(0)
    names = parts[-1].cols.keys()
    vocab = {name: _ordered_union(p.vocab.get(name, []) for p in parts)
             for name in names if KIND_OF.get(name) in ("cat", "multi")}
    cols = {name: np.concatenate([_remap(p, name, vocab.get(name)) for p in parts]) for name in names}
    return Snapshot(parts[-1].company_id, cols, vocab, dict(parts[-1].meta))


def _ordered_union(vocabularies) -> list:
    """Every value once, in order of first appearance: fixed vocabularies (segments, fields) keep their order."""
    merged: dict = {}
    for vocabulary in vocabularies:
        merged.update(dict.fromkeys(vocabulary))
    return list(merged)


def _remap(part: Snapshot, name: str, vocab: list | None) -> np.ndarray:
    column = part.cols[name]
    if vocab is None:
        return column
    old = part.vocab.get(name, [])
    position = {v: i for i, v in enumerate(vocab)}
    if KIND_OF[name] == "cat":
        table = np.array([position[v] for v in old] + [-1], dtype=np.int16)
        return table[column]
    widened = np.zeros((len(column), len(vocab)), dtype=bool)
    for i, v in enumerate(old):
        widened[:, position[v]] = column[:, i]
    return widened


def save(snapshot: Snapshot) -> object:
    """Write the snapshot as one GridFS file; returns its id. Old files are removed by `prune`."""
    buffer = io.BytesIO()
    np.savez(buffer, **snapshot.cols)
    fs = gridfs.GridFSBucket(get_db(), BUCKET)
    vocab = {k: list(v) for k, v in snapshot.vocab.items()}
    return fs.upload_from_stream(f"company-{snapshot.company_id}", buffer.getvalue(),
                                 metadata={"company_id": snapshot.company_id, "vocab": vocab, "meta": snapshot.meta})


def load(file_id) -> Snapshot:
    """Read a snapshot file back."""
    fs = gridfs.GridFSBucket(get_db(), BUCKET)
    stream = fs.open_download_stream(file_id)
    metadata = stream.metadata
    with np.load(io.BytesIO(stream.read()), allow_pickle=False) as data:
        cols = {name: data[name] for name in data.files}
    return Snapshot(metadata["company_id"], cols, metadata["vocab"], metadata.get("meta", {}))


def prune(company_id: int, keep) -> None:
    """Delete the company's snapshot files other than `keep`."""
    fs = gridfs.GridFSBucket(get_db(), BUCKET)
    stale_files = {"metadata.company_id": company_id, "_id": {"$ne": keep}}
    for stale in get_db()[f"{BUCKET}.files"].find(stale_files, {"_id": 1}):
        fs.delete(stale["_id"])


_cache: dict[int, tuple[object, Snapshot]] = {}
_cache_lock = threading.Lock()


def current(company_id: int) -> Snapshot:
    """The company's latest snapshot, from this process's cache unless a newer file was recorded."""
    company = Company.objects(company_id=company_id).only("snapshot_file").first()
    file_id = company.snapshot_file if company else None
    if file_id is None:
        return empty(company_id)
    with _cache_lock:
        cached = _cache.get(company_id)
        if cached and cached[0] == file_id:
            return cached[1]
    snapshot = load(file_id)
    with _cache_lock:
        _cache[company_id] = (file_id, snapshot)
    return snapshot


def publish(snapshot: Snapshot) -> object:
    """Save the snapshot, make it the company's current one and drop the older files."""
    file_id = save(snapshot)
    Company.objects(company_id=snapshot.company_id).update_one(set__snapshot_file=file_id, inc__data_version=1)
    with _cache_lock:
        _cache[snapshot.company_id] = (file_id, snapshot)
    prune(snapshot.company_id, keep=file_id)
    return file_id


def clear_cache() -> None:
    """Forget every cached snapshot (tests and operators)."""
    with _cache_lock:
        _cache.clear()
