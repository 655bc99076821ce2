"""Live interactions: a small batch a station's platform pushes as events happen, stored and re-segmented before the
answer, so that a listener's segment, profile and the explorer's counts are current as soon as the client hears back.

Rows are read and keyed exactly as in an interactions file (core.ingest.rows), listeners created and events stored
with the importer's own helpers (core.ingest.interactions); the touched listeners are re-profiled and written as a
snapshot delta (core.segmentation.live.resegment_live), never as a whole new snapshot file.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from bson import ObjectId

from core.errors import ValidationFailed
from core.ingest.interactions import PendingEvents, create_listeners
from core.ingest.rows import InteractionRow, company_of
from core.ingest.suppressed import SuppressedNumbers
from core.ingest.tally import Companies, Tally
from core.ingest.values import FieldWarnings, RowError
from core.listeners.declared import read_listeners
from core.listeners.events import comparable_keys, read_batches, write_batches
from core.segmentation.leases import segment_lease
from core.segmentation.live import resegment_live
from core.stations.companies import ensure_company

MAX_ROWS = 1000
STATUSES = ("stored", "duplicate", "suppressed", "bad")


def record_interactions(company_id: int, rows: list, now: datetime | None = None) -> dict:
    """Store a batch of one station's interactions as they arrive (`now`, default: the clock); per row what became
    of it, and the segment of every listener that got a new event (shape: {"company_id", "counts": {status: n},
    "rows": [{"index", "status", "reasons"?, "warnings"?}], "listeners": [{"originator", "segment"}]})."""
    if len(rows) > MAX_ROWS:
        raise ValidationFailed.one(["body"], f"at most {MAX_ROWS} interactions per request, got {len(rows)}")
    ensure_company(company_id)
    companies = Companies(now)
    answers, events = _read(company_id, rows, companies)
    with segment_lease(company_id):  # a second batch carrying one event finds it stored; publications keep order
        docs, batches = _store(company_id, events, answers)
        segments = resegment_live(company_id, docs, batches, now=now) if docs else {}
    counts = {status: sum(answer["status"] == status for answer in answers) for status in STATUSES}
    return {"company_id": company_id, "counts": counts, "rows": answers,
            "listeners": [{"originator": o, "segment": segments[o]} for o in sorted(segments)]}


def _read(company_id: int, rows: list, companies: Companies) -> tuple[list[dict], list[tuple[int, InteractionRow]]]:
    """Each row's answer so far (bad and suppressed are final) and the (index, event) of the rows that can be used."""
    station, suppressed = companies.station_time(company_id), SuppressedNumbers(Tally(None), companies)
    answers, events = [], []
    for index, row in enumerate(rows):
        answer, warnings = {"index": index, "status": "bad"}, FieldWarnings()
        answers.append(answer)
        try:
            event = _interaction(company_id, row, station, warnings)
        except RowError as exc:
            answer["reasons"] = [exc.reason]
            continue
        if warnings:
            answer["warnings"] = [{"field": w.field, "reason": w.reason} for w in warnings]
        if suppressed.drops(company_id, event.originator):
            answer["status"] = "suppressed"
            continue
        events.append((index, event))
    return answers, events


def _interaction(company_id: int, row, station, warnings: FieldWarnings) -> InteractionRow:
    """One row as the importer reads it; a row of another station is a bad row (a client never writes elsewhere)."""
    if not isinstance(row, dict):
        raise RowError("not an object")
    named = company_of(row)
    if named != company_id:
        raise RowError(f"company_id must be {company_id}, the station of this request", got=named)
    return station.interaction(row, company_id, warnings)


def _store(company_id: int, events: list[tuple[int, InteractionRow]], answers: list[dict]) -> tuple[list, list]:
    """Write the events whose key is new (stored nor repeated earlier in the batch) and mark each row stored or
    duplicate; returns the documents and the interaction batches (stored and new) of the listeners that got a new
    event, read once for both the duplicate check and their profile."""
    originators = sorted({event.originator for _, event in events})
    docs = _listeners(company_id, originators)
    stored = read_batches(company_id, originators, with_keys=True)
    seen: dict[str, set] = defaultdict(set)
    for batch in stored:
        seen[batch["originator"]].update(comparable_keys(company_id, batch.get("keys") or ()))
    pending: dict[str, PendingEvents] = defaultdict(PendingEvents)
    for index, event in events:
        keys = seen[event.originator]
        answers[index]["status"] = "duplicate" if event.key in keys else "stored"
        if event.key not in keys:
            keys.add(event.key)
            pending[event.originator].add(event)
    batch_id = str(ObjectId())
    new = [doc for originator, events_of_one in pending.items()
           for doc in events_of_one.batch_documents(company_id, originator, batch_id)]
    if new:
        write_batches(new, live=True)
    return ([doc for doc in docs if doc["originator"] in pending],
            [batch for batch in stored + new if batch["originator"] in pending])


def _listeners(company_id: int, originators: list[str]) -> list[dict]:
    """The documents of these listeners, creating those that do not exist yet (a read of the batch's listeners is
    needed for their profile anyway, so it doubles as the existence check)."""
    docs = read_listeners(company_id, originators)
    known = {doc["originator"] for doc in docs}
    missing = [originator for originator in originators if originator not in known]
    if missing:
        create_listeners(company_id, missing, live=True)
        docs += read_listeners(company_id, missing)
    return docs
