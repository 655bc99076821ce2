"""Imports of channels, shows, profiles and interactions: bad rows are reported and skipped, the rest written in bulk.

Every import reads and validates the whole file before it writes events, so a re-import finds nothing new
(idempotency keys for interactions, "changed something" for the other kinds). Interactions are written as one
InteractionBatch per listener per import with raw pymongo; listener lookups and writes run on one worker thread
so that the database (another process) works while this one parses.
"""
from __future__ import annotations

import gc
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterable
from zoneinfo import ZoneInfo

from bson import ObjectId
from pymongo import UpdateOne
from pymongo.errors import BulkWriteError

from core.companies import bump_version, ensure_company
from core.database import projection
from core.errors import ValidationFailed
from core.events import batch_document
from core.ingest_formats import (PROFILE_FIELDS, Clock, RowError, channel_row, company_of, profile_row, read_rows,
                                 show_row, timeslot_lookup)
from core.config import active
from core.erasure import SuppressionList
from core.models import Company, ImportReport, InteractionBatch, Listener, Show, utcnow

KINDS = ("channels", "shows", "profiles", "interactions")
LOOKUP_CHUNK = 100  # values per `$in`: SecantusDB's cost of a `$in` grows faster than linearly past ~100
BATCH_EVENTS = 2000  # events per InteractionBatch document
INSERT_DOCS = 1000  # documents per insert_many
PROGRESS_EVERY = 10_000
KEPT_ERRORS = 1000
DEFAULT_TIMEZONE = "Africa/Johannesburg"


def import_file(kind: str, path, progress: Callable[[int], None] | None = None, resegment: bool = True
                ) -> ImportReport:
    """Import a .jsonl or .csv file; ValueError when the file cannot be read."""
    _check_kind(kind)
    return import_rows(kind, read_rows(path), source=str(path), progress=progress, resegment=resegment)


def import_rows(kind: str, rows: Iterable[tuple[int, dict | str]], source: str = "",
                progress: Callable[[int], None] | None = None, resegment: bool = True) -> ImportReport:
    """Import (line, row) pairs of one kind; returns the saved report of what was imported and what was skipped."""
    _check_kind(kind)
    tally, report_id = Tally(progress), ObjectId()
    importer = {"channels": _channels, "shows": _shows, "profiles": _profiles, "interactions": _interactions}[kind]
    with _no_cyclic_gc():
        touched = importer(rows, tally, Companies(), str(report_id))
    tally.finish()
    for company_id in sorted(touched):
        bump_version(company_id)
    if resegment and kind in ("profiles", "interactions"):
        from core.segmentation import resegment_listeners  # at call time: segmentation imports much of core

        for company_id in sorted(touched):
            resegment_listeners(company_id, sorted(touched[company_id]))
    return ImportReport(id=report_id, company_ids=sorted(tally.companies), kind=kind, source=source,
                        rows=tally.rows, imported=tally.imported, duplicates=tally.duplicates, suppressed=tally.suppressed,
                        errors=tally.errors, error_count=tally.error_count).save()


