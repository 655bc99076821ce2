"""The interactions importer: events grouped per listener, checked against stored keys, written in bulk.

One InteractionBatch per listener per import (see core.listeners.events). Listener creation and batch inserts run on one
worker thread while the main thread reads and groups, so the database and the parser work at the same time.
"""
from __future__ import annotations

from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from core.clock import utcnow
from core.db.quirks import IN_CHUNK, projection
from core.ingest.kinds import row_parser
from core.ingest.rows import InteractionRow
from core.ingest.suppressed import SuppressedNumbers
from core.ingest.tally import Companies, Tally
from core.listeners import finding, sealed_profiles, sealed_writes
from core.listeners.events import batch_document, comparable_keys, write_batches
from core.listeners.models import InteractionBatch
from core.segmentation.overview import latest_run
from core.stations.companies import ensure_company

BATCH_EVENTS = 2000  # events per InteractionBatch document
INSERT_DOCS = 1000  # documents per insert_many
FLUSH_EVENTS = 1_000_000  # events grouped in memory before they are written
SCAN_SHARE = 8  # look-ups cost about eight times a read of the station's keys, per listener


def import_interactions(rows, tally: Tally, companies: Companies, report_id: str,
                        writes: bool = True) -> dict[int, set]:
    """Group the file's events per listener, then write one InteractionBatch per listener of what is new.

    Every FLUSH_EVENTS events the groups are written and dropped, so memory stays bounded for any file size (a
    listener whose events span a flush gets one batch per part; the stored-key check keeps re-imports idempotent).
    Without `writes` (a dry run) the same checks run against what is stored and nothing is written; an event that
    repeats one of an earlier flush is then counted as new, since that flush stored nothing.
    """
    groups: dict[tuple[int, str], PendingEvents] = {}
    touched: dict[int, set] = defaultdict(set)
    created: dict[int, set] = defaultdict(set)
    suppressed, grouped = SuppressedNumbers(tally, companies), 0

    def flush() -> None:
        seen = list(groups)
        existed = listeners.finish()
        _merge(touched, _write_interactions(groups, existed, tally, worker, report_id, writes))
        for company_id, originator in seen:
            if originator not in existed[company_id]:
                created[company_id].add(originator)

    with ThreadPoolExecutor(max_workers=1) as worker:
        listeners = ListenerCreator(worker, writes)
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
                flush()
                grouped = 0
        flush()
    tally.listeners_new += sum(len(originators) for originators in created.values())
    tally.listeners_updated += sum(len(touched[company_id] - created[company_id]) for company_id in touched)
    return {company_id: originators for company_id, originators in touched.items() if originators}


def _merge(into: dict[int, set], more: dict[int, set]) -> None:
    for company_id, originators in more.items():
        into[company_id] |= originators


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
                        report_id: str, writes: bool = True) -> dict[int, set]:
    """Drop events already stored (or repeated in the file) and insert the rest, chunk by chunk."""
    by_company, touched, docs, inserts = defaultdict(list), defaultdict(set), [], []
    for company_id, originator in groups:
        by_company[company_id].append(originator)
    collection = InteractionBatch._get_collection()
    for company_id in sorted(by_company):
        originators = sorted(by_company[company_id])
        for start in range(0, len(originators), IN_CHUNK):
            chunk = originators[start:start + IN_CHUNK]
            stored = stored_keys(collection, company_id, [o for o in chunk if o in existed[company_id]])
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


def _submit_insert(worker: ThreadPoolExecutor, collection, docs: list[dict], inserts: list) -> list:
    """Queue one insert_many; at most two wait, so that built documents do not pile up in memory."""
    if docs:
        inserts.append(worker.submit(write_batches, docs))
    while len(inserts) > 2:
        inserts.pop(0).result()
    return inserts


def stored_keys(collection, company_id: int, originators: list[str]) -> dict[str, set[str]]:
    """Idempotency keys already stored for these listeners."""
    stored = defaultdict(set)
    if originators:
        forms = finding.lookup(company_id, originators)
        for doc in collection.find({"company_id": company_id, "originator": {"$in": list(forms)}},
                                   projection({"_id": 0, "originator": 1, "keys": 1})):
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
