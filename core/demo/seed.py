"""Seeding a demo station: its rows imported through the ingest path, as an operator's files are, then segmented."""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from datetime import datetime

from core.clock import utcnow
from core.credits.ledger import load
from core.demo import catalogue as cat
from core.demo.station import generate_station
from core.history.record import queue_rebuild
from core.ingest.importer import KINDS, import_rows
from core.segmentation.runs import segment_company
from core.stations import defaults
from core.stations.companies import ensure_company
from core.stations.models import Company

DEMO_CREDITS = 500  # enough to try every AI feature on the demo (docs/decisions.md §6)


def numbered(rows: Iterable) -> Iterator[tuple[int, dict]]:
    """Rows as (line number, row), numbered from 1 like the lines of a file."""
    return enumerate(rows, start=1)


def _name_station(company_id: int) -> None:
    ensure_company(company_id)
    Company.objects(company_id=company_id).update_one(set__name=cat.STATION_NAME, set__timezone=cat.TIMEZONE,
                                                      set__country=defaults.COUNTRY)


def _row_counter(kind: str, say, every: int = 250_000):
    """An import progress callback (rows done so far) that reports every `every` rows."""
    state = {"done": 0}

    def advance(rows: int) -> None:
        before, state["done"] = state["done"], state["done"] + rows
        if state["done"] // every > before // every:
            say(f"{kind}: {state['done']:,} rows")
    return advance


def seed_demo(company_id: int, listeners: int, seed: int, now: datetime | None = None, progress=None) -> dict:
    """Import the demo station through the ingest path, segment it and queue the rebuild of its history; returns rows
    and seconds per step. The import is made as of `now`, so that a station as of any `now` is imported whole (times
    are accepted up to a day after the moment of import)."""
    say = progress or (lambda message: None)
    station = generate_station(company_id, listeners, seed, now or utcnow())
    _name_station(company_id)
    summary = {"company_id": company_id, "listeners": listeners, "seed": seed, "now": station.now.isoformat(),
               "rows": {}, "imported": {}, "seconds": {}}
    for kind in KINDS:
        started = time.perf_counter()
        report = import_rows(kind, numbered(getattr(station, kind)()), source="demo",
                             progress=_row_counter(kind, say), resegment=False, now=station.now)
        summary["rows"][kind], summary["imported"][kind] = report.rows, report.imported
        summary["seconds"][kind] = round(time.perf_counter() - started, 2)
        say(f"{kind}: {report.imported:,} of {report.rows:,} rows imported in {summary['seconds'][kind]:.1f}s")
    started = time.perf_counter()
    run = segment_company(company_id, station.now, progress=say)
    summary["seconds"]["segmentation"] = round(time.perf_counter() - started, 2)
    summary["segmented"] = run.listeners
    say(f"segmentation: {run.listeners:,} listeners in {summary['seconds']['segmentation']:.1f}s")
    summary["credits"] = load(company_id, DEMO_CREDITS, note="demo credits")["balance"]
    queue_rebuild(company_id)  # its 13 months of trends, from a worker: imported without a run, they have one point
    return summary