@contextmanager
def _no_cyclic_gc():
    """Millions of small containers and no cycles: the cyclic collector would rescan them all, again and again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _check_kind(kind: str) -> None:
    """Unknown kinds fail before anything is read."""
    if kind not in KINDS:
        raise ValidationFailed.one(["kind"], f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")


class Tally:
    """Counts of one import and its first bad rows; progress is half reading, half writing."""

    def __init__(self, progress: Callable[[int], None] | None):
        self.rows = self.imported = self.duplicates = self.suppressed = self.error_count = 0
        self.errors: list[dict] = []
        self.companies: set[int] = set()
        self._progress, self._reported, self._credit = progress, 0, 0.0

    def valid(self, rows: Iterable, parse: Callable[[dict], tuple]):
        """Yield the parsed values of each row that validates; count and keep the reasons of the others."""
        for line, row in rows:
            self.rows += 1
            if self.rows % PROGRESS_EVERY == 0:
                self.written(PROGRESS_EVERY)
            if not isinstance(row, dict):
                self.bad(line, row if isinstance(row, str) else "not an object")
                continue
            try:
                yield parse(row)
            except RowError as exc:
                self.bad(line, exc.reason)

    def bad(self, line: int, reason: str) -> None:
        """A skipped row: all are counted, the first KEPT_ERRORS kept for the report."""
        self.error_count += 1
        if len(self.errors) < KEPT_ERRORS:
            self.errors.append({"line": line, "reason": reason})

    def written(self, rows: int) -> None:
        """Half a unit of progress per row read, the other half when it is written."""
        self._credit += rows / 2
        self._report(int(self._credit))

    def finish(self) -> None:
        """Bring the progress to the number of rows."""
        self._report(self.rows)

    def _report(self, total: int) -> None:
        total = min(total, self.rows)
        if self._progress and total > self._reported:
            self._progress(total - self._reported)
            self._reported = total


class Companies:
    """Company settings read once per import: country for phone numbers, time zone and shows for interactions."""

    def __init__(self):
        self._docs: dict[int, dict] = {}
        self._clocks: dict[int, Clock] = {}

    def doc(self, company_id: int) -> dict:
        """The stored company, or {} for one this import will create."""
        if company_id not in self._docs:
            found = Company._get_collection().find_one({"company_id": company_id})
            self._docs[company_id] = found or {}
        return self._docs[company_id]

    def country(self, company_id: int) -> str:
        """ISO country code of the company (default ZA)."""
        return self.doc(company_id).get("country") or "ZA"

    def clock(self, company_id: int) -> Clock:
        """Time zone and show schedule of the company."""
        clock = self._clocks.get(company_id)
        if clock is None:
            zone = ZoneInfo(self.doc(company_id).get("timezone") or DEFAULT_TIMEZONE)
            shows = Show._get_collection().find({"company_id": company_id}, {"_id": 0})
            clock = self._clocks[company_id] = Clock(zone, timeslot_lookup(shows))
        return clock


def _channels(rows, tally: Tally, companies: Companies, _report_id: str) -> dict[int, set]:
    """Company.channels[str(channel_type)] = name; touched are the companies whose names changed."""
    state, changes = {}, defaultdict(dict)
    for company_id, channel_type, name in tally.valid(rows, channel_row):
        current = state.setdefault(company_id, dict(companies.doc(company_id).get("channels") or {}))
        tally.companies.add(company_id)
        if current.get(str(channel_type)) == name:
            tally.duplicates += 1
            continue
        tally.imported += 1
        current[str(channel_type)] = changes[company_id][f"channels.{channel_type}"] = name
    for company_id in sorted(tally.companies):
        ensure_company(company_id)
        if changes[company_id]:
            Company._get_collection().update_one({"company_id": company_id}, {"$set": changes[company_id]})
    return {company_id: set() for company_id in changes if changes[company_id]}


def _shows(rows, tally: Tally, companies: Companies, _report_id: str) -> dict[int, set]:
    """Upsert Show (company_id, timeslot_id); touched are the companies whose schedule changed."""
    state, changes = {}, defaultdict(dict)
    collection = Show._get_collection()
    for company_id, timeslot_id, fields in tally.valid(rows, show_row):
        if company_id not in state:
            stored = collection.find({"company_id": company_id}, {"_id": 0, "company_id": 0})
            state[company_id] = {show.pop("timeslot_id"): show for show in stored}
        tally.companies.add(company_id)
        stored = state[company_id].get(timeslot_id) or {}
        if all(stored.get(name) == value for name, value in fields.items()):
            tally.duplicates += 1
            continue
        tally.imported += 1
        state[company_id][timeslot_id] = changes[company_id][timeslot_id] = fields
    for company_id in sorted(tally.companies):
        ensure_company(company_id)
        for timeslot_id, fields in changes[company_id].items():
            collection.update_one({"company_id": company_id, "timeslot_id": timeslot_id}, {"$set": fields},
                                  upsert=True)
    return {company_id: set() for company_id in changes if changes[company_id]}


def _profiles(rows, tally: Tally, companies: Companies, _report_id: str) -> dict[int, set]:
    """Declared data: a later row replaces the fields it carries; listeners are created when new."""
    merged = defaultdict(list)
    for company_id, originator, fields in tally.valid(
            rows, lambda row: profile_row(row, companies.country(company_of(row)))):
        merged[company_id, originator].append(fields)
    by_company = defaultdict(list)
    for company_id, originator in merged:
        by_company[company_id].append(originator)
    touched = {}
    for company_id in sorted(by_company):
        ensure_company(company_id)
        tally.companies.add(company_id)
        originators = sorted(by_company[company_id])
        for start in range(0, len(originators), LOOKUP_CHUNK):
            chunk = originators[start:start + LOOKUP_CHUNK]
            changed = _write_profiles(company_id, {o: merged.pop((company_id, o)) for o in chunk}, tally)
            if changed:
                touched.setdefault(company_id, set()).update(changed)
    return touched


def _write_profiles(company_id: int, rows_of: dict[str, list[dict]], tally: Tally) -> set[str]:
    """Insert the new listeners of one chunk and $set only the fields that change on the others."""
    collection = Listener._get_collection()
    found = {doc["originator"]: doc for doc in collection.find(
        {"company_id": company_id, "originator": {"$in": list(rows_of)}},
        projection({"_id": 0, "originator": 1, **{name: 1 for name in PROFILE_FIELDS}}))}
    inserts, updates, changed = [], [], set()
    for originator, rows in rows_of.items():
        current = found.get(originator)
        changes, imported = _replay(current or {}, rows, created=current is None)
        tally.imported += imported
        tally.duplicates += len(rows) - imported
        tally.written(len(rows))
        if current is None:
            inserts.append({"company_id": company_id, "originator": originator, "tags": [], "inferred": {},
                            "created_at": utcnow(), **changes})
        elif changes:
            updates.append(UpdateOne({"company_id": company_id, "originator": originator}, {"$set": changes}))
        if imported:
            changed.add(originator)
    for doc in _insert_new(collection, inserts):  # created meanwhile by another writer: update it instead
        fields = {name: doc[name] for name in PROFILE_FIELDS if name in doc and doc[name] != []}
        updates.append(UpdateOne({"company_id": company_id, "originator": doc["originator"]}, {"$set": fields}))
    if updates:
        collection.bulk_write(updates, ordered=False)
    return changed


def _replay(current: dict, rows: list[dict], created: bool) -> tuple[dict, int]:
    """(fields to $set, rows that changed something), applying the rows in file order over the stored values."""
    state, changes, imported = dict(current), {}, 0
    for index, fields in enumerate(rows):
        diff = {name: value for name, value in fields.items() if state.get(name) != value}
        if diff or (created and index == 0):
            imported += 1
        state.update(diff)
        changes.update(diff)
    return changes, imported


def _insert_new(collection, docs: list[dict]) -> list[dict]:
    """insert_many that tolerates duplicate keys; returns the documents that already existed."""
    if not docs:
        return []
    try:
        collection.insert_many(docs, ordered=False)
    except BulkWriteError as exc:
        errors = exc.details.get("writeErrors", [])
        if any(error.get("code") != 11000 for error in errors):
            raise
        return [docs[error["index"]] for error in errors]
    return []


def _interactions(rows, tally: Tally, companies: Companies, report_id: str) -> dict[int, set]:
    """Group the file's events per listener, then write one InteractionBatch per listener of what is new."""
    groups: dict[tuple[int, str], list] = {}
    suppression, blocked = SuppressionList(active().secret_key), set()

    def parse(row: dict) -> tuple:
        company_id = company_of(row)
        return company_id, companies.clock(company_id).interaction(row, company_id)

    with ThreadPoolExecutor(max_workers=1) as worker:
        listeners = ListenerCreator(worker)
        for company_id, values in tally.valid(rows, parse):
            group = groups.get((company_id, values[0]))
            if group is None and ((company_id, values[0]) in blocked or suppression.blocks(company_id, values[0])):
                blocked.add((company_id, values[0]))
                tally.suppressed += 1
                continue
            if group is None:
                group = groups[company_id, values[0]] = []
                listeners.add(company_id, values[0])
                tally.companies.add(company_id)
            group += values[1:]
        existed = listeners.finish()
        return _write_interactions(groups, existed, tally, worker, report_id)


