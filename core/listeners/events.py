"""Interactions in their per-listener batches: packed on write, read back into flat numpy arrays.

A batch holds one listener's events of one import as parallel columns. Times, channels and timeslots are packed
little-endian binary (int64 epoch milliseconds, int16, int32 with -1 for "no show"): the embedded database pays per
BSON element, and reading 2M interactions as packed columns costs a quarter of reading them as arrays of dates.
Campaign types stay a readable list, idempotency keys a list of keyed hashes (core.personal.keyed); messages are
sealed (core.listeners.sealed_messages).

Interaction times have an accepted range (ingest.md), defined here once: the importer refuses a row outside it, and
every reader here leaves out a stored interaction outside it (a placeholder date such as 0001-01-01 or 9999-12-31
written before the range existed, or around the importer), so that no count, day number or date conversion of any
consumer ever meets one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
from bson import Binary, ObjectId

from core.clock import as_utc
from core.db.quirks import find_by_originator, insert_all, projection
from core.listeners import event_copies, finding, sealed_messages, sealed_profiles
from core.listeners.models import InteractionBatch
from core.personal import originator_keys
from core.personal.keyed import interaction_keys, is_keyed

FIELDS = {"_id": 0, "originator": 1, "times": 1, "channels": 1, "campaigns": 1, "timeslots": 1}
COPIED_FIELDS = {**FIELDS, "_id": 1}  # a whole station's read: copied by the time in each batch's id
HISTORY_FIELDS = {"_id": 0, "times": 1, "channels": 1, "campaigns": 1, "timeslots": 1, "messages": 1,
                  **sealed_messages.SEALED_FIELDS}
MESSAGE_FIELDS = {"_id": 0, "originator": 1, "times": 1, "messages": 1, **sealed_messages.SEALED_FIELDS}
ERASED_KEY = "erased:"  # an erased listener's keys, re-keyed by erasure (core.privacy.erasure)
TIME, CHANNEL, SLOT = event_copies.TIME, event_copies.CHANNEL, event_copies.SLOT
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
"""The earliest interaction time accepted: exports' placeholder dates (0001-01-01, 1899-12-31) fall before it."""
AHEAD = timedelta(days=1)
"""How far past the moment of import (or of reading) an interaction time is accepted: clocks of stations' platforms
run a little ahead, their placeholder dates (9999-12-31) far ahead."""
_EPOCH, _MILLISECOND = datetime(1970, 1, 1, tzinfo=UTC), timedelta(milliseconds=1)


def accepted_millis(now: datetime | None = None) -> tuple[int, int]:
    """(earliest, latest) interaction time accepted as of `now` (default: the clock), in epoch milliseconds, both
    included."""
    return (EARLIEST - _EPOCH) // _MILLISECOND, (as_utc(now) + AHEAD - _EPOCH) // _MILLISECOND


def in_accepted_range(ms: np.ndarray, now: datetime | None = None) -> np.ndarray:
    """Per interaction time (epoch milliseconds), whether it lies in the range accepted as of `now`."""
    earliest, latest = accepted_millis(now)
    return (ms >= earliest) & (ms <= latest)


@dataclass
class Events:
    """Every interaction of some listeners; `row` maps each interaction to its listener in `originators`."""

    originators: list[str]
    row: np.ndarray  # int32, index into originators
    ts: np.ndarray  # int64, epoch seconds UTC
    channel: np.ndarray  # int16
    campaign: np.ndarray  # int16, index into campaign_vocab
    campaign_vocab: list[str]
    timeslot: np.ndarray  # int32, -1 when the interaction had no show

    def __len__(self) -> int:
        return len(self.ts)


@dataclass
class History:
    """One listener's interactions with their messages, in the order they were stored (batch after batch)."""

    ms: np.ndarray  # int64, epoch milliseconds UTC
    channel: np.ndarray  # int16
    campaign: list[str]
    timeslot: np.ndarray  # int32, -1 when the interaction had no show
    message: list[str | None]  # None when none was sent, and for every interaction of an erased listener

    def __len__(self) -> int:
        return len(self.ms)


