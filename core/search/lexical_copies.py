"""A station's lexical index as one sealed copy (core.listeners.station_copies), so that a process starting on a large
station opens a file rather than reading and tokenising every stored text: at 100,000 listeners that was 26 s of a
web host's start (bench/README.md#cold-start).

The copy holds, per listener, their token ids and what they said, with the terms those ids name, as of the
embeddings' `seq` it was read up to; the reader catches up from there by `seq` as from any other point. Vector ids
are a process's own, so a listener's row is laid at the id the reading process's index gives them, and rows of
listeners it does not hold are dropped. Words and texts are personal: the copy is sealed under a key of its own, and
the station's next erasure destroys it (`station_copies.forget`). A process that read at least WORTH_FROM texts
writes the copy again.
"""
from __future__ import annotations

import numpy as np

from core.clock import utcnow
from core.listeners import snapshot_files, station_copies
from core.search.index import VectorIndex
from core.search.lexical import Docs, LexicalIndex

WORTH_FROM = station_copies.WORTH_FROM


def kind_of(model: str) -> str:
    return f"lexical:{model}"


def epoch(company_id: int) -> int:
    """The station's epoch, read before its texts are: a copy of texts read across an erasure is never kept."""
    return station_copies.epoch(company_id)


def opened(company_id: int, model: str, index: VectorIndex, lineage: tuple, at_epoch: int,
           shared_at=None) -> LexicalIndex | None:
    """The station's lexical index from its copy, laid on `index`'s vector ids; None without a copy at this epoch,
    or with one ahead of the index (its texts would be newer than the vectors searched beside them)."""
    copy = station_copies.current(company_id, kind_of(model), at_epoch)
    if copy is None:
        return None
    header, stream = snapshot_files.parts_of(copy[0])
    if header["seq"] > index.seq:
        return None
    arrays = np.load(stream)
    originators = arrays["originators"].tolist()
    ids = np.fromiter((index.current.get(o, -1) for o in originators), dtype=np.int64, count=len(originators))
    found = LexicalIndex(lineage, shared_at)
    found.seq, found.terms = header["seq"], {term: n for n, term in enumerate(header["terms"])}
    held = np.flatnonzero(ids >= 0)
    found.where = dict(zip((originators[k] for k in held.tolist()), ids[held].tolist()))
    found.docs = _laid(arrays["flat"], arrays["offsets"], held, ids, len(index.owner))
    found.said = _said(arrays["said"], arrays["said_offsets"], held, ids, len(index.owner))
    found.changed = True
    return found


def save(company_id: int, model: str, found: LexicalIndex, at_epoch: int) -> None:
    """Copy the index as it is now (its rows by listener, not by this process's ids)."""
    where = sorted(found.where.items(), key=lambda item: item[1])
    docs = [found.docs[at] for _, at in where]
    said = [found.said[at].encode() if at < len(found.said) else b"" for _, at in where]
    arrays = {"originators": np.array([o for o, _ in where], dtype=str),
              "flat": np.concatenate(docs).astype(np.int32) if docs else np.zeros(0, dtype=np.int32),
              "offsets": _offsets([len(d) for d in docs]),
              "said": np.frombuffer(b"".join(said), dtype=np.uint8), "said_offsets": _offsets([len(s) for s in said])}
    blob = snapshot_files.blob_of({"seq": found.seq, "terms": list(found.terms)}, arrays)
    station_copies.save(company_id, kind_of(model), blob, utcnow(), at_epoch)


def _offsets(lengths: list[int]) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)


def _laid(flat: np.ndarray, offsets: np.ndarray, rows: np.ndarray, ids: np.ndarray, size: int) -> Docs:
    """The rows' token ids as one flat base in vector-id order (ids no row holds are empty)."""
    lengths = np.zeros(size, dtype=np.int64)
    lengths[ids[rows]] = offsets[rows + 1] - offsets[rows]
    order = rows[np.argsort(ids[rows], kind="stable")]
    taken = offsets[order + 1] - offsets[order]
    starts = np.repeat(offsets[order] - np.concatenate([[0], np.cumsum(taken)[:-1]]), taken)
    laid = flat[starts + np.arange(int(taken.sum()))] if len(starts) else np.zeros(0, dtype=np.int32)
    return Docs(laid.astype(np.int32), np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64))


def _said(said: np.ndarray, offsets: np.ndarray, rows: np.ndarray, ids: np.ndarray, size: int) -> list[str]:
    out, raw = [""] * size, said.tobytes()
    for row, at in zip(rows.tolist(), ids[rows].tolist()):
        out[at] = raw[offsets[row]:offsets[row + 1]].decode()
    return out
