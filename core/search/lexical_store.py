"""This process's lexical index of each station and model (core.search.lexical), kept over the same vector ids as
its FAISS index (core.search.process_indexes): the texts stored with the vectors, read from MongoDB by `seq` as the
vectors are (what each listener said is kept as read, so that results show it without reading their interactions again),
and let go of at an erasure (in the erasing process by its hook, in any other once its snapshot counts it). Its
builds are shared by the host's processes that hold the same documents (core.search.lexical_builds).
"""
from __future__ import annotations

import ctypes

from core.db import ahead
from core.db.quirks import by_seq
from core.listeners import sealed_profiles, snapshot
from core.search import lexical_copies, sealed_texts
from core.search.embeddings import Embedder, embedder
from core.search.host_files import station_path
from core.search.index import VectorIndex
from core.search.kept import LockPerStation
from core.search.lexical import LexicalIndex
from core.search.models import ListenerEmbedding
from core.search.texts import lexical_document, said_in

WORTH_FROM = lexical_copies.WORTH_FROM
PUT_EVERY = 5_000
"""Texts tokenised at a time: every token of 100,000 texts at once was a few hundred MB of Python strings, which the
process kept as its own memory after they were freed."""
_lexicals: dict[tuple[int, str], LexicalIndex] = {}
_locks = LockPerStation()


def current_lexical(company_id: int, index: VectorIndex, model: Embedder | None = None,
                    snap: snapshot.Snapshot | None = None) -> LexicalIndex:
    """This process's lexical index of the company over the same vector ids as `index` (current_index's): the
    texts stored with the vectors it holds, read from MongoDB by `seq` as the vectors are. `snap`: the station's
    current snapshot, when the caller has it (asking for it asks the database)."""
    model = model or embedder()
    snap = snapshot.current(company_id) if snap is None else snap
    key, lineage = (company_id, model.name), (index.made, _erasures(snap))
    with _locks(key):
        found = _lexicals.get(key)
        if found is not None and found.lineage[0] == index.made and found.lineage != lineage:
            found = _lexicals[key] = _without_erased(company_id, found, lineage)
        at_epoch = lexical_copies.epoch(company_id) if index.seq - _seq_of(found, lineage) >= WORTH_FROM else None
        if found is None or found.lineage != lineage:
            shared_at = station_path("lexical", company_id, model.name)
            found = _lexicals[key] = (at_epoch is not None and lexical_copies.opened(
                company_id, model.name, index, lineage, at_epoch, shared_at)) or LexicalIndex(lineage, shared_at)
        read = 0
        if found.seq < index.seq:
            stored = by_seq(ListenerEmbedding._get_collection(), {"company_id": company_id, "model": model.name},
                            found.seq, index.seq,
                            {"_id": 0, "originator": 1, "text": 1, "sealed_text": 1, "text_group": 1})
            for docs in ahead.batches(stored, PUT_EVERY):  # the next batch read while this one is tokenised
                _put(found, index, sealed_profiles.named(company_id, docs))
                read += len(docs)
            found.seq = index.seq
        if at_epoch is not None and read >= WORTH_FROM:
            lexical_copies.save(company_id, model.name, found, at_epoch)
    found.refresh()
    if read >= PUT_EVERY:
        _freed_to_the_system()
    return found


def _seq_of(found: LexicalIndex | None, lineage: tuple) -> int:
    """Where reading would start: the index's seq when it is kept, else nothing read yet."""
    return found.seq if found is not None and found.lineage == lineage else 0


def _freed_to_the_system() -> None:
    """Hand the heap freed by reading and tokenising many texts back to the system. glibc keeps it for the process
    otherwise: 40 MB of a worker's 100 at 100,000 listeners. Elsewhere than glibc, nothing to do."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _put(found: LexicalIndex, index: VectorIndex, docs: list[dict]) -> None:
    """Put these stored texts in at their listeners' vector ids, and empty the ids they held before."""
    ids, texts, said, dead = [], [], [], []
    for doc, text in zip(docs, sealed_texts.opened(docs)):
        at, was = index.current.get(doc["originator"]), found.where.get(doc["originator"])
        if was is not None and was != at:
            dead.append(was)
        if at is not None:
            ids.append(at)
            texts.append(lexical_document(text))
            said.append(said_in(text))
            found.where[doc["originator"]] = at
    found.put(ids, texts, dead, said)


def _without_erased(company_id: int, found: LexicalIndex, lineage: tuple) -> LexicalIndex:
    """The lexical index without the listeners erased since (by another process: its hook never ran here), who are
    those it holds that the snapshot no longer names (erasure renames them)."""
    named = set(snapshot.current(company_id).originators.tolist())
    gone = [at for originator, at in found.where.items() if originator not in named]
    if not gone:
        found.lineage = lineage
        return found
    return found.without(gone, lineage)


def _erasures(snap: snapshot.Snapshot) -> int:
    """How many of the station's listeners are erased: the snapshot is how a process hears of an erasure made by
    another, whose listener its lexical index must then let go of (`_without_erased`)."""
    return int(snap.cols["erased"].sum()) if len(snap) and "erased" in snap.cols else 0


def erased(company_id: int, model: str, originator: str) -> None:
    """Let go of an erased listener's text and of the terms only they used (the vector store's erasure hook)."""
    with _locks((company_id, model)):
        found = _lexicals.get((company_id, model))
        was = found.where.get(originator) if found is not None else None
        if was is not None:
            _lexicals[(company_id, model)] = found.without([was], found.lineage)


def caught_up_to(company_id: int, model: str) -> int | None:
    """The vectors' seq this process's lexical index of the station has read up to; None when it holds none."""
    found = _lexicals.get((company_id, model))
    return found.seq if found is not None else None


def forget() -> None:
    """Drop this process's lexical indexes (with its vector indexes)."""
    _lexicals.clear()
