"""BM25 builds shared by the processes of a host. A build and the token ids it was made from are written under
DATA_DIR/lexical, in a folder named by a digest of those token ids. Every process that holds the same documents
maps the same files read-only, so the host keeps one copy of a build in its page cache and makes it once.

Named by content, a folder is never stale. A process whose documents differ, because it is a step behind or ahead,
gets a folder of its own. Nothing in these files names anyone: they hold term ids, document ids and scores, never
the words (the vocabulary stays in each process's memory) and never a listener's number.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import uuid
from pathlib import Path

import bm25s
import numpy as np

from core.clock import utcnow

KEEP_OTHERS_S = 600
"""A station's other folders are kept this long after they were written, so that a process a step behind does not
delete the build the others have just made (it is removed by the next save after that)."""


def digest(docs: list[np.ndarray], terms: int, params: tuple) -> str:
    """What a build depends on: the token ids of every document, the number of terms and BM25's parameters."""
    lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
    hashed = hashlib.sha256(json.dumps([terms, len(docs), *params, bm25s.__version__]).encode())
    hashed.update(lengths.tobytes())
    for doc in docs:
        hashed.update(np.ascontiguousarray(doc, dtype=np.int32).tobytes())
    return hashed.hexdigest()[:32]


def folder_of(place: Path, key: str) -> Path:
    return place.with_name(f"{place.name}-{key}")


def load(folder: Path, docs: int, terms: int, params: tuple) -> tuple | None:
    """The build in `folder` as memory maps: a retriever, the terms' idf, and the documents' token ids, flat, with
    where each document begins. None when the folder is missing or is not whole."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
        if meta.get("docs") != docs or meta.get("terms") != terms:
            return None
        retriever = bm25s.BM25.load(folder, mmap=True, load_vocab=False, show_progress=False)
        if (retriever.k1, retriever.b, retriever.method) != params:
            return None
        idf = np.load(folder / "idf.npy", mmap_mode="r")
        tokens = np.load(folder / "tokens.npy", mmap_mode="r")
        offsets = np.load(folder / "offsets.npy")
    except (OSError, ValueError, KeyError):
        return None
    if len(idf) != terms or len(offsets) != docs + 1 or offsets[-1] != len(tokens):
        return None
    return retriever, idf, tokens, offsets


def save(folder: Path, retriever: bm25s.BM25, idf: np.ndarray, docs: list[np.ndarray]) -> bool:
    """Write a build into a temporary folder, sync each file, then rename the folder into place. Readers therefore
    see a whole build or none. If another process put the same build there first, theirs is kept. False when the
    disk takes nothing."""
    temporary = folder.with_name(f"{folder.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
    arrays = {"idf": idf,
              "tokens": np.concatenate(docs).astype(np.int32) if docs else np.zeros(0, dtype=np.int32),
              "offsets": np.concatenate([[0], np.cumsum(lengths)])}
    try:
        temporary.mkdir(parents=True)
        retriever.vocab_dict = {}  # the words stay in memory: the build is queried by term id
        retriever.save(temporary, show_progress=False)
        for name, array in arrays.items():
            np.save(temporary / f"{name}.npy", array, allow_pickle=False)
        (temporary / "meta.json").write_text(json.dumps({"docs": len(docs), "terms": len(idf)}))
        for written in temporary.iterdir():
            _synced(written)
        os.rename(temporary, folder)
    except OSError:
        shutil.rmtree(temporary, ignore_errors=True)
        return folder.is_dir()
    prune(folder)
    return True


def _synced(path: Path) -> None:
    with open(path, "rb+") as written:
        os.fsync(written.fileno())


def prune(keep: Path) -> None:
    """Remove the station's other builds once they are older than KEEP_OTHERS_S. A process that maps one keeps
    reading it: an unlinked file lives on while it is mapped."""
    stem = keep.name.rsplit("-", 1)[0]
    now = utcnow().timestamp()  # against files' modification times
    for other in keep.parent.glob(f"{stem}-*"):
        if not re.fullmatch(r"[0-9a-f]{32}(\.\d+\.[0-9a-f]+\.tmp)?", other.name[len(stem) + 1:]):
            continue  # another model's, whose name begins with this one's
        try:
            old = now - other.stat().st_mtime > KEEP_OTHERS_S
        except OSError:
            continue
        if other != keep and old:
            shutil.rmtree(other, ignore_errors=True)
