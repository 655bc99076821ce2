"""The vector store: embeddings in MongoDB (the source of truth), written under `seq` numbers by which each
process's FAISS indexes (core.search.process_indexes) are brought up to date before every search.

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
from core.db.quirks import IN_CHUNK
from core.listeners import finding, sealed_profiles, snapshot
from core.personal import originator_keys
from core.personal.registry import Store, by_listener, declare
from core.search import process_indexes, progress, sealed_texts
from core.search.composed import listener_vectors, text_hash
from core.search.embeddings import embedder
from core.search.models import EmbeddingCounter, ListenerEmbedding
from core.search.texts import listener_texts
from core.stations.companies import ensure_company

log = logging.getLogger(__name__)

EMBED_BATCH = 10_000
"""Listeners embedded at a time: enough to pay back the start of the model's worker processes (about 2 s against
some 35 s of embedding), and small enough that a station being embedded says how far it got, and so how long the
rest needs (core.search.progress), within a minute of starting."""
WRITE_BATCH = 1000  # and written at a time (SecantusDB answers a large $in slowly)
EMBED_JOB = "embed"


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
    process_indexes.forget_listener(company_id, originator)
    return deleted


def status() -> dict:
    """What /health says of the vector store, over every station (no station's own figures: /health needs no key):
    the model, the vectors stored and those this process has indexed, the index files on disk, the last write."""
    model = embedder()
    counters = list(EmbeddingCounter._get_collection().find({"model": model.name}, {"_id": 0, "written_at": 1}))
    last = max((c["written_at"] for c in counters if c.get("written_at")), default=None)
    folder = Path(active().data_dir) / "vectors"
    indexed = process_indexes.indexed(model.name)
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
