"""The interactions importer: events grouped per listener, checked against stored keys, written in bulk.

One InteractionBatch per listener per import (see core.listeners.events). Listener creation, the writes of each window
of the file and their inserts run on threads of their own while the main thread reads and groups, so that the database
and the parser work at the same time.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from core.clock import utcnow
from core.db.quirks import RANGE_CHUNK, find_by_originator, looked_up, projection
from core.ingest.kinds import row_parser
from core.ingest.rows import InteractionRow
from core.ingest.suppressed import SuppressedNumbers
from core.ingest.tally import Companies, Tally
from core.listeners import finding, sealed_profiles, sealed_writes
from core.listeners.events import batch_document, comparable_keys, write_batches
from core.listeners.finding import PLAIN_BYTES
from core.listeners.models import InteractionBatch
from core.personal.originator_keys import keys_of
from core.segmentation.overview import latest_run
from core.stations.companies import ensure_company

BATCH_EVENTS = 2000  # events per InteractionBatch document
INSERT_DOCS = 1000  # documents per insert_many
FLUSH_EVENTS = 1_000_000  # events grouped in memory before they are written
SCAN_SHARE = 8  # look-ups cost about eight times a read of the station's keys, per listener


def import_interactions(rows, tally: Tally, companies: Companies, report_id: str,
                        writes: bool = True) -> dict[int, set]:
    """Group the file's events per listener, then write one InteractionBatch per listener of what is new.

    Every FLUSH_EVENTS events the groups (a window) are handed to WindowWrites and the next window is read while
    they are written, so memory stays bounded for any file size (a listener whose events span a flush gets one batch
    per part; the stored-key check keeps re-imports idempotent). Without `writes` (a dry run) the same checks run
    against what is stored and nothing is written; an event that repeats one of an earlier flush is then counted as
    new, since that flush stored nothing.
    """
    groups: dict[tuple[int, str], PendingEvents] = {}
    suppressed, grouped = SuppressedNumbers(tally, companies), 0
    with (ThreadPoolExecutor(max_workers=1) as worker, ThreadPoolExecutor(max_workers=1) as writer,
          ThreadPoolExecutor(max_workers=1) as inserter):  # inserts wait behind no creation of the next window
        listeners = ListenerCreator(worker, writes)
        windows = WindowWrites(listeners, writer, lambda window, existed, known: _write_interactions(
            window, existed, tally, inserter, report_id, writes, known))
        for company_id, event in tally.valid(rows, row_parser("interactions", companies)):
            who = (company_id, event.originator)
            group = groups.get(who)
            if group is None and suppressed.drops(company_id, event.originator):
                continue
            if group is None:
                group = groups[who] = PendingEvents()
                listeners.add(company_id, event.originator)
                tally.companies.add(company_id)
            group.add(event)
            grouped += 1
            if grouped == FLUSH_EVENTS:
                windows.flush(groups)
                groups, grouped = {}, 0
        windows.flush(groups)
        windows.finish()
    touched, created = windows.touched, windows.created
    tally.listeners_new += sum(len(originators) for originators in created.values())
    tally.listeners_updated += sum(len(touched[company_id] - created[company_id]) for company_id in touched)
    return {company_id: originators for company_id, originators in touched.items() if originators}


class WindowWrites:
    """The writes of the file's windows, on a thread of their own while the main thread reads the next window, so
    that the database stores one window while this process parses the next (at 100k listeners the two took about
    as long). One window is written at a time, in file order: a window's stored-key check sees what the windows
    before it stored, and at most two windows are held in memory."""

    def __init__(self, listeners: ListenerCreator, writer: ThreadPoolExecutor, write: Callable):
        self._listeners, self._writer, self._write, self._pending = listeners, writer, write, None
        self.touched: dict[int, set] = defaultdict(set)
        self.created: dict[int, set] = defaultdict(set)

    def flush(self, groups: dict) -> None:
        """Hand one window over, once its listeners exist and the window before it is written."""
        existed = self._listeners.finish()
        for company_id, originator in groups:
            if originator not in existed[company_id]:
                self.created[company_id].add(originator)
        known = {company_id: self._listeners.population(company_id) for company_id, _ in groups}
        self.finish()
        self._pending = self._writer.submit(self._write, groups, existed, known)

    def finish(self) -> None:
        """Wait for the window being written (its failure is the import's) and count whom it touched."""
        if self._pending is not None:
            for company_id, originators in self._pending.result().items():
                self.touched[company_id] |= originators
            self._pending = None


class ListenerCreator:
    """Creates the listeners of the file on first sight, in chunks on the worker, while the file is still read.

    Whether a listener is stored is asked by look-ups of its key, until the file has asked about one in SCAN_SHARE
    of the station's listeners (as its last run counted them): from then on the station's stored keys are read once,
    in one pass over the index, and the rest are answered from them (an import of 100,000 listeners into a station
    of 85,000 asked for 35 s, against about 5 s read at once). The unique index still refuses a listener another
    writer created meanwhile."""

    def __init__(self, worker: ThreadPoolExecutor, writes: bool = True):
        self._worker, self._pending, self._futures = worker, defaultdict(list), []
        self._create, self._writes = (create_listeners if writes else stored_listeners), writes
        self._asked: dict[int, int] = defaultdict(int)
        self._stored: dict[int, set[str]] = {}
        self._sorted: dict[int, np.ndarray] = {}

    def add(self, company_id: int, originator: str) -> None:
        """One originator seen for the first time in this file."""
        pending = self._pending[company_id]
        pending.append(originator)
        if len(pending) >= INSERT_DOCS:
            self._submit(company_id)

    def finish(self) -> dict[int, set[str]]:
        """Company -> originators that already existed when added (only those can have stored events)."""
        for company_id in sorted(self._pending):
            if self._writes:
                ensure_company(company_id)
            if self._pending[company_id]:
                self._submit(company_id)
        existed = defaultdict(set)
        for company_id, future in self._futures:
            existed[company_id].update(future.result())
        self._futures = []
        return existed

    def population(self, company_id: int) -> np.ndarray | None:
        """The station's stored values, sorted, once they were read (asked after `finish`, while no creation runs):
        by them a flush reads the stored keys of many listeners by index ranges where they lie close enough
        (core.db.quirks). Sorted once per import: listeners created since change where ranges pay off but little."""
        if company_id not in self._sorted and self._stored.get(company_id) is not None:
            self._sorted[company_id] = np.sort(np.asarray(list(self._stored[company_id]), dtype=PLAIN_BYTES))
        return self._sorted.get(company_id)

    def _submit(self, company_id: int) -> None:
        pending, self._pending[company_id] = self._pending[company_id], []
        self._asked[company_id] += len(pending)
        if company_id not in self._stored and self._asked[company_id] * SCAN_SHARE >= _station_size(company_id):
            stored = self._stored[company_id] = set()
            self._futures.append((company_id, self._worker.submit(_read_into, stored, company_id)))
        self._futures.append((company_id, self._worker.submit(self._create, company_id, pending,
                                                              stored=self._stored.get(company_id))))


def _station_size(company_id: int) -> int:
    run = latest_run(company_id)
    return run.rollup.get("total", 0) if run is not None else 0


def _read_into(stored: set[str], company_id: int) -> set[str]:
    """Fill `stored` with the station's stored values (on the worker, before the creations that use it)."""
    stored.update(sealed_profiles.stored_values(company_id))
    return set()


def create_listeners(company_id: int, originators: list[str], live: bool = False,
                     stored: set[str] | None = None) -> set[str]:
    """Insert the listeners that do not exist yet, sealed (their originator is personal; a live batch's in the
    station's open group); returns those that did.

    Existence is asked first, by key (or of `stored`, the station's stored values read at once, to which the new
    listeners' keys are added), so that no group's key is made for listeners that all exist; the unique
    (company_id, originator) index still refuses one created meanwhile by another writer.
    """
    existed, now = stored_listeners(company_id, originators, stored), utcnow()
    new = [{"company_id": company_id, "originator": originator, "tags": [], "inferred": {}, "created_at": now}
           for originator in originators if originator not in existed]
    refused = sealed_writes.insert(company_id, new, live)
    if stored is not None:
        stored.update(doc["originator"] for doc in new)  # stored under their keys now (insert keyed them)
    return existed | refused


def stored_listeners(company_id: int, originators: list[str], stored: set[str] | None = None) -> set[str]:
    """The originators that are stored listeners already (a dry run's answer to create_listeners, writing none)."""
    return sealed_profiles.existing(company_id, originators, stored)


def _write_interactions(groups: dict, existed: dict, tally: Tally, worker: ThreadPoolExecutor,
                        report_id: str, writes: bool = True,
                        population: dict[int, np.ndarray | None] | None = None) -> dict[int, set]:
    """Drop events already stored (or repeated in the file) and insert the rest, chunk by chunk; `population`: each
    station's stored values, sorted, where known (ListenerCreator.population)."""
    by_company, touched, docs, inserts = defaultdict(list), defaultdict(set), [], []
    for company_id, originator in groups:
        by_company[company_id].append(originator)
    collection = InteractionBatch._get_collection()
    for company_id in sorted(by_company):
        originators, known = _in_key_order(company_id, by_company[company_id]), (population or {}).get(company_id)
        for start in range(0, len(originators), RANGE_CHUNK):
            chunk = originators[start:start + RANGE_CHUNK]
            stored = stored_keys(collection, company_id, [o for o in chunk if o in existed[company_id]], known)
            for originator in chunk:
                pending = groups.pop((company_id, originator))
                new = pending.without(stored.get(originator) or set())
                tally.imported += len(new)
                tally.duplicates += len(pending) - len(new)
                tally.written(len(pending))
                if len(new):
                    touched[company_id].add(originator)
                    if writes:
                        docs += new.batch_documents(company_id, originator, report_id)
            if len(docs) >= INSERT_DOCS:
                inserts = _submit_insert(worker, collection, docs, inserts)
                docs = []
    _submit_insert(worker, collection, docs, inserts)
    for future in inserts:
        future.result()
    return {company_id: originators for company_id, originators in touched.items() if originators}


def _in_key_order(company_id: int, originators: list[str]) -> list[str]:
    """The originators in the order of their keys, which the stored index follows: a chunk of them then lies in
    one range of it, not spread over the whole station."""
    return [originator for _, originator in sorted(zip(keys_of(company_id, originators), originators))]


def _submit_insert(worker: ThreadPoolExecutor, collection, docs: list[dict], inserts: list) -> list:
    """Queue one insert_many; at most two wait, so that built documents do not pile up in memory."""
    if docs:
        inserts.append(worker.submit(write_batches, docs))
    while len(inserts) > 2:
        inserts.pop(0).result()
    return inserts


def stored_keys(collection, company_id: int, originators: list[str],
                population: np.ndarray | None = None) -> dict[str, set[str]]:
    """Idempotency keys already stored for these listeners: read by index ranges where they lie close together among
    the station's stored values (`population`, sorted), else by look-ups. An import of the whole station asked in
    look-ups of IN_CHUNK (0.4 ms a listener on the embedded database), against ranges (0.05 ms a listener)."""
    stored = defaultdict(set)
    if originators:
        forms = finding.lookup(company_id, originators)
        fields = {"_id": 0, "originator": 1, "keys": 1}
        found = (looked_up(collection, company_id, list(forms), projection(fields)) if population is None else
                 find_by_originator(collection, company_id, list(forms), fields, population=population))
        for doc in found:
            stored[forms[doc["originator"]]].update(comparable_keys(company_id, doc.get("keys") or ()))
    return stored


class PendingEvents:
    """One listener's events of this import, column by column, until they are written as InteractionBatches."""

    __slots__ = ("millis", "channels", "campaigns", "timeslots", "messages", "keys")

    def __init__(self):
        self.millis, self.channels, self.campaigns, self.timeslots, self.messages, self.keys = [], [], [], [], [], []

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, event: InteractionRow) -> None:
        """Append one validated interaction."""
        self.millis.append(event.millis)
        self.channels.append(event.channel)
        self.campaigns.append(event.campaign)
        self.timeslots.append(event.timeslot)
        self.messages.append(event.message)
        self.keys.append(event.key)

    def without(self, stored: set[str]) -> PendingEvents:
        """The events whose key is neither stored already nor repeated earlier in this import."""
        if not stored and len(set(self.keys)) == len(self.keys):
            return self
        seen, kept = set(stored), PendingEvents()
        for index, key in enumerate(self.keys):
            if key not in seen:
                seen.add(key)
                for name in self.__slots__:
                    getattr(kept, name).append(getattr(self, name)[index])
        return kept

    def batch_documents(self, company_id: int, originator: str, import_id: str) -> list[dict]:
        """InteractionBatch documents of these events, BATCH_EVENTS to a document."""
        return [batch_document(company_id, originator, import_id,
                               *(getattr(self, name)[start:start + BATCH_EVENTS] for name in self.__slots__))
                for start in range(0, len(self), BATCH_EVENTS)]
