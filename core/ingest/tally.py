"""The bookkeeping of one import: counts, bad rows, progress, and the station settings it reads once."""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime

from core.clock import as_utc, zone_of
from core.ingest.columns import named_field
from core.ingest.rows import StationTime
from core.ingest.values import FieldWarnings, RowError
from core.stations import defaults
from core.stations.channels import ChannelNames
from core.stations.models import Company
from core.stations.shows import schedule

PROGRESS_EVERY = 10_000
KEPT_ERRORS = 1000  # bad rows kept for the report, and as many warnings


class Tally:
    """Counts of one import, its first bad rows and its first warnings; progress is half reading, half writing.

    Warnings are counted apart: a row with warnings is still imported (or a duplicate), so that
    `rows = imported + duplicates + suppressed + bad rows` holds whatever the warnings."""

    def __init__(self, progress: Callable[[int], None] | None):
        self.rows = self.imported = self.duplicates = self.suppressed = self.error_count = self.warning_count = 0
        self.errors: list[dict] = []
        self.warnings: list[dict] = []
        self.bad_fields: Counter = Counter()  # bad rows by the field their reason is about ("row": none)
        self.warning_fields: Counter = Counter()
        self.listeners_new = self.listeners_updated = 0
        self.companies: set[int] = set()
        self._once: dict[tuple, dict] = {}  # the report's entry of each unknown name
        self._progress, self._reported, self._credit = progress, 0, 0.0
        self._lock = threading.Lock()

    def valid(self, rows: Iterable, parse: Callable[[dict, FieldWarnings], tuple]):
        """Yield the parsed values of each row that validates, noting its warnings; count and keep the reasons of
        the others (a bad row's warnings are dropped with it)."""
        for line, row in rows:
            self.rows += 1
            if self.rows % PROGRESS_EVERY == 0:
                self.written(PROGRESS_EVERY)
            if not isinstance(row, dict):
                self.bad(line, row if isinstance(row, str) else "not an object")
                continue
            warnings = FieldWarnings()
            try:
                parsed = parse(row, warnings)
            except RowError as exc:
                self.bad(line, exc.reason, getattr(exc, "once", None))
                continue
            for warning in warnings:
                self.warn(line, warning.field, warning.reason)
            yield parsed

    def bad(self, line: int, reason: str, once: tuple | None = None) -> None:
        """A skipped row: all are counted, the first KEPT_ERRORS kept for the report; the rows of one unknown name
        (`once`, core.ingest.values.UnknownName) are kept as one entry, at its first line, with their count."""
        self.error_count += 1
        self.bad_fields[named_field(reason) or "row"] += 1
        if once is not None and once in self._once:
            self._once[once]["rows"] += 1
            return
        entry = {"line": line, "reason": str(reason)}
        if once is not None:
            entry["rows"] = 1
            self._once[once] = entry
        _keep(self.errors, entry)

    def warn(self, line: int, field: str, reason: str) -> None:
        """An optional field left out of a kept row: all are counted, the first KEPT_ERRORS kept for the report."""
        self.warning_count += 1
        self.warning_fields[field] += 1
        _keep(self.warnings, {"line": line, "field": field, "reason": reason})

    def written(self, rows: int) -> None:
        """Half a unit of progress per row read, the other half when it is written (by the thread that writes, while
        the next rows are read: core.ingest.interactions)."""
        with self._lock:
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


def _keep(kept: list[dict], entry: dict) -> None:
    """Keep one more report entry unless KEPT_ERRORS are kept already: a file of bad data cannot flood the report."""
    if len(kept) < KEPT_ERRORS:
        kept.append(entry)


class Companies:
    """Company settings read once per import: country for phone numbers, time zone and shows for interactions; `now`
    is the moment of import, which the accepted interaction times are counted from (default: the clock)."""

    def __init__(self, now: datetime | None = None):
        self._docs: dict[int, dict] = {}
        self._times: dict[int, StationTime] = {}
        self._now = as_utc(now)  # one moment for the whole import

    def doc(self, company_id: int) -> dict:
        """The stored company, or {} for one this import will create."""
        if company_id not in self._docs:
            found = Company._get_collection().find_one({"company_id": company_id})
            self._docs[company_id] = found or {}
        return self._docs[company_id]

    def country(self, company_id: int) -> str:
        """ISO country code of the company (default ZA)."""
        return self.doc(company_id).get("country") or defaults.COUNTRY

    def station_time(self, company_id: int) -> StationTime:
        """Time zone and show schedule of the company."""
        found = self._times.get(company_id)
        if found is None:
            zone = zone_of(self.doc(company_id).get("timezone"))
            found = self._times[company_id] = StationTime(zone, self.schedule(company_id), self._now,
                                                          ChannelNames.of(self.doc(company_id).get("channels")))
        return found

    def schedule(self, company_id: int) -> list:
        """The company's minute-of-week lookup of its stored shows (core.stations.shows)."""
        return schedule(company_id)
