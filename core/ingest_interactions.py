"""The interactions importer: events grouped per listener, checked against stored keys, written in bulk.

One InteractionBatch per listener per import (see core.events). Listener creation and batch inserts run on one
worker thread while the main thread reads and groups, so the database and the parser work at the same time.
"""
from __future__ import annotations

from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from pymongo.errors import BulkWriteError

from core.companies import ensure_company
from core.config import active
from core.database import IN_CHUNK, projection
from core.erasure import SuppressionList
from core.events import batch_document
from core.ingest_formats import company_of
from core.models import InteractionBatch, Listener, utcnow

if TYPE_CHECKING:
    from core.ingest import Companies, Tally

BATCH_EVENTS = 2000  # events per InteractionBatch document
INSERT_DOCS = 1000  # documents per insert_many
FLUSH_EVENTS = 1_000_000  # events grouped in memory before they are written


def insert_new(collection, docs: list[dict]) -> list[dict]:
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


def import_interactions(rows, tally: Tally, companies: Companies, report_id: str) -> dict[int, set]:
    """Group the file's events per listener, then write one InteractionBatch per listener of what is new.

    Every FLUSH_EVENTS events the groups are written and dropped, so memory stays bounded for any file size (a
    listener whose events span a flush gets one batch per part; the stored-key check keeps re-imports idempotent).
    """
    groups: dict[tuple[int, str], list] = {}
    touched: dict[int, set] = defaultdict(set)
    suppression, blocked, grouped = SuppressionList(active().secret_key), set(), 0

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
            grouped += 1
            if grouped == FLUSH_EVENTS:
                _merge(touched, _write_interactions(groups, listeners.finish(), tally, worker, report_id))
                grouped = 0
        _merge(touched, _write_interactions(groups, listeners.finish(), tally, worker, report_id))
        return {company_id: originators for company_id, originators in touched.items() if originators}


def _merge(into: dict[int, set], more: dict[int, set]) -> None:
    for company_id, originators in more.items():
        into[company_id] |= originators


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
        """Company -> originators that already existed when added (only those can have stored events)."""
        for company_id in sorted(self._pending):
            ensure_company(company_id)
            if self._pending[company_id]:
                self._futures.append((company_id, self._worker.submit(_create_listeners, company_id,
                                                                      self._pending[company_id])))
                self._pending[company_id] = []
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
    return {doc["originator"] for doc in insert_new(Listener._get_collection(), new)}


def _write_interactions(groups: dict, existed: dict, tally: Tally, worker: ThreadPoolExecutor,
                        report_id: str) -> dict[int, set]:
    """Drop events already stored (or repeated in the file) and insert the rest, chunk by chunk."""
    by_company, touched, docs, inserts = defaultdict(list), defaultdict(set), [], []
    for company_id, originator in groups:
        by_company[company_id].append(originator)
    collection = InteractionBatch._get_collection()
    for company_id in sorted(by_company):
        originators = sorted(by_company[company_id])
        for start in range(0, len(originators), IN_CHUNK):
            chunk = originators[start:start + IN_CHUNK]
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
