"""Imports of channels, shows, profiles and interactions: bad rows are reported and skipped, the rest written in bulk.

Every import reads and validates the whole file before it writes events, so a re-import finds nothing new
(idempotency keys for interactions, "changed something" for the other kinds). Interactions are written as one
InteractionBatch per listener per import with raw pymongo; listener lookups and writes run on one worker thread
so that the database (another process) works while this one parses.
"""
from __future__ import annotations

import gc
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from datetime import datetime

from bson import ObjectId

from core.clock import utcnow
from core.db.quirks import projection
from core.errors import ValidationFailed
from core.ingest import reports
from core.ingest.files import read_rows, read_table
from core.ingest.interactions import import_interactions
from core.ingest.kinds import row_parser
from core.ingest.mapped import Mapping
from core.ingest.models import ImportReport
from core.ingest.station import station_rows
from core.ingest.suppressed import SuppressedNumbers
from core.ingest.tally import Companies, Tally
from core.listeners import sealed_profiles, sealed_writes
from core.listeners.fields import DECLARED_NAMES
from core.segmentation.runs import resegment_listeners
from core.stations.companies import bump_version, ensure_company
from core.stations.models import Company, Show

KINDS = ("channels", "shows", "profiles", "interactions")
FILE = "file"  # a report's source: a file the CLI imported
SOURCES = re.compile(r"upload:[0-9a-f]{24}|[a-z]*")  # the kinds of source a report says; a path is none of them
UPLOADED = re.compile(r"[/\\]uploads[/\\]([0-9a-f]{24})\.\w+$")  # an upload's path, as reports said it before


def import_file(kind: str, path, progress: Callable[[int], None] | None = None, resegment: bool = True,
                company_id: int | None = None, now: datetime | None = None, mapping: Mapping | None = None,
                sheet: str | None = None, dry_run: bool = False, source: str = FILE) -> ImportReport:
    """Import a .jsonl, .csv or .xlsx file (`sheet`: a workbook's sheet, else its first); ValueError when the file
    cannot be read. With `company_id` (an upload to one station) rows without one take it and rows of another station
    are bad rows. `mapping` reads the file's columns into fields (core.ingest.mapped); without it the columns are the
    field names. `now` is the moment of import. `dry_run` validates and counts everything and writes nothing but the
    report. The report says the kind of `source` (`file`, `upload:<job id>`), never the path: a station or an
    operator names a file as it likes, after a listener too."""
    _check_kind(kind)
    rows = read_rows(path, sheet) if mapping is None else mapping.rows(read_table(path, sheet).rows)
    if company_id is not None:
        rows = station_rows(rows, company_id)
    return import_rows(kind, rows, source=source, progress=progress, resegment=resegment, now=now,
                       dry_run=dry_run)


def import_rows(kind: str, rows: Iterable[tuple[int, dict | str]], source: str = "",
                progress: Callable[[int], None] | None = None, resegment: bool = True,
                now: datetime | None = None, dry_run: bool = False) -> ImportReport:
    """Import (line, row) pairs of one kind; returns the saved report of what was imported and what was skipped.
    `now` is the moment of import (default: the clock): interaction times are accepted up to a day after it, and
    the touched listeners are re-profiled as of it. A `dry_run` reads, checks and counts exactly as the import
    would, against what is stored, and writes nothing but its report."""
    _check_kind(kind)
    tally, report_id, companies = Tally(progress), ObjectId(), Companies(now)
    importer = {"channels": _channels, "shows": _shows, "profiles": _profiles,
                "interactions": import_interactions}[kind]
    with _no_cyclic_gc():
        touched = importer(rows, tally, companies, str(report_id), not dry_run)
    tally.finish()
    if not dry_run:
        for company_id in sorted(touched):
            bump_version(company_id)
    if resegment and not dry_run and kind in ("profiles", "interactions"):
        for company_id in sorted(touched):
            resegment_listeners(company_id, sorted(touched[company_id]), now=now)
    report = ImportReport(id=report_id, company_ids=sorted(tally.companies), kind=kind, source=source,
                          rows=tally.rows, imported=tally.imported, duplicates=tally.duplicates,
                          suppressed=tally.suppressed, error_count=tally.error_count,
                          warnings=tally.warnings, warning_count=tally.warning_count,
                          bad_rows_by_field=dict(tally.bad_fields), warnings_by_field=dict(tally.warning_fields),
                          listeners_new=tally.listeners_new, listeners_updated=tally.listeners_updated,
                          dry_run=dry_run, **reports.sealed_errors(report_id, tally.errors)).save()
    report.errors = tally.errors  # as this import answers them; stored sealed only
    return report


