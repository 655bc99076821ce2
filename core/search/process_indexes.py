"""This process's FAISS indexes, one per station and model, brought up to date from MongoDB (the source of truth,
core.search.vectors) by `seq` before every search, persisted under DATA_DIR/vectors.

The processes of a host share each index file as a read-only memory map (core.search.index): a process catches up
the vectors written since in a private tail and writes a new file only when that tail passes FOLD_ABOVE, or takes
the newer file another process wrote. A file is never trusted over MongoDB (another database's, a torn one or
one behind the counter is rebuilt or caught up), and an erasure rewrites the station's file without the listener.

Separate from the vector store because what a process holds in memory and on its host's disk is read by searches
(core.search.search), start-up and health, while the store's writes (embedding, erasure in MongoDB) never read it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from core.config import active
from core.db.quirks import by_seq
from core.listeners import sealed_profiles, snapshot
from core.personal import originator_keys
from core.search import index as faiss_index
from core.search import lexical_store
from core.search.embeddings import Embedder, embedder
from core.search.host_files import station_path
from core.search.kept import LockPerStation
from core.search.models import EmbeddingCounter, ListenerEmbedding

_indexes: dict[tuple[int, str], faiss_index.VectorIndex] = {}
_locks = LockPerStation()
FOLD_ABOVE = 5_000
"""Vectors a process keeps in its private tail beside the shared file before a new file is written (and mapped by
every process that catches up after): a tail is searched exactly beside the map, so a small one costs nothing."""


def forget_listener(company_id: int, originator: str) -> None:
    """An erased listener out of this process's indexes of the station (and their lexical indexes), each index's file
    rewritten without them, and the station's files of models this process holds no index of deleted."""
    models = [model for company, model in list(_indexes) if company == company_id]
    for model in models:
        with _locks((company_id, model)):
            found = _indexes.get((company_id, model))
            if found is not None:
                found.remove([originator])
                lexical_store.erased(company_id, model, originator)
                _indexes[(company_id, model)] = _rewritten(company_id, model, found)
    _delete_other_files(company_id, set(models))


def _rewritten(company_id: int, model: str, found: faiss_index.VectorIndex) -> faiss_index.VectorIndex:
    """The index without these listeners' vectors, saved over the station's file so that no file keeps them (the
    erased listener's number is in its list of listeners, their vector in its data)."""
    fresh = found.compacted()
    _save(company_id, fresh, _path(company_id, model))
    return _load(company_id, _path(company_id, model)) or fresh


def _delete_other_files(company_id: int, kept_models: set[str]) -> None:
    """Delete the station's index files of models this process holds no index of (rebuilt from MongoDB when
    next needed): an erasure leaves no file it could not rewrite."""
    folder = Path(active().data_dir) / "vectors"
    kept = {_path(company_id, model).stem for model in kept_models}
    for stale in folder.glob(f"company-{company_id}-*"):
        if not any(stale.name.startswith(stem + ".") or stale.name.startswith(stem + "-") for stem in kept):
            stale.unlink(missing_ok=True)


def current_index(company_id: int, model: Embedder | None = None) -> faiss_index.VectorIndex:
    """This process's index of the company, brought up to date with MongoDB (loaded from its file or rebuilt from
    MongoDB when this process has none)."""
    model = model or embedder()
    key = (company_id, model.name)
    with _locks(key):
        found = _indexes.get(key) or _from_file(company_id, model)
        _indexes[key] = found = _shared(company_id, model, _caught_up(company_id, model, found))
    return found


def load_every_index() -> int:
    """Load or catch up this process's vector and lexical index (the snapshot with it) of every station whose vectors
    moved since this process last read them, all of them the first time; how many stations have vectors.

    A preforking server's parent calls it before the fork, /health/ready before it says ready, and each web
    process's follower (core.search.following) every few seconds: without it, the first search of a station after
    a worker embedded an import read and tokenised it on the producer's request (5.9 s for 20,000 listeners, about
    20 s for a fresh worker at 100,000)."""
    model = embedder()
    held = {company: (found.lineage, found.seq) for (company, name), found in list(_indexes.items())
            if name == model.name and lexical_store.caught_up_to(company, name) == found.seq}
    counters = list(EmbeddingCounter._get_collection().find({"model": model.name}, {"company_id": 1, "seq": 1}))
    for counter in counters:
        if (str(counter["_id"]), counter.get("seq", 0)) != held.get(counter["company_id"]):
            company_id = counter["company_id"]
            lexical_store.current_lexical(company_id, current_index(company_id, model), model)
    return len(counters)


