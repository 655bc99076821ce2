"""A station's listeners as one columnar copy (core.listeners.station_copies): what a full run reads with the
listeners written since, instead of every listener document, its envelope and its fields turned into columns again.
Every write of a listener gives it a new `profile_version` (core.listeners.sealed_writes; erasure too), so the
listeners written since are those whose version is younger than the copy's read (less the margin), and each
replaces its older self in the copy by its `_id`.

The copy holds the listeners' declared columns as the run reads them (core.listeners.declared: personal), with each
listener's `_id`, sealed whole under the copy's own key; the station's next erasure destroys it
(`station_copies.forget`). A copy in another FORMAT (documents, as an earlier release kept, or columns of other
fields) is read as none and replaced by the next full run.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from core.clock import utcnow
from core.listeners import snapshot_files, station_copies
from core.listeners.fields import CATEGORICAL, DECLARED_NAMES, INFERRED, INFERRED_SINGLE
from core.listeners.snapshot_rows import Snapshot, concat

KIND = "listeners"
FORMAT = "declared columns of " + ",".join((*DECLARED_NAMES, *INFERRED))
"""A copy made before a field was declared or inferred has no column for it: it is read as none."""
ID = "_id"
"""The column of each listener's document `_id` (12 bytes), by which a listener written since replaces its row."""

CODED = (*CATEGORICAL, *INFERRED_SINGLE)
SORTED = ("tags", "inferred_interests")
"""How core.listeners.declared codes a read of every listener: a value of a coded field in the order of its first
listener, the values of a listed one sorted; neither holds a value no listener has."""

Read = Callable[[dict], Snapshot]


def station_declared(company_id: int, read: Read, keep: bool = False) -> Snapshot:
    """Every listener's declared columns (with ID): the copy's with the listeners written since in place of their
    older selves, or every listener's when there is no copy. `read(query)` gives the columns of the station's
    listeners matching `query`, with ID. With `keep` (a full run, under the station's lease) what was read is
    copied, when the station is large enough for a copy to be worth it."""
    began, epoch = utcnow(), station_copies.epoch(company_id)
    copy = _copied(company_id, epoch)
    if copy is None:
        found = changed = read({})
    else:
        older, copied_at = copy
        changed = read({"profile_version": {"$gte": station_copies.since(copied_at)}})
        found = _coded_as_read(concat([older.take(~np.isin(older.cols[ID], changed.cols[ID])), changed]), older)
    if keep and (copy is None or len(changed)) and station_copies.worth_copying(len(found)):
        header = {"format": FORMAT, "vocab": {name: list(values) for name, values in found.vocab.items()}}
        station_copies.save(company_id, KIND, snapshot_files.blob_of(header, found.cols), began, epoch)
    return found


def _copied(company_id: int, epoch: int) -> tuple[Snapshot, object] | None:
    """The station's copy and when its read began; None without one, or with one in another format."""
    copy = station_copies.current(company_id, KIND, epoch)
    if copy is None:
        return None
    header, stream = snapshot_files.parts_of(copy[0])
    if header.get("format") != FORMAT:
        return None
    with np.load(stream, allow_pickle=False) as arrays:
        cols = {name: arrays[name] for name in arrays.files}
    return Snapshot(company_id, cols, header["vocab"]), copy[1]


def _coded_as_read(found: Snapshot, like: Snapshot) -> Snapshot:
    """The joined rows coded as a read of every listener codes them (CODED, SORTED), so that a run reads the same
    columns from the copy as from the documents alone, and no value a listener dropped stays in a vocabulary."""
    if not len(found):
        return Snapshot(like.company_id, {name: column[:0] for name, column in like.cols.items()}, like.vocab)
    cols, vocab = dict(found.cols), dict(found.vocab)
    for name in CODED:
        vocab[name], cols[name] = _in_first_seen_order(cols[name], vocab[name])
    for name in SORTED:
        vocab[name], cols[name] = _sorted_members(cols[name], vocab[name])
    return Snapshot(found.company_id, cols, vocab, found.meta)


def _in_first_seen_order(codes: np.ndarray, vocab: list) -> tuple[list, np.ndarray]:
    present = codes >= 0
    used, first = np.unique(codes[present], return_index=True)
    order = used[np.argsort(first, kind="stable")]
    table = np.full(len(vocab) + 1, -1, dtype=codes.dtype)  # the last entry answers an absent value (-1)
    table[order] = np.arange(len(order))
    return [vocab[i] for i in order], table[codes]


def _sorted_members(matrix: np.ndarray, vocab: list) -> tuple[list, np.ndarray]:
    order = sorted(np.flatnonzero(matrix.any(axis=0)).tolist(), key=lambda i: vocab[i])
    return [vocab[i] for i in order], matrix[:, order]