def forget_sources(company_id: int) -> int:
    """Say the kind of source of the station's reports stored before (and of reports no station's rows reached),
    which kept the path an import was given: `upload:<job id>` for an upload's, `file` for any other; how many.
    Resumable: each report is rewritten in one update, and only those that still keep a path."""
    stored = ImportReport._get_collection()
    found = stored.find({"$or": [{"company_ids": company_id}, {"company_ids": {"$size": 0}}]}, {"source": 1})
    named = [report for report in found if not SOURCES.fullmatch(report.get("source") or "")]
    for report in named:
        upload = UPLOADED.search(report["source"])
        stored.update_one({"_id": report["_id"]}, {"$set": {"source": f"upload:{upload[1]}" if upload else FILE}})
    return len(named)


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


def _channels(rows, tally: Tally, companies: Companies, _report_id: str, writes: bool) -> dict[int, set]:
    """Company.channels[str(channel_type)] = name; touched are the companies whose names changed."""
    state, changes = {}, defaultdict(dict)
    for company_id, channel_type, name in tally.valid(rows, row_parser("channels", companies)):
        current = state.setdefault(company_id, dict(companies.doc(company_id).get("channels") or {}))
        tally.companies.add(company_id)
        if current.get(str(channel_type)) == name:
            tally.duplicates += 1
            continue
        tally.imported += 1
        current[str(channel_type)] = changes[company_id][f"channels.{channel_type}"] = name
    for company_id in sorted(tally.companies) if writes else ():
        ensure_company(company_id)
        if changes[company_id]:
            Company._get_collection().update_one({"company_id": company_id}, {"$set": changes[company_id]})
    return {company_id: set() for company_id in changes if changes[company_id]}


def _shows(rows, tally: Tally, companies: Companies, _report_id: str, writes: bool) -> dict[int, set]:
    """Upsert Show (company_id, timeslot_id); touched are the companies whose schedule changed."""
    state, changes = {}, defaultdict(dict)
    collection = Show._get_collection()
    for company_id, timeslot_id, fields in tally.valid(rows, row_parser("shows", companies)):
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
    for company_id in sorted(tally.companies) if writes else ():
        ensure_company(company_id)
        for timeslot_id, fields in changes[company_id].items():
            collection.update_one({"company_id": company_id, "timeslot_id": timeslot_id}, {"$set": fields},
                                  upsert=True)
    return {company_id: set() for company_id in changes if changes[company_id]}


def _profiles(rows, tally: Tally, companies: Companies, _report_id: str, writes: bool) -> dict[int, set]:
    """Declared data: a later row replaces the fields it carries; listeners are created when new, unless their
    originator or mobile number is suppressed."""
    merged, suppressed = defaultdict(list), SuppressedNumbers(tally, companies)
    for company_id, originator, fields in tally.valid(rows, row_parser("profiles", companies)):
        if not suppressed.drops(company_id, originator, fields.get("mobile_number")):
            merged[company_id, originator].append(fields)
    by_company = defaultdict(list)
    for company_id, originator in merged:
        by_company[company_id].append(originator)
    touched = {}
    for company_id in sorted(by_company):
        if writes:
            ensure_company(company_id)
        tally.companies.add(company_id)
        originators = sorted(by_company[company_id])
        for start in range(0, len(originators), sealed_profiles.GROUPS.size):  # a chunk's new listeners: a group
            chunk = originators[start:start + sealed_profiles.GROUPS.size]
            changed = _write_profiles(company_id, {o: merged.pop((company_id, o)) for o in chunk}, tally, writes)
            if changed:
                touched.setdefault(company_id, set()).update(changed)
    return touched


def _write_profiles(company_id: int, rows_of: dict[str, list[dict]], tally: Tally, writes: bool) -> set[str]:
    """Insert the new listeners of one chunk and set only the fields that change on the others (a dry run counts
    them and writes nothing); their personal fields sealed (core.listeners.sealed_profiles)."""
    found = {doc["originator"]: doc for doc in sealed_profiles.find(
        company_id, list(rows_of), projection({"_id": 0, "originator": 1, **{name: 1 for name in DECLARED_NAMES}}))}
    inserts, updates, changed = [], {}, set()
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
            updates[originator] = changes
        if imported:
            changed.add(originator)
    tally.listeners_new += len(inserts)
    tally.listeners_updated += len(updates)
    if not writes:
        return changed
    declared = {doc["originator"]: {name: doc[name] for name in DECLARED_NAMES if name in doc and doc[name] != []}
                for doc in inserts}
    for originator in sealed_writes.insert(company_id, inserts):  # created meanwhile by another writer: update it
        updates[originator] = declared[originator]
    sealed_writes.edit(company_id, {originator: (lambda _, fields=fields: fields)
                                      for originator, fields in updates.items()})
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
