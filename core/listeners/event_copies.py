"""A station's interactions as one columnar copy (core.listeners.station_copies): what a whole-station read (a full
run, the churn backtest, the history rebuild, a bound search over most of a station) takes with the batches written
since, instead of every batch document. Batches are appended, never changed but by erasure and `encrypt`, so the
batches since are those whose `_id` is younger than the copy's read (less the margin). The embedded database pays
per document: 100,000 batches of 2M interactions take about 23 s to read, their copy about 2.5 s
(bench/README.md#copies-of-a-station).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from core.clock import utcnow
from core.listeners import snapshot_files, station_copies

KIND = "events"
TIME, CHANNEL, SLOT = np.dtype("<i8"), np.dtype("<i2"), np.dtype("<i4")
"""How a batch packs its times, channels and timeslots (core.listeners.events)."""


@dataclass
class Columns:
    """Batches of interactions as flat columns; batch b owns `counts[b]` consecutive interactions and belongs to
    `originators[owner[b]]` (as stored, keyed or a pseudonym, until `station_columns` names them)."""

    originators: list[str]
    owner: np.ndarray  # int32 per batch
    counts: np.ndarray  # int64 per batch
    made: np.ndarray  # int64 per batch: the seconds in its `_id`
    times: np.ndarray  # int64 per interaction, epoch milliseconds
    channels: np.ndarray  # int16
    timeslots: np.ndarray  # int32, -1 for no show
    campaigns: np.ndarray  # int16, into vocab
    vocab: list[str]  # sorted

    @property
    def batches(self) -> int:
        return len(self.owner)


def columns_of(docs: Iterable[dict], progress: Callable[[int], None] | None = None) -> Columns:
    """The columns of batch documents as stored (with `_id` when they are to be copied)."""
    index: dict[str, int] = {}
    owner, counts, made, times, channels, timeslots, campaigns = [], [], [], [], [], [], []
    for n, doc in enumerate(docs, 1):
        owner.append(index.setdefault(doc["originator"], len(index)))
        counts.append(len(doc["campaigns"]))
        made.append(int(doc["_id"].generation_time.timestamp()) if "_id" in doc else 0)
        times.append(doc["times"])
        channels.append(doc["channels"])
        timeslots.append(doc["timeslots"])
        campaigns.extend(doc["campaigns"])
        if progress and n % 5000 == 0:
            progress(5000)
    names = np.array(campaigns, dtype=object).astype(str) if campaigns else np.zeros(0, dtype=str)
    vocab, codes = np.unique(names, return_inverse=True) if len(names) else ([], np.zeros(0, dtype=np.int64))
    return Columns(list(index), np.asarray(owner, dtype=np.int32), np.asarray(counts, dtype=np.int64),
                   np.asarray(made, dtype=np.int64), unpack(times, TIME, np.int64),
                   unpack(channels, CHANNEL, np.int16), unpack(timeslots, SLOT, np.int32),
                   np.asarray(codes, dtype=np.int16), [str(v) for v in vocab])


def station_columns(company_id: int, read: Callable[[dict], Iterable[dict]], named: Named, keep: bool = False,
                    progress: Callable[[int], None] | None = None) -> Columns:
    """Every batch of the station, its listeners named: its copy and the batches since, or every batch when it has
    none. `read(query)` gives the station's batch documents matching `query` (with their `_id`); `named(stored)` the
    listeners of values as stored (core.listeners.sealed_profiles.originators_of). The copy keeps them named, so a
    read names only the batches since and what the copy holds still as stored (a key whose listener was not found):
    2.8 s of a full run's read at a million listeners otherwise. With `keep` (a full run, under the station's lease)
    what was read is copied for the next read, unless no batch was read beside the copy or the station is too small
    for a copy to be worth it."""
    began, epoch = utcnow(), station_copies.epoch(company_id)
    copy = station_copies.current(company_id, KIND, epoch)
    renamed = False  # the copy held listeners as stored that are named now (one an earlier release made)
    if copy is None:
        found = recent = _named(columns_of(read({}), progress), named)
    else:
        older, copied_at = _unpacked(copy[0]), copy[1]
        as_copied = older.originators
        renamed = _named(older, named).originators != as_copied
        since = station_copies.since(copied_at)
        recent = _named(columns_of(read({"_id": {"$gte": since}})), named)
        found = joined(older_than(older, int(since.generation_time.timestamp())), recent)
    # anything read from the collection is copied again, under a later read: a copy made within MARGIN of its
    # batches (a run minutes after an import) would otherwise leave every later read taking them all once more
    if keep and (recent.batches or renamed) and station_copies.worth_copying(found.batches):
        station_copies.save(company_id, KIND, _packed(found), began, epoch)
    return found


Named = Callable[[list[str]], list[str]]


def _named(columns: Columns, named: Named) -> Columns:
    """The columns with their listeners named; of values named already, only those still as stored are looked up."""
    columns.originators = named(columns.originators)
    return columns


def copied(company_id: int) -> tuple[Columns, object] | None:
    """The station's copy as stored and when its read began (None: none at the station's epoch)."""
    copy = station_copies.current(company_id, KIND, station_copies.epoch(company_id))
    return None if copy is None else (_unpacked(copy[0]), copy[1])


def older_than(columns: Columns, seconds: int) -> Columns:
    """The batches made before `seconds` (epoch), every column cut to them."""
    keep = columns.made < seconds
    events = np.repeat(keep, columns.counts)
    return Columns(columns.originators, columns.owner[keep], columns.counts[keep], columns.made[keep],
                   columns.times[events], columns.channels[events], columns.timeslots[events],
                   columns.campaigns[events], columns.vocab)


def joined(first: Columns, second: Columns) -> Columns:
    """The batches of both, their listeners and campaign types named once."""
    index = {originator: i for i, originator in enumerate(first.originators)}
    for originator in second.originators:
        index.setdefault(originator, len(index))
    moved = np.asarray([index[o] for o in second.originators], dtype=np.int32)
    vocab = sorted(set(first.vocab) | set(second.vocab))
    return Columns(list(index), np.concatenate([first.owner, moved[second.owner]]).astype(np.int32),
                   np.concatenate([first.counts, second.counts]), np.concatenate([first.made, second.made]),
                   np.concatenate([first.times, second.times]), np.concatenate([first.channels, second.channels]),
                   np.concatenate([first.timeslots, second.timeslots]),
                   np.concatenate([_recoded(first, vocab), _recoded(second, vocab)]).astype(np.int16), vocab)


def _packed(columns: Columns) -> bytes:
    return snapshot_files.blob_of({"originators": columns.originators, "vocab": columns.vocab}, {
        "owner": columns.owner, "counts": columns.counts, "made": columns.made, "times": columns.times,
        "channels": columns.channels, "timeslots": columns.timeslots, "campaigns": columns.campaigns})


def _unpacked(blob: bytes) -> Columns:
    names, stream = snapshot_files.parts_of(blob)
    with np.load(stream, allow_pickle=False) as arrays:
        return Columns(list(names["originators"]), arrays["owner"], arrays["counts"], arrays["made"],
                       arrays["times"], arrays["channels"], arrays["timeslots"], arrays["campaigns"],
                       list(names["vocab"]))


def _recoded(columns: Columns, vocab: list[str]) -> np.ndarray:
    """The campaign codes of `columns` as indexes into `vocab` (which holds every type of theirs)."""
    if not columns.vocab:
        return np.zeros(len(columns.campaigns), dtype=np.int16)
    return np.searchsorted(np.asarray(vocab), np.asarray(columns.vocab))[columns.campaigns]


def unpack(chunks: list[bytes], packed: np.dtype, native) -> np.ndarray:
    """Packed little-endian columns of several batches as one array in the machine's own order."""
    return np.frombuffer(b"".join(chunks), dtype=packed).astype(native)