def _save(company_id: int, found: faiss_index.VectorIndex, path: Path) -> None:
    """Save the index with its listeners named by the keys of their originators: the host's files hold no number."""
    faiss_index.save(found, path, lambda originators: originator_keys.keys_of(company_id, originators))


def _load(company_id: int, path: Path) -> faiss_index.VectorIndex | None:
    return faiss_index.load(path, named=lambda stored: sealed_profiles.originators_of(company_id, stored))


def _path(company_id: int, model: str) -> Path:
    return station_path("vectors", company_id, model).with_suffix(".faiss")


def _from_file(company_id: int, model: Embedder) -> faiss_index.VectorIndex:
    """The saved index if it is whole and of this model, else an empty one (filled from MongoDB next)."""
    loaded = _load(company_id, _path(company_id, model.name))
    if loaded is None or loaded.dim != model.dim:
        return faiss_index.VectorIndex(model.dim)
    return loaded


def _caught_up(company_id: int, model: Embedder, found: faiss_index.VectorIndex) -> faiss_index.VectorIndex:
    """Apply every vector stored after the index's `seq`; switch to an approximate index past the size where exact
    search is fast enough, compact when dead ids pile up, and save when anything changed."""
    collection = ListenerEmbedding._get_collection()
    counter = EmbeddingCounter._get_collection().find_one({"company_id": company_id, "model": model.name}) or {}
    lineage = str(counter.get("_id", ""))  # the counter's id: another one means another database under the file
    if lineage != found.lineage or counter.get("seq", 0) < found.seq:
        found = faiss_index.VectorIndex(model.dim)
        found.lineage = lineage
    if counter.get("seq", 0) == found.seq:
        return found
    originators, vectors, last = [], [], found.seq
    for doc in by_seq(collection, {"company_id": company_id, "model": model.name}, found.seq, counter.get("seq", 0),
                      {"_id": 0, "originator": 1, "vector": 1, "seq": 1}):
        originators.append(doc["originator"])
        vectors.append(np.frombuffer(doc["vector"], dtype=np.float32))
        last = max(last, doc["seq"])
    if vectors:
        found.upsert(sealed_profiles.originators_of(company_id, originators), np.vstack(vectors))
    found.seq = last
    wanted = len(found) > faiss_index.APPROXIMATE_ABOVE
    if wanted != found.approximate or found.dead > len(found) // 5:
        found = _rebuilt(found, wanted)
    return found


def _shared(company_id: int, model: Embedder, found: faiss_index.VectorIndex) -> faiss_index.VectorIndex:
    """The index as a map of the host's file once it is held privately (built, rebuilt) or its private tail passed
    FOLD_ABOVE: the file another process saved when it is of the same database and as current, else this one,
    saved first (a map of the file rather than a copy per process)."""
    if found.frozen and found.tail_size <= FOLD_ABOVE:
        return found
    path = _path(company_id, model.name)
    on_disk = _load(company_id, path)
    if on_disk is None or on_disk.lineage != found.lineage or on_disk.seq < found.seq:
        _save(company_id, _without_erased(company_id, found), path)
        on_disk = _load(company_id, path)
    return on_disk if on_disk is not None else found


def _without_erased(company_id: int, found: faiss_index.VectorIndex) -> faiss_index.VectorIndex:
    """The index without the listeners its station's snapshot no longer has (erased ones are renamed there): this
    process may have read them before another erased them, and a file must not keep them."""
    snap = snapshot.current(company_id)
    alive = set(snap.originators.tolist()) if len(snap) else None
    gone = [o for o in found.current if o not in alive] if alive is not None else []
    if not gone:
        return found
    found.remove(gone)
    return found.compacted()


def _rebuilt(found: faiss_index.VectorIndex, approximate: bool) -> faiss_index.VectorIndex:
    if approximate == found.approximate:
        return found.compacted()
    fresh = faiss_index.VectorIndex(found.dim, approximate)
    live = np.fromiter(found.current.values(), dtype=np.int64)
    fresh.upsert(list(found.current), found.vectors_of(live) if len(live) else np.empty((0, found.dim)))
    fresh.seq, fresh.lineage = found.seq, found.lineage
    return fresh


def forget_indexes() -> None:
    """Drop this process's indexes (tests, and after the database was replaced)."""
    _indexes.clear()
    lexical_store.forget()


def indexed(model: str) -> int:
    """The vectors this process's indexes of this model hold, over every station."""
    return sum(len(found) for (_, name), found in list(_indexes.items()) if name == model)
