"""One company's vectors of one model in FAISS: exact search (a flat inner-product index) below APPROXIMATE_ABOVE
vectors, HNSW above it; persisted as a file with a checksum, and never trusted over MongoDB (core.search.vectors).

Every stored vector gets a new integer id; a listener embedded again gets a new id and its old one is dead (HNSW
cannot remove), so searches always pass the ids they may return (a bitmap selector: filters narrow the candidates
before ranking, never after). The index is rebuilt compact when dead ids outnumber a fifth of the live ones.

A saved index is read as a memory map of its file (faiss's IO_FLAG_MMAP_IFC), so that the processes of a host that
read one file share its pages instead of each holding a copy; such a map is read-only, so vectors added after it
go to a small private `tail` searched beside it, until core.search.process_indexes folds them into a new file.

The interface is what MongoDB Atlas `$vectorSearch` offers too: vectors by listener, a query vector, k, and a
pre-filter (Atlas: an MQL filter on indexed fields; here, the ids the shared filters allow), scores as (1 + cos) / 2.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Callable
from pathlib import Path

import faiss
import numpy as np

Names = Callable[[list[str]], list[str]]
"""How a file names the index's listeners, and back (core.search.process_indexes: by the keys of their
originators)."""
APPROXIMATE_ABOVE = 200_000  # exact search of 100k x 384 takes ~15 ms on 2 cores; HNSW above this
HNSW_M, HNSW_EF_CONSTRUCTION, HNSW_EF_SEARCH = 32, 80, 128
HNSW_EF_SEARCH_MAX = 8192  # past this a filter is narrow enough for exact scoring of its candidates to be as quick
EXACT_CANDIDATES = 20_000  # an approximate index scores a narrow filter's candidates exactly instead
_made = itertools.count(1)


class VectorIndex:
    """Vectors of one company and model, with the listener of every id and the `seq` it is current to."""

    def __init__(self, dim: int, approximate: bool = False):
        self.dim, self.approximate, self.seq, self.lineage = dim, approximate, 0, ""
        self.made = next(_made)  # this object among the process's indexes: ids mean nothing across two of them
        base = (faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT) if approximate
                else faiss.IndexFlatIP(dim))
        if approximate:
            base.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        self.index = faiss.IndexIDMap2(base)
        self.frozen, self.mapped = False, 0  # `index` a read-only map of a file: ids from `mapped` on are in `tail`
        self.tail: faiss.IndexIDMap2 | None = None
        self.owner: list[str] = []  # id -> originator
        self.current: dict[str, int] = {}  # originator -> its live id
        self.version = 0  # moves with every change, so that derived id maps know they are stale
        self._sorted: tuple | None = None  # (version, originators sorted, their ids)

    def __len__(self) -> int:
        return len(self.current)

    @property
    def dead(self) -> int:
        return len(self.owner) - len(self.current)

    def upsert(self, originators: list[str], vectors: np.ndarray) -> None:
        """Add or replace these listeners' vectors."""
        if not originators:
            return
        ids = np.arange(len(self.owner), len(self.owner) + len(originators), dtype=np.int64)
        if self.frozen and self.tail is None:
            self.tail = faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim))
        (self.tail if self.frozen else self.index).add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), ids)
        self.owner.extend(originators)
        self.current.update(zip(originators, ids.tolist()))
        self.version += 1

    def remove(self, originators: list[str]) -> None:
        """Forget these listeners (their ids become dead)."""
        for originator in originators:
            self.current.pop(originator, None)
        self.version += 1

    def ids_of(self, originators: np.ndarray) -> np.ndarray:
        """The live id of each listener, -1 for one without a vector (a vectorised look-up in the listeners sorted
        once per version of the index, not once per search)."""
        if not len(originators) or not self.current:
            return np.full(len(originators), -1, dtype=np.int64)
        if self._sorted is None or self._sorted[0] != self.version:
            names = np.array(list(self.current), dtype=str)
            order = np.argsort(names)
            ids = np.fromiter(self.current.values(), dtype=np.int64, count=len(names))
            self._sorted = (self.version, names[order], ids[order])
        _, names, ids = self._sorted
        where = np.clip(np.searchsorted(names, originators), 0, len(names) - 1)
        return np.where(names[where] == originators, ids[where], -1)

    @property
    def tail_size(self) -> int:
        """Vectors added since the mapped file was written (searched beside it, in this process only)."""
        return self.tail.ntotal if self.tail is not None else 0

    def vectors_of(self, ids: np.ndarray) -> np.ndarray:
        """The stored vectors of these ids."""
        ids = np.ascontiguousarray(ids, dtype=np.int64)
        if not self.tail_size:
            return self.index.reconstruct_batch(ids)
        late = ids >= self.mapped
        found = np.empty((len(ids), self.dim), dtype=np.float32)
        if (~late).any():
            found[~late] = self.index.reconstruct_batch(np.ascontiguousarray(ids[~late]))
        if late.any():
            found[late] = self.tail.reconstruct_batch(np.ascontiguousarray(ids[late]))
        return found

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The k best of the allowed ids by inner product (cosine for unit vectors), best first: (cosines, ids)."""
        allowed = np.asarray(allowed, dtype=np.int64)
        k = min(k, len(allowed))
        if k <= 0:
            return np.empty(0, dtype=np.float32), np.empty(0, dtype=np.int64)
        query = np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32)
        if self.approximate and len(allowed) <= EXACT_CANDIDATES:
            return _exact(self.vectors_of(allowed) @ query[0], allowed, k)
        bitmap = np.zeros(len(self.owner), dtype=bool)
        bitmap[allowed] = True
        packed = np.packbits(bitmap, bitorder="little")  # held until the search is done: FAISS keeps a raw pointer
        selector = faiss.IDSelectorBitmap(len(packed), faiss.swig_ptr(packed))
        params = (faiss.SearchParametersHNSW(sel=selector, efSearch=_breadth(k, len(allowed), len(self.owner)))
                  if self.approximate else faiss.SearchParameters(sel=selector))
        scores, ids = self.index.search(query, k, params=params)
        if self.tail_size:
            late = self.tail.search(query, k, params=faiss.SearchParameters(sel=selector))
            scores, ids = np.hstack([scores, late[0]]), np.hstack([ids, late[1]])
        keep = ids[0] >= 0
        if self.tail_size:
            return _exact(scores[0][keep], ids[0][keep], k)
        return scores[0][keep], ids[0][keep]

    def compacted(self) -> VectorIndex:
        """The same live vectors in a new index without dead ids."""
        fresh = VectorIndex(self.dim, self.approximate)
        originators = list(self.current)
        if originators:
            fresh.upsert(originators, self.vectors_of(np.fromiter(self.current.values(), dtype=np.int64)))
        fresh.seq, fresh.lineage = self.seq, self.lineage
        return fresh


def similarity_of(cosine: np.ndarray) -> np.ndarray:
    """Atlas's vector-search score: (1 + cosine) / 2, in [0, 1]."""
    return np.clip((1.0 + np.asarray(cosine, dtype=np.float64)) / 2.0, 0.0, 1.0)


