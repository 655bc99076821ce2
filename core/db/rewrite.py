"""Rewriting the embedded database into fresh files: only live documents survive, and every byte that a deleted or
overwritten document, the oplog or the journal left behind goes with the old files.

A storage engine reuses freed space when it pleases and keeps an oplog and a journal of every write, so deleting a
document does not remove its bytes from disk. Copying the live documents into a new storage directory and deleting
the old one does. The server is stopped for the copy (requests answer 503 meanwhile), so no write can slip between
the copy and the swap; it comes back on its stable port, where every client reconnects by itself.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pymongo

from core.db import embedded

SKIPPED_DATABASES = ("admin", "config", "local")
COPY_BATCH = 1000


def rewrite_storage(data_dir: Path) -> dict:
    """Copy every live document of DATA_DIR's server into fresh storage and swap it in; returns what was copied."""
    data_dir = Path(data_dir).resolve()
    started = time.perf_counter()
    with embedded.locked(data_dir):
        embedded.stop_locked(data_dir)
        fresh = data_dir / f"{embedded.STORAGE}.new"
        shutil.rmtree(fresh, ignore_errors=True)
        try:
            copied = _copy(data_dir / embedded.STORAGE, fresh, data_dir / embedded.LOG)
        except Exception:
            shutil.rmtree(fresh, ignore_errors=True)
            embedded.start_locked(data_dir)  # the old files are untouched: carry on with them
            raise
        _swap(data_dir, fresh)
        embedded.start_locked(data_dir)
    return {**copied, "seconds": round(time.perf_counter() - started, 2)}


def _copy(source: Path, target: Path, log: Path) -> dict:
    """Every non-system database, collection, index and document of `source` into new storage at `target`."""
    reader = embedded.launch(source, embedded.free_port(), log)
    writer = embedded.launch(target, embedded.free_port(), log)
    try:
        with _client(reader) as old, _client(writer) as new:
            counts = {}
            for name in old.list_database_names():
                if name not in SKIPPED_DATABASES:
                    counts.update(_copy_database(old[name], new[name]))
            return {"collections": len(counts), "documents": sum(counts.values())}
    finally:
        embedded.terminate(reader.pid)
        embedded.terminate(writer.pid)


def _client(proc) -> pymongo.MongoClient:
    port = int(proc.args[proc.args.index("--port") + 1])
    return pymongo.MongoClient(embedded.uri_of_port(port), serverSelectionTimeoutMS=30_000)


def _copy_database(old, new) -> dict[str, int]:
    counts = {}
    for name in old.list_collection_names():
        if name.startswith("system."):
            continue
        source, target = old[name], new[name]
        new.create_collection(name)
        for index in source.list_indexes():
            spec = dict(index)
            keys = list(spec.pop("key").items())
            spec.pop("v", None)
            spec.pop("ns", None)
            if spec.get("name") != "_id_":
                target.create_index(keys, **spec)
        counts[f"{old.name}.{name}"] = _copy_documents(source, target)
        if target.estimated_document_count() != counts[f"{old.name}.{name}"]:
            raise RuntimeError(f"copy of {old.name}.{name} is incomplete")
    return counts


def _copy_documents(source, target) -> int:
    batch, copied = [], 0
    for doc in source.find({}, batch_size=COPY_BATCH):
        batch.append(doc)
        if len(batch) == COPY_BATCH:
            target.insert_many(batch, ordered=False)
            copied, batch = copied + len(batch), []
    if batch:
        target.insert_many(batch, ordered=False)
        copied += len(batch)
    return copied


def _swap(data_dir: Path, fresh: Path) -> None:
    """The fresh storage becomes the live one; the old files and the server log (which may quote what it saw) go."""
    live, old = data_dir / embedded.STORAGE, data_dir / f"{embedded.STORAGE}.old"
    shutil.rmtree(old, ignore_errors=True)
    live.rename(old)
    fresh.rename(live)
    shutil.rmtree(old)
    (data_dir / embedded.LOG).write_bytes(b"")