def batch_document(company_id: int, originator: str, import_id: str, times_ms, channels, campaigns, timeslots,
                   messages, keys) -> dict:
    """One InteractionBatch as stored: times in epoch milliseconds, timeslots None for no show."""
    slots = [-1 if s is None else s for s in timeslots]
    return {"company_id": company_id, "originator": originator, "import_id": import_id, "n": len(keys),
            "times": Binary(np.asarray(times_ms, dtype=TIME).tobytes()),
            "channels": Binary(np.asarray(channels, dtype=CHANNEL).tobytes()),
            "timeslots": Binary(np.asarray(slots, dtype=SLOT).tobytes()),
            "campaigns": list(campaigns), "messages": list(messages), "keys": list(keys)}


def write_batches(docs: list[dict], live: bool = False) -> None:
    """Insert batch documents made by `batch_document`, written together, each under its listener's key (the
    caller's documents keep the originator): their messages are sealed together (a live batch's few in the
    station's open group)."""
    with sealed_messages.sealed(docs, shared=live):
        insert_all(InteractionBatch._get_collection(), _keyed(docs))


def message_batches(company_id: int, originators: Iterable[str] | None) -> list[dict]:
    """The batch documents of some listeners (or of the company) with their times and messages, opened."""
    wanted, names = _wanted(company_id, originators)
    return sealed_messages.opened(_named(list(_batches(company_id, wanted, MESSAGE_FIELDS)), names))


def load_events(company_id: int, originators: Iterable[str] | None = None,
                progress: Callable[[int], None] | None = None, now: datetime | None = None,
                among: list[str] | None = None, keep_copy: bool = False) -> Events:
    """All interactions of the company (or of the given listeners) in the range accepted as of `now`, flattened;
    `among`: originators the caller has at hand, likely those of the company's keys (core.listeners.sealed_profiles
    .originators_of). The whole company's are read from its columnar copy and the batches since
    (core.listeners.event_copies); with `keep_copy` (a full run) what was read is copied for the next read."""
    wanted, names = _wanted(company_id, originators, among)
    if wanted is None:
        collection = InteractionBatch._get_collection()
        columns = event_copies.station_columns(
            company_id, lambda query: collection.find({"company_id": company_id, **query},
                                                      projection(COPIED_FIELDS), batch_size=2000),
            names, keep_copy, progress)
    else:
        columns = event_copies.columns_of(_batches(company_id, wanted, FIELDS), progress)
        columns.originators = names(columns.originators)
    return _events_of(columns, now)


def read_batches(company_id: int, originators: Iterable[str], with_keys: bool = False) -> list[dict]:
    """The batch documents of some listeners, with their idempotency keys when asked: a live batch reads them once,
    for its duplicate check and for profiling."""
    wanted, names = _wanted(company_id, originators)
    return _named(list(_batches(company_id, wanted, {**FIELDS, "keys": 1} if with_keys else FIELDS)), names)


def comparable_keys(company_id: int, keys: Iterable[str]) -> Iterable[str]:
    """Stored idempotency keys in the form a new row's takes (core.personal.keyed): as stored in a station keyed
    throughout, else keyed here where a batch stored before keys holds them plain (until `encrypt` keys them)."""
    return keys if finding.keyed(company_id) else interaction_keys(company_id, keys)


def key_plain_keys(company_id: int) -> int:
    """Key in place the idempotency keys of the station's batches stored before keys (an interaction id a CRM
    wrote with the number in it was kept as it came); how many batches. Resumable: a batch whose keys are all
    keyed is left alone."""
    collection, done = InteractionBatch._get_collection(), 0
    for batch in collection.find({"company_id": company_id}, {"keys": 1}):
        keys = batch.get("keys") or []
        if any(not is_keyed(key) and not key.startswith(ERASED_KEY) for key in keys):
            keyed_keys = [key if key.startswith(ERASED_KEY) else new
                          for key, new in zip(keys, interaction_keys(company_id, keys), strict=True)]
            done += collection.update_one({"_id": batch["_id"], "keys": keys},
                                          {"$set": {"keys": keyed_keys}}).modified_count
    return done


def _wanted(company_id: int, originators: Iterable[str] | None,
            among: list[str] | None = None) -> tuple[list[str] | None, Callable[[list[str]], list[str]]]:
    """What the batches of these listeners (None: of all the station's) are stored under, and how to name the
    listeners of the values found."""
    if originators is None:
        return None, lambda stored: sealed_profiles.originators_of(company_id, stored, among)
    forms = finding.lookup(company_id, originators)
    return list(forms), lambda stored: [forms[value] for value in stored]