class ListenerCreator:
    """Creates the listeners of the file on first sight, in chunks on the worker, while the file is still read."""

    def __init__(self, worker: ThreadPoolExecutor):
        self._worker, self._pending, self._futures = worker, defaultdict(list), []

    def add(self, company_id: int, originator: str) -> None:
        """One originator seen for the first time in this file."""
        pending = self._pending[company_id]
        pending.append(originator)
        if len(pending) >= INSERT_DOCS:
            self._futures.append((company_id, self._worker.submit(_create_listeners, company_id, pending)))
            self._pending[company_id] = []

    def finish(self) -> dict[int, set[str]]:
        """Company -> originators that existed before this import (only those can have stored events)."""
        for company_id in sorted(self._pending):
            ensure_company(company_id)
            if self._pending[company_id]:
                self._futures.append((company_id, self._worker.submit(_create_listeners, company_id,
                                                                      self._pending[company_id])))
        existed = defaultdict(set)
        for company_id, future in self._futures:
            existed[company_id].update(future.result())
        return existed


def _create_listeners(company_id: int, originators: list[str]) -> set[str]:
    """Insert the listeners that do not exist yet; returns those that did.

    The unique (company_id, originator) index is the existence check: a refused duplicate costs the database no
    more than finding the document would, and it saves a round trip per chunk.
    """
    now = utcnow()
    new = [{"company_id": company_id, "originator": originator, "tags": [], "inferred": {}, "created_at": now}
           for originator in originators]
    return {doc["originator"] for doc in _insert_new(Listener._get_collection(), new)}