def _breadth(k: int, allowed: int, stored: int) -> int:
    """HNSW's efSearch: twice k at least, widened by how much of the index the filter shuts out. The selector only
    keeps shut-out vectors from the answer, not from the walk, so a filter that lets a quarter through leaves a
    quarter of the candidate list useful: at 100k, recall@100 with a quarter allowed was 0.68 at efSearch 200, 0.89
    at 800, 0.95 at 1,600 and 0.98 at 3,200 (bench/search.py), hence the square of the inverse share."""
    wanted = max(HNSW_EF_SEARCH, 2 * k) * (stored / max(allowed, 1)) ** 2
    return int(min(HNSW_EF_SEARCH_MAX, wanted))


def _exact(scores: np.ndarray, ids: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k best scores of a small candidate set, best first (ties by id, so the order is stable)."""
    top = np.lexsort((ids, -scores))[:k]
    return scores[top].astype(np.float32), ids[top]


def save(index: VectorIndex, path: Path, stored_as: Names = list) -> None:
    """Write the index as a file named by its checksum beside `path`, then its listeners (as `stored_as` names
    them) and that name at `path`'s .json (the pointer), each under a temporary name synced and renamed into place:
    a process that mapped an older file keeps reading it unchanged, several processes saving at once each leave a
    whole pair, and a torn or corrupt file is rebuilt rather than read. Older files of the same index are
    deleted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    whole = _folded(index)
    data = faiss.serialize_index(whole).tobytes()
    digest = hashlib.sha256(data).hexdigest()
    target = data_file(path, digest)
    live = list(index.current)
    stored = dict(zip(live, stored_as(live), strict=True))
    meta = {"dim": index.dim, "approximate": index.approximate, "seq": index.seq, "lineage": index.lineage,
            "owner": [stored[o] if index.current.get(o) == i else "" for i, o in enumerate(index.owner)],  # dead: ""
            "current": {stored[o]: at for o, at in index.current.items()}, "sha256": digest, "file": target.name}
    if not target.exists():
        _replace(target, data)
    _replace(path.with_suffix(".json"), json.dumps(meta).encode())
    for older in path.parent.glob(f"{path.stem}-*.faiss"):
        if older != target:
            older.unlink(missing_ok=True)
    path.unlink(missing_ok=True)  # the single file written before files were shared


def data_file(path: Path, digest: str) -> Path:
    """Where the index of this checksum is kept, beside its pointer `path`."""
    return path.with_name(f"{path.stem}-{digest[:16]}.faiss")


def _folded(index: VectorIndex) -> faiss.Index:
    """The FAISS index with its tail added (read whole from the map: a map cannot grow)."""
    if not index.tail_size:
        return index.index
    whole = faiss.deserialize_index(faiss.serialize_index(index.index))
    whole.add_with_ids(index.tail.reconstruct_batch(np.arange(index.mapped, len(index.owner), dtype=np.int64)),
                       np.arange(index.mapped, len(index.owner), dtype=np.int64))
    return whole


def _replace(target: Path, body: bytes) -> None:
    """Write `body` at `target` atomically: a unique temporary name, synced, renamed over it."""
    temporary = target.with_name(f"{target.name}.{os.getpid()}.{next(_made)}.tmp")
    with open(temporary, "wb") as out:
        out.write(body)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, target)


def load(path: Path, mapped: bool = True, named: Names = list) -> VectorIndex | None:
    """The saved index (a shared read-only map of its file unless `mapped` is False), its listeners as `named`
    names what `save` stored, or None when it is missing, torn or corrupt."""
    try:
        meta = json.loads(path.with_suffix(".json").read_text())
        target = path.with_name(meta["file"])
        with open(target, "rb") as source:
            if hashlib.file_digest(source, "sha256").hexdigest() != meta["sha256"]:
                return None
        index = VectorIndex(meta["dim"], meta["approximate"])
        index.index = faiss.read_index(str(target), faiss.IO_FLAG_MMAP_IFC if mapped else 0)
        stored = list(meta["current"])
        names = dict(zip(stored, named(stored), strict=True))
        index.owner = [names.get(o, "") for o in meta["owner"]]
        index.current, index.seq = {names[o]: at for o, at in meta["current"].items()}, meta["seq"]
        index.lineage = meta.get("lineage", "")
        index.frozen, index.mapped = mapped, len(index.owner)
    except (OSError, ValueError, KeyError, RuntimeError):
        return None
    return index if index.index.ntotal == len(index.owner) else None