def _batches(company_id: int, wanted: list[str] | None, fields: dict):
    """The batch documents of the company, or of the listeners stored under these values, as stored; many listeners
    spread over the station are looked up rather than read by index ranges."""
    return find_by_originator(InteractionBatch._get_collection(), company_id, wanted, fields,
                              population=lambda: finding.station_keys(company_id))


def _named(docs: list[dict], names: Callable[[list[str]], list[str]]) -> list[dict]:
    """These batch documents with their listener's originator in place of the value stored."""
    for doc, originator in zip(docs, names([doc["originator"] for doc in docs]), strict=True):
        doc["originator"] = originator
    return docs


def _keyed(docs: list[dict]) -> list[dict]:
    """Copies of these batch documents under their listeners' keys, with the `_id` they share with the originals
    (by which messages lost to an erasure meanwhile are sealed again)."""
    keys: dict[tuple[int, str], str] = {}
    for company_id in {doc["company_id"] for doc in docs}:
        mine = sorted({doc["originator"] for doc in docs if doc["company_id"] == company_id})
        keys.update(zip(((company_id, o) for o in mine), originator_keys.keys_of(company_id, mine), strict=True))
    for doc in docs:
        doc.setdefault("_id", ObjectId())
    return [{**doc, "originator": keys[doc["company_id"], doc["originator"]]} for doc in docs]


def events_of(docs: Iterable[dict], progress: Callable[[int], None] | None = None,
              now: datetime | None = None) -> Events:
    """The interactions of these batch documents (as read, or as about to be written) in the range accepted as of
    `now` (default: the clock), flattened; a run as of `now` still leaves out those after it (segments.md)."""
    return _events_of(event_copies.columns_of(docs, progress), now)


def listener_history(company_id: int, originator: str, now: datetime | None = None) -> History:
    """Every interaction of one listener in the range accepted as of `now` (default: the clock), with its message,
    read from that listener's batches alone (by the (company_id, originator) index), so that one listener's page
    never costs a read of the whole station."""
    docs = sealed_messages.opened(list(InteractionBatch._get_collection().find(
        finding.matching(company_id, [originator]), projection(HISTORY_FIELDS))))
    messages: list[str | None] = []
    for doc in docs:
        n = len(doc["campaigns"])
        messages.extend((list(doc.get("messages") or []) + [None] * n)[:n])
    ms = event_copies.unpack([d["times"] for d in docs], TIME, np.int64)
    keep = in_accepted_range(ms, now)
    return History(ms=ms[keep], channel=event_copies.unpack([d["channels"] for d in docs], CHANNEL, np.int16)[keep],
                   campaign=_compress([str(c) for d in docs for c in d["campaigns"]], keep),
                   timeslot=event_copies.unpack([d["timeslots"] for d in docs], SLOT, np.int32)[keep],
                   message=_compress(messages, keep))


def timed_messages(doc: dict, now: datetime | None = None) -> list[tuple[int, str]]:
    """(epoch milliseconds, message) of each interaction of a batch document that has a message, in the range
    accepted as of `now` (default: the clock)."""
    ms = np.frombuffer(doc["times"], dtype=TIME)
    keep = in_accepted_range(ms, now)
    return [(int(ms[i]), message) for i, message in enumerate(doc.get("messages") or [])
            if message and i < len(ms) and keep[i]]


def _compress(values: list, keep: np.ndarray) -> list:
    """The values whose interaction is kept."""
    return [value for value, kept in zip(values, keep.tolist()) if kept]


def _events_of(columns: event_copies.Columns, now: datetime | None) -> Events:
    """Events of the columns, those outside the accepted range left out (their listeners stay, with fewer
    interactions or none), so that the campaign vocabulary holds only the types of the interactions kept."""
    keep = in_accepted_range(columns.times, now)
    used, codes = np.unique(columns.campaigns[keep], return_inverse=True)
    return Events(originators=list(columns.originators), row=np.repeat(columns.owner, columns.counts)[keep],
                  ts=columns.times[keep] // 1000, channel=columns.channels[keep],
                  campaign=np.asarray(codes, dtype=np.int16).reshape(-1),
                  campaign_vocab=[columns.vocab[i] for i in used.tolist()], timeslot=columns.timeslots[keep])