def _write_interactions(groups: dict, existed: dict, tally: Tally, worker: ThreadPoolExecutor,
                        report_id: str) -> dict[int, set]:
    """Drop events already stored (or repeated in the file) and insert the rest, chunk by chunk."""
    by_company, touched, docs, inserts = defaultdict(list), defaultdict(set), [], []
    for company_id, originator in groups:
        by_company[company_id].append(originator)
    collection = InteractionBatch._get_collection()
    for company_id in sorted(by_company):
        originators = sorted(by_company[company_id])
        for start in range(0, len(originators), LOOKUP_CHUNK):
            chunk = originators[start:start + LOOKUP_CHUNK]
            stored = _stored_keys(collection, company_id, [o for o in chunk if o in existed[company_id]])
            for originator in chunk:
                flat = groups.pop((company_id, originator))
                batches = _batches(company_id, originator, flat, stored.get(originator), tally, report_id)
                if batches:
                    touched[company_id].add(originator)
                    docs += batches
                tally.written(len(flat) // 6)
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
        inserts.append(worker.submit(collection.insert_many, docs, ordered=False))
    while len(inserts) > 2:
        inserts.pop(0).result()
    return inserts


def _stored_keys(collection, company_id: int, originators: list[str]) -> dict[str, set[str]]:
    """Idempotency keys already stored for these listeners."""
    stored = defaultdict(set)
    if originators:
        for doc in collection.find({"company_id": company_id, "originator": {"$in": originators}},
                                   projection({"_id": 0, "originator": 1, "keys": 1})):
            stored[doc["originator"]].update(doc.get("keys") or ())
    return stored


def _batches(company_id: int, originator: str, flat: list, stored: set | None, tally: Tally,
             import_id: str) -> list[dict]:
    """InteractionBatch documents of one listener's new events (flat holds 6 values per event)."""
    keys = flat[5::6]
    if stored or len(set(keys)) < len(keys):
        seen, kept = set(stored or ()), []
        for index, key in enumerate(keys):
            if key not in seen:
                seen.add(key)
                kept += flat[index * 6:index * 6 + 6]
        flat = kept
    new = len(flat) // 6
    tally.imported += new
    tally.duplicates += len(keys) - new
    return [batch_document(company_id, originator, import_id,
                           *(flat[column + start * 6:(start + BATCH_EVENTS) * 6:6] for column in range(6)))
            for start in range(0, new, BATCH_EVENTS)]
