"""Segmentation runs: profile listeners, assign segments, record the moves, publish snapshot and rollups.

A full run profiles every listener as of `now`. After an import or an erasure only the listeners it touched are
re-profiled (as of now) and spliced into the previous snapshot. Writes are bulk and only of what changed: one
snapshot file, the segment changes, one run document (core.segmentation.recording). After live interactions the
re-profiled rows are written as a snapshot delta instead of a file (core.segmentation.live).

A lost snapshot (a backup restored from before a later run names a file whose key is destroyed) is rebuilt as a
station's first run is made: a full run over nothing, whichever run or reader meets it first (`_rebuild_lost`).
"""
from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from datetime import datetime

import numpy as np

from core.churn import store as churn
from core.clock import as_utc, utcnow
from core.errors import Conflict
from core.listeners import snapshot
from core.listeners.declared import read_declared
from core.listeners.events import load_events
from core.segmentation import subscribers
from core.segmentation.leases import marked, marks, segment_lease
from core.segmentation.models import SegmentRun
from core.segmentation.profiling import profile_listeners
from core.segmentation.recording import Stopwatch, carry_first_assignment, finish_run, publish_run
from core.stations.companies import ensure_company
from core.stations.defaults import TIMEZONE
from core.stations.shows import timeslot_ids

log = logging.getLogger(__name__)
Progress = Callable[[str], None] | None

REBUILD_WAIT_S = 60
"""How long a reader that finds the snapshot lost waits for the run holding the station (which rebuilds it) before
it answers 503; below the web server's timeout."""


def segment_company(company_id: int, now: datetime | None = None, progress: Progress = None) -> SegmentRun:
    """Profile and segment every listener of the company as of `now` (default: the time of the run)."""
    return _run(company_id, as_utc(now), None, "full", progress)


def resegment_listeners(company_id: int, originators: Iterable[str], now: datetime | None = None,
                        progress: Progress = None, kind: str = "import",
                        dropped: Iterable[str] = ()) -> SegmentRun | None:
    """Re-profile only these listeners as of `now`; `dropped` originators leave the snapshot (erasure renames)."""
    touched = sorted(set(originators))
    if not touched and not dropped:
        return None
    return _run(company_id, as_utc(now), touched, kind, progress, set(dropped))


def _rebuild_lost(company_id: int) -> snapshot.Snapshot:
    """A lost snapshot rebuilt by a full run (the previous figures are gone, as before a station's first run), once:
    under the station's lease, by this thread in place when it holds it already; else after waiting for it, unless
    whoever held it rebuilt the snapshot meanwhile (SnapshotLost, 503, when the wait is longer than a request's)."""
    if company_id in marks("rebuilding"):
        return snapshot.empty(company_id)  # a reader within the rebuild: none yet, as within a station's first run
    with ExitStack() as stack:
        if company_id not in marks("held"):
            try:
                stack.enter_context(segment_lease(company_id, wait_s=REBUILD_WAIT_S))
            except Conflict:
                raise snapshot.SnapshotLost(company_id) from None
            try:
                return snapshot.current(company_id, rebuild=False)  # rebuilt by the holder this one waited for
            except snapshot.SnapshotLost:
                pass
        run, _ = _run_held(ensure_company(company_id), as_utc(None), None, "full", lambda message: None)
    subscribers.published(company_id, None)
    subscribers.finished(run)
    return snapshot.current(company_id, rebuild=False)


snapshot.when_lost(_rebuild_lost)


def _run(company_id: int, now: datetime, touched: list[str] | None, kind: str, progress: Progress,
         dropped: set[str] = frozenset()) -> SegmentRun:
    """Profile the listeners (all, or the touched ones spliced into the previous snapshot) and publish a new file."""
    say = progress or (lambda message: None)
    company = ensure_company(company_id)
    with segment_lease(company_id):
        run, touched = _run_held(company, now, touched, kind, say, dropped)
    subscribers.published(company_id, touched)
    subscribers.finished(run)
    firsts = run.movements["first_assignments"]
    say(f"done: {run.listeners:,} listeners, {run.changed:,} moved to another segment"
        + (f", {firsts:,} segmented for the first time" if firsts else ""))
    return run


def _run_held(company, now: datetime, touched: list[str] | None, kind: str, say: Callable[[str], None],
              dropped: set[str] = frozenset()) -> tuple[SegmentRun, list[str] | None]:
    """A run, by a caller holding the station's segment lease; and whom it profiled (None: every listener). On a
    lost snapshot every listener, over none, as in a station's first run (the touched rows alone would publish a
    station of a few), readers within it seeing none too."""
    try:
        previous = snapshot.current(company.company_id, rebuild=False)
    except snapshot.SnapshotLost:
        log.warning("the snapshot of company %s is lost (a backup restored from before a later run?): this run "
                    "rebuilds it from every listener", company.company_id)
        with marked("rebuilding", company.company_id):
            run = _run_on(company, now, None, kind, say, snapshot.empty(company.company_id))
        run.first_segments = {}  # its listeners are not new, only their previous segments lost: no such events
        return run, None
    return _run_on(company, now, touched, kind, say, previous, dropped), touched


def _run_on(company, now: datetime, touched: list[str] | None, kind: str, say: Callable[[str], None],
            previous: snapshot.Snapshot, dropped: set[str] = frozenset()) -> SegmentRun:
    """Profile the listeners (all, or the touched ones spliced into `previous`) and publish a new file."""
    run = SegmentRun(company_id=company.company_id, run_id=uuid.uuid4().hex, kind=kind, now=now, started_at=utcnow())
    stopwatch = Stopwatch()
    fresh = _profiled(company, touched, now, stopwatch, say)
    carry_first_assignment(previous, fresh, run)  # before the splice, so that the file keeps the columns
    merged = fresh if touched is None else snapshot.splice(_without(previous, set(touched) | dropped), fresh)
    stopwatch.lap("compute_s")
    say("writing segment changes, rollups and snapshot")
    publish_run(run, company, previous, fresh, merged)
    stopwatch.lap("write_s")
    finish_run(run, stopwatch)
    return run


def _profiled(company, touched: list[str] | None, now: datetime, stopwatch: Stopwatch,
              say: Callable[[str], None] = lambda message: None) -> snapshot.Snapshot:
    """The listeners (all, or the touched ones) profiled as of `now` from what is stored of them."""
    say("reading listeners and interactions")
    whole = touched is None  # under the station's lease: one run writes the station's copies
    listeners = read_declared(company.company_id, touched, keep_copy=whole)
    events = load_events(company.company_id, touched, now=now, among=listeners.originators.tolist(),
                         keep_copy=whole)
    stopwatch.lap("read_s")
    if touched is None:
        say(f"learning who goes quiet from {len(events):,} interactions, unless it was learned today")
        horizon_days = company.churn_horizon_days or churn.HORIZON_DAYS
        scoring, learned = churn.learned_or_kept(company.company_id, events, now, horizon_days,
                                                 company.timezone or TIMEZONE)
        if not learned:
            say("kept the churn model learned earlier today")
        stopwatch.lap("churn_s")
    else:
        scoring = churn.kept(company.company_id)
    say(f"profiling {len(listeners):,} listeners from {len(events):,} interactions")
    return profile_listeners(company, listeners, events, now, timeslot_ids(company.company_id), scoring)


def _without(previous: snapshot.Snapshot, dropped: set[str]) -> snapshot.Snapshot:
    """The previous snapshot less the rows of the listeners re-profiled or leaving it (erasure renames)."""
    if not dropped or not len(previous):
        return previous
    return previous.take(~np.isin(previous.originators, list(dropped)))
