"""The vector store: embeddings in MongoDB (the source of truth), one FAISS index per company and model in each
process, persisted under DATA_DIR/vectors, brought up to date from MongoDB by `seq` before every search.

The processes of a host share each index file as a read-only memory map (core.search.index): a process catches up
the vectors written since in a private tail and writes a new file only when that tail passes FOLD_ABOVE, or takes
the newer file another process wrote. A file is never trusted over MongoDB (another database's, a torn one or
one behind the counter is rebuilt or caught up), and an erasure rewrites the station's file without the listener.

Listeners are embedded when their text changes: after every segmentation run (full, after an import, after a live
batch or an erasure) the touched listeners are queued for a worker process (`schedule_refresh`, which
`core.service.startup` hooks onto the runs), which rebuilds their texts and embeds only the changed ones
(`refresh_embeddings`). Erasure deletes the listener's vector at once, and a search only ever returns listeners the
current snapshot can show (never an erased one, whatever an index file still holds). The texts stored with the vectors
are sealed a write at a time (core.search.sealed_texts); erasure seals the others of its groups again and destroys the
groups' keys.
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
from pymongo import ReturnDocument, UpdateOne

from core.clock import utcnow
from core.config import active
from core.db import queue
from core.db.quirks import IN_CHUNK, by_seq
from core.listeners import finding, sealed_profiles, snapshot
from core.personal import originator_keys
from core.personal.registry import Store, by_listener, declare
from core.search import index as faiss_index
from core.search import lexical_store, progress, sealed_texts
from core.search.composed import listener_vectors, text_hash
from core.search.embeddings import Embedder, embedder
from core.search.host_files import station_path
from core.search.kept import LockPerStation
from core.search.models import EmbeddingCounter, ListenerEmbedding
from core.search.texts import listener_texts
from core.stations.companies import ensure_company

log = logging.getLogger(__name__)

EMBED_BATCH = 10_000
"""Listeners embedded at a time: enough to pay back the start of the model's worker processes (about 2 s against
some 35 s of embedding), and small enough that a station being embedded says how far it got, and so how long the
rest needs (core.search.progress), within a minute of starting."""
WRITE_BATCH = 1000  # and written at a time (SecantusDB answers a large $in slowly)
_indexes: dict[tuple[int, str], faiss_index.VectorIndex] = {}
_locks = LockPerStation()
EMBED_JOB = "embed"
FOLD_ABOVE = 5_000
"""Vectors a process keeps in its private tail beside the shared file before a new file is written (and mapped by
every process that catches up after): a tail is searched exactly beside the map, so a small one costs nothing."""


def refresh_embeddings(company_id: int, originators: list[str] | None = None) -> dict:
    """Embed the listeners (all, or these) whose text changed since their vector was made; {"embedded", "kept",
    "texts"} (texts: the distinct texts the model embedded)."""
    model, snap = embedder(), snapshot.current(company_id)
    rows = _rows(snap, originators)
    if not len(rows):
        return {"embedded": 0, "kept": 0, "texts": 0}
    texts = listener_texts(snap, rows, ensure_company(company_id))
    hashes = [text_hash(text) for text in texts]
    stored = _stored_hashes(company_id, model.name, snap.originators[rows].tolist())
    changed = [i for i, (o, h) in enumerate(zip(snap.originators[rows].tolist(), hashes)) if stored.get(o) != h]
    made: dict[str, np.ndarray] = {}  # by text hash: listeners alike in every trait share one embedding
    traits: dict[str, np.ndarray] = {}  # by phrase: every batch's listeners share their traits' vectors
    run = progress.begin(company_id, model.name, len(changed))
    try:
        for start in range(0, len(changed), EMBED_BATCH):
            part = changed[start:start + EMBED_BATCH]
            fresh = list(dict.fromkeys(hashes[i] for i in part if hashes[i] not in made))
            if fresh:
                text_of = {hashes[i]: texts[i] for i in part}
                made.update(zip(fresh, listener_vectors(model, [text_of[h] for h in fresh], traits)))
            for at in range(0, len(part), WRITE_BATCH):
                written = part[at:at + WRITE_BATCH]
                _write(company_id, model.name, [str(snap.originators[rows[i]]) for i in written],
                       [texts[i] for i in written], np.vstack([made[hashes[i]] for i in written]))
                progress.advance(company_id, model.name, run, len(written))
    finally:
        progress.end(company_id, model.name, run)
    return {"embedded": len(changed), "kept": len(rows) - len(changed), "texts": len(made)}


def schedule_refresh(company_id: int, originators: list[str] | None) -> None:
    """Queue the embedding of these listeners (None: all) for a worker, after the run that touched them (a live
    batch answers without waiting for its embeddings; core.service.worker does the work); nothing when AUTO_EMBED is
    off."""
    if not active().auto_embed:
        return
    keys = None if originators is None else sorted(originator_keys.keys_of(company_id, originators))  # job records
    queue.enqueue(EMBED_JOB, f"{EMBED_JOB}:{company_id}", {"company_id": company_id, "originators": keys})


def embed_job(payload: dict) -> dict:
    """What a worker does with an embedding job (its listeners named by their keys)."""
    company_id, keys = int(payload["company_id"]), payload.get("originators")
    return refresh_embeddings(company_id, None if keys is None else sealed_profiles.originators_of(company_id, keys))


def merged_listeners(waiting: dict, new: dict) -> dict:
    """Two embedding jobs of a station waiting together: every listener of both (None, everyone, wins)."""
    if waiting.get("originators") is None or new.get("originators") is None:
        return {**waiting, "originators": None}
    return {**waiting, "originators": sorted(set(waiting["originators"]) | set(new["originators"]))}


def _rows(snap: snapshot.Snapshot, originators: list[str] | None) -> np.ndarray:
    """The snapshot rows to embed: the listeners asked for (all when None), never an erased one."""
    if not len(snap):
        return np.empty(0, dtype=np.int64)
    wanted = np.ones(len(snap), dtype=bool) if originators is None else np.isin(snap.originators, originators)
    if "erased" in snap.cols:
        wanted &= ~snap.cols["erased"]
    return np.flatnonzero(wanted)


def _stored_hashes(company_id: int, model: str, originators: list[str]) -> dict[str, str]:
    """The text hash of each listener's stored vector: looked up in chunks of IN_CHUNK (core.db.quirks: a large
    `$in` is slow on SecantusDB), or read whole for many."""
    collection, fields = ListenerEmbedding._get_collection(), {"_id": 0, "originator": 1, "text_hash": 1}
    query, forms = {"company_id": company_id, "model": model}, finding.lookup(company_id, originators)
    if len(originators) >= 5000:
        found = collection.find(query, fields)
    else:
        wanted = list(forms)
        found = (doc for start in range(0, len(wanted), IN_CHUNK)
                 for doc in collection.find({**query, "originator": {"$in": wanted[start:start + IN_CHUNK]}}, fields))
    return {forms[doc["originator"]]: doc["text_hash"] for doc in found if doc["originator"] in forms}


def _write(company_id: int, model: str, originators: list[str], texts: list[str], vectors: np.ndarray) -> None:
    """Store vectors with the texts they were made from (the lexical index's documents) under fresh `seq` numbers
    (one atomic $inc hands out the block)."""
    last = _seqs(company_id, model, len(originators))
    now, first = utcnow(), last - len(originators) + 1
    sealed = sealed_texts.sealed(company_id, texts)
    keys = originator_keys.keys_of(company_id, originators)  # the listeners' keys: no number is stored
    ListenerEmbedding._get_collection().bulk_write([
        UpdateOne({"company_id": company_id, "model": model, "originator": key},
                  sealed_texts.stored(group, s, text_hash=text_hash(t), seq=first + i, updated_at=now,
                                      vector=np.asarray(v, dtype=np.float32).tobytes()), upsert=True)
        for i, (key, t, (group, s), v) in enumerate(zip(keys, texts, sealed, vectors))], ordered=False)
    _drop_erased(company_id, model, originators, sorted({group for group, _ in sealed}))


def _seqs(company_id: int, model: str, count: int) -> int:
    """Hand out `count` fresh `seq` numbers (one atomic $inc); the last of them."""
    return EmbeddingCounter._get_collection().find_one_and_update(
        {"company_id": company_id, "model": model},
        {"$inc": {"seq": count}, "$set": {"written_at": utcnow()}}, upsert=True,
        return_document=ReturnDocument.AFTER)["seq"]


def _drop_erased(company_id: int, model: str, originators: list[str], groups: list) -> None:
    """Delete what was just written (sealed in `groups`) for listeners erased meanwhile, and seal the others' texts
    again without them: a refresh that read a listener before its erasure may write its vector after the erasure
    deleted it (erasure renames the listener first, so whoever writes after it finds the name gone here)."""
    present = sealed_profiles.existing(company_id, originators)
    gone = [o for o in originators if o not in present]
    if gone:
        keys = originator_keys.keys_of(company_id, gone)
        ListenerEmbedding._get_collection().delete_many({"company_id": company_id, "model": model,
                                                        "originator": {"$in": keys}})
        sealed_texts.seal_again(company_id, groups, _write, WRITE_BATCH)


def erase_vectors(company_id: int, originator: str, _pseudonym: str = "") -> int:
    """Delete a listener's vectors (and the texts stored with them) from MongoDB and from this process's indexes (an
    erasure hook)."""
    forms = list(finding.lookup(company_id, [originator]))
    keys = [{"company_id": company_id, "model": doc["model"], "originator": {"$in": forms}}  # the unique key
            for doc in EmbeddingCounter._get_collection().find({"company_id": company_id}, {"model": 1})]
    groups = sealed_texts.groups_of(keys)
    deleted = sum(ListenerEmbedding._get_collection().delete_many(key).deleted_count for key in keys)
    sealed_texts.seal_again(company_id, groups, _write, WRITE_BATCH)
    models = [model for company, model in list(_indexes) if company == company_id]
    for model in models:
        with _locks((company_id, model)):
            found = _indexes.get((company_id, model))
            if found is not None:
                found.remove([originator])
                lexical_store.erased(company_id, model, originator)
                _indexes[(company_id, model)] = _rewritten(company_id, model, found)
    _delete_other_files(company_id, set(models))
    return deleted


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


def status() -> dict:
    """What /health says of the vector store, over every station (no station's own figures: /health needs no key):
    the model, the vectors stored and those this process has indexed, the index files on disk, the last write."""
    model = embedder()
    counters = list(EmbeddingCounter._get_collection().find({"model": model.name}, {"_id": 0, "written_at": 1}))
    last = max((c["written_at"] for c in counters if c.get("written_at")), default=None)
    folder = Path(active().data_dir) / "vectors"
    indexed = sum(len(found) for (_, name), found in list(_indexes.items()) if name == model.name)
    return {"model": model.name, "dim": model.dim, "stations": len(counters),
            "stored": ListenerEmbedding._get_collection().count_documents({"model": model.name}),
            "indexed_here": indexed, "index_files": len(list(folder.glob("*.json"))) if folder.exists() else 0,
            "last_embedded_at": last.isoformat() if last else None}


def _migrate_vectors(company_id: int) -> int:
    """Originators keyed and texts sealed, of vectors stored before either was."""
    return (originator_keys.key_plain(ListenerEmbedding._get_collection(), company_id)
            + sealed_texts.seal_plain(company_id, WRITE_BATCH))


STORE = declare(Store(
    "vector_index", "listener_embeddings", erase=by_listener(erase_vectors), migrate=_migrate_vectors,
    personal=("originator", "text", "sealed_text",
              "vector",  # plain: made of what the listener said and their traits, which a model can partly read back
              "text_hash"),  # plain: an unkeyed hash of the text, which confirms a guess of a short one
    free=("_id", "company_id", "model", "seq", "text_group", "text_groups", "updated_at")))
