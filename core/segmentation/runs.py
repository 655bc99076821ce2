"""Segmentation runs: profile listeners, assign segments, record the moves, publish snapshot and rollups.

A full run profiles every listener as of `now`. After an import or an erasure only the listeners it touched are
re-profiled (as of now) and spliced into the previous snapshot. Writes are bulk and only of what changed: one
snapshot file, the segment changes, one run document. After live interactions the re-profiled rows are written as a
snapshot delta instead of a file (core.listeners.snapshot), so that a small batch costs a small write.

A lost snapshot (a backup restored from before a later run names a file whose key is destroyed) is rebuilt as a
station's first run is made: a full run over nothing, whichever run or reader meets it first (`_rebuild_lost`).
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta

import numpy as np

from core.churn import store as churn
from core.clock import as_utc, utcnow
from core.db.leases import lease
from core.db.quirks import insert_all
from core.errors import Conflict
from core.listeners import snapshot
from core.listeners.declared import read_listeners
from core.listeners.events import events_of, load_events, read_batches
from core.personal import originator_keys
from core.segmentation import rollups
from core.segmentation.models import SegmentChange, SegmentRun
from core.segmentation.profiling import profile_listeners
from core.stations.companies import ensure_company
from core.stations.defaults import TIMEZONE
from core.stations.models import Company
from core.stations.shows import timeslot_ids

log = logging.getLogger(__name__)
Progress = Callable[[str], None] | None

FULL_RUN_TTL = timedelta(hours=2)
"""Longer than any full run; a process that died mid-run frees the station after it."""
REBUILD_WAIT_S = 60
"""How long a reader that finds the snapshot lost waits for the run holding the station (which rebuilds it) before
it answers 503; below the web server's timeout."""


Published = Callable[[int, list[str] | None], None]
_after_publish: list[Published] = []


def after_publish(callback: Published) -> None:
    """Call `callback(company_id, touched)` after every run publishes (touched None: every listener), so that stores
    derived from the snapshot (the vector index) follow it; registered at start-up by the packages above."""
    if callback not in _after_publish:
        _after_publish.append(callback)


def _published(company_id: int, touched: list[str] | None) -> None:
    for callback in _after_publish:
        callback(company_id, touched)


Finished = Callable[[SegmentRun], None]
_after_run: list[Finished] = []


def after_run(callback: Finished) -> None:
    """Call `callback(run)` after every run is stored (a full run, an import's, a live batch's: `run.kind`), so that
    what follows a run (the station's segment history, events to other systems) reads what it changed by its
    `run_id`; registered at start-up by the packages above. A failing callback is logged, never undoes the run."""
    if callback not in _after_run:
        _after_run.append(callback)


def _finished(run: SegmentRun) -> None:
    for callback in _after_run:
        try:
            callback(run)
        except Exception:  # noqa: BLE001 - the run is stored and published; what follows it must not fail it
            log.exception("after the run %s of company %s", run.run_id, run.company_id)


def full_run_lease(company_id: int) -> str:
    """The lease a full run the server starts holds (a producer's click or the daily run), so that two of one station
    never overlap, whichever process starts them. The name predates the daily run; tests and live leases use it."""
    return f"dashboard-run:{company_id}"


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


@contextmanager
def segment_lease(company_id: int, wait_s: float = 600):
    """The lock of everything that rewrites the company's snapshot (runs, live batches), so that they never
    interleave and the last to publish is the last to have read. This thread is known to hold it meanwhile, so that
    a snapshot lost under it is rebuilt in place (`_rebuild_lost`) rather than by waiting for the lock it holds."""
    with lease(f"segment:{company_id}", wait_s=wait_s), _marked("held", company_id):
        yield


_local = threading.local()


@contextmanager
def _marked(what: str, company_id: int):
    """This thread's set `what` ("held": segment leases, "rebuilding": lost snapshots) holds the company meanwhile."""
    setattr(_local, what, _marks(what) | {company_id})
    try:
        yield
    finally:
        setattr(_local, what, _marks(what) - {company_id})


def _marks(what: str) -> frozenset[int]:
    return getattr(_local, what, frozenset())


def _rebuild_lost(company_id: int) -> snapshot.Snapshot:
    """A lost snapshot rebuilt by a full run (the previous figures are gone, as before a station's first run), once:
    under the station's lease, by this thread in place when it holds it already; else after waiting for it, unless
    whoever held it rebuilt the snapshot meanwhile (SnapshotLost, 503, when the wait is longer than a request's)."""
    if company_id in _marks("rebuilding"):
        return snapshot.empty(company_id)  # a reader within the rebuild: none yet, as within a station's first run
    with ExitStack() as stack:
        if company_id not in _marks("held"):
            try:
                stack.enter_context(segment_lease(company_id, wait_s=REBUILD_WAIT_S))
            except Conflict:
                raise snapshot.SnapshotLost(company_id) from None
            try:
                return snapshot.current(company_id, rebuild=False)  # rebuilt by the holder this one waited for
            except snapshot.SnapshotLost:
                pass
        run, _ = _run_held(ensure_company(company_id), as_utc(None), None, "full", lambda message: None)
    _published(company_id, None)
    _finished(run)
    return snapshot.current(company_id, rebuild=False)


snapshot.when_lost(_rebuild_lost)


def resegment_live(company_id: int, docs: list[dict], batches: list[dict],
                   now: datetime | None = None) -> dict[str, str]:
    """Re-profile the listeners of a live batch from their documents and interaction batches as the caller just read
    and wrote them, holding `segment_lease` (one read serves the duplicate check and the profile), and record their
    rows as a snapshot delta (the file is not rewritten); returns each listener's segment."""
    now, company = as_utc(now), ensure_company(company_id)
    stopwatch = Stopwatch()
    fresh = profile_listeners(company, docs, events_of(batches, now=now), now, timeslot_ids(company_id),
                              churn.kept(company_id))
    stopwatch.lap("compute_s")
    previous = snapshot.current(company_id)  # before the run document, which is named after the file read
    run, previous_at = _live_run(company_id, now)
    _carry_first_assignment(previous, fresh, run)
    _publish_live(run, company, previous, fresh, previous_at)
    stopwatch.lap("write_s")
    _finish(run, stopwatch)
    _published(company_id, fresh.originators.tolist())
    _finished(run)
    return dict(zip(fresh.originators.tolist(), fresh.labels("segment").tolist(), strict=True))


def reprofile_listeners(company_id: int, originators: list[str]) -> dict[str, str]:
    """Re-profile a few listeners whose declared or inferred values changed (a promotion, an AI profile) as a
    snapshot delta, like a live batch, so that filters and completeness show it at once without rewriting the
    station's file (0.5 s at 100,000 listeners); returns each listener's segment."""
    with segment_lease(company_id):
        docs = read_listeners(company_id, originators)
        return resegment_live(company_id, docs, read_batches(company_id, originators)) if docs else {}


def _live_run(company_id: int, now: datetime) -> tuple[SegmentRun, str | None]:
    """The one run document of the live batches on the company's current file, moved to this batch: one per file
    rather than one per batch, so that the runs the overview sorts do not grow with the batches; and when the run
    before this batch was."""
    file_id = (Company._get_collection().find_one({"company_id": company_id}, {"snapshot_file": 1}) or {}).get(
        "snapshot_file")
    run_id = f"live-{file_id}"
    run = SegmentRun.objects(run_id=run_id).first() or SegmentRun(company_id=company_id, run_id=run_id, kind="live")
    previous_at = run.now.isoformat() if run.now else _previous_at(company_id)
    run.now, run.started_at = now, utcnow()
    return run, previous_at


def _publish_live(run: SegmentRun, company, previous: snapshot.Snapshot, fresh: snapshot.Snapshot,
                  previous_at: str | None) -> None:
    """Write what a live batch changed: its segment changes, its rows as a snapshot delta, and the overview's sums
    moved by the difference its listeners make (their previous rows out, their new rows in), never recounted."""
    before = rollups.sums(_counted(_rows_of(previous, fresh.originators)))
    moves = _record_changes(run, previous, fresh)
    parts = run.sums or rollups.sums(_counted(previous))  # the first batch on a file counts the station once
    run.sums = rollups.add(rollups.add(parts, before, -1), rollups.sums(_counted(fresh)))
    run.rollup = rollups.render(run.sums, company)
    run.movements = rollups.movements(moves, fresh, company, previous_at)
    merged = snapshot.append_delta(previous, fresh)
    run.listeners, run.profiled, run.changed = len(merged), len(fresh), run.movements["moved"]


def _rows_of(previous: snapshot.Snapshot, originators: np.ndarray) -> snapshot.Snapshot:
    """The rows `previous` holds for these listeners (none for new ones)."""
    rows = previous.rows_of(originators)
    return previous.take(rows[rows >= 0])


def _run(company_id: int, now: datetime, touched: list[str] | None, kind: str, progress: Progress,
         dropped: set[str] = frozenset()) -> SegmentRun:
    """Profile the listeners (all, or the touched ones spliced into the previous snapshot) and publish a new file."""
    say = progress or (lambda message: None)
    company = ensure_company(company_id)
    with segment_lease(company_id):
        run, touched = _run_held(company, now, touched, kind, say, dropped)
    _published(company_id, touched)
    _finished(run)
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
        with _marked("rebuilding", company.company_id):
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
    _carry_first_assignment(previous, fresh, run)  # before the splice, so that the file keeps the columns
    merged = fresh if touched is None else snapshot.splice(_without(previous, set(touched) | dropped), fresh)
    stopwatch.lap("compute_s")
    say("writing segment changes, rollups and snapshot")
    _publish(run, company, previous, fresh, merged)
    stopwatch.lap("write_s")
    _finish(run, stopwatch)
    return run


def _profiled(company, touched: list[str] | None, now: datetime, stopwatch: Stopwatch,
              say: Callable[[str], None] = lambda message: None) -> snapshot.Snapshot:
    """The listeners (all, or the touched ones) profiled as of `now` from what is stored of them."""
    say("reading listeners and interactions")
    docs = read_listeners(company.company_id, touched)
    events = load_events(company.company_id, touched, now=now, among=[doc["originator"] for doc in docs])
    stopwatch.lap("read_s")
    if touched is None:
        say(f"learning who goes quiet from {len(events):,} interactions")
        scoring = churn.learn(company.company_id, churn.interactions(events, company.timezone or TIMEZONE), now,
                              company.churn_horizon_days or churn.HORIZON_DAYS)
        stopwatch.lap("churn_s")
    else:
        scoring = churn.kept(company.company_id)
    say(f"profiling {len(docs):,} listeners from {len(events):,} interactions")
    return profile_listeners(company, docs, events, now, timeslot_ids(company.company_id), scoring)


def _finish(run: SegmentRun, stopwatch: Stopwatch) -> None:
    """Store the run whole, by its run_id: mongoengine's change tracking over a loaded run's nested rollup and sums
    (a live run is loaded and stored again per batch) costs more than writing it."""
    run.timings, run.finished_at = stopwatch.laps, utcnow()
    run.validate()
    SegmentRun._get_collection().replace_one({"run_id": run.run_id}, run.to_mongo(), upsert=True)


class Stopwatch:
    """Seconds spent in each phase of a run."""

    def __init__(self):
        self.laps, self._last = {}, time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name], self._last = round(now - self._last, 3), now


def _publish(run: SegmentRun, company, previous: snapshot.Snapshot, fresh: snapshot.Snapshot,
             merged: snapshot.Snapshot) -> None:
    """Write what the run changed: segment changes, then the snapshot; the run keeps rollups and movements."""
    moves = _record_changes(run, previous, fresh)
    run.rollup = rollups.rollup(_counted(merged), company)
    run.movements = rollups.movements(moves, fresh, company, _previous_at(run.company_id))
    snapshot.publish(merged)
    run.listeners, run.profiled, run.changed = len(merged), len(fresh), run.movements["moved"]


def _counted(snap: snapshot.Snapshot) -> snapshot.Snapshot:
    """The listeners the overview counts: the same the explorer can find, so that the two agree as soon as an import
    or an erasure has run (erased listeners stay in the snapshot, under a pseudonym, but match no filter)."""
    return snap.take(~snap.cols["erased"]) if len(snap) and "erased" in snap.cols else snap


def _without(previous: snapshot.Snapshot, dropped: set[str]) -> snapshot.Snapshot:
    """The previous snapshot less the rows of the listeners re-profiled or leaving it (erasure renames)."""
    if not dropped or not len(previous):
        return previous
    return previous.take(~np.isin(previous.originators, list(dropped)))


def _record_changes(run: SegmentRun, previous: snapshot.Snapshot, fresh: snapshot.Snapshot) -> dict:
    """Append {from, to, at} for every profiled listener whose segment changed; returns every move of the run.

    A listener's first assignment is not written as a change document (a first run would otherwise insert one per
    listener): it is carried in the snapshot as `first_segment` / `first_segmented_at` (`_carry_first_assignment`),
    and on the run in memory (`first_segments`) for what follows it, since it is a move too (an event).
    """
    before = np.array([_segment_of(previous, o) for o in fresh.originators.tolist()], dtype=object)
    after = fresh.labels("segment")
    rows = np.flatnonzero(before != after)
    moved = [i for i in rows.tolist() if before[i] is not None]
    firsts = [i for i in rows.tolist() if before[i] is None]
    run.first_segments = dict(zip(fresh.originators[firsts].tolist(), after[firsts].tolist(), strict=True))
    keys = originator_keys.keys_of(run.company_id, fresh.originators[moved].tolist())  # stored under their keys
    docs = [{"company_id": run.company_id, "originator": key, "from_segment": before[i], "to_segment": after[i],
             "at": run.now, "run_id": run.run_id} for i, key in zip(moved, keys, strict=True)]
    for start in range(0, len(docs), 5000):
        insert_all(SegmentChange._get_collection(), docs[start:start + 5000])
    return {"rows": rows, "from": before[rows], "to": after[rows]}


def _carry_first_assignment(previous: snapshot.Snapshot, fresh: snapshot.Snapshot, run: SegmentRun) -> None:
    """Each fresh row's first segment and when it was given: the previous snapshot's, or this run's for a listener
    it did not hold (every published snapshot has both columns, or splicing it with fresh rows would fail)."""
    first = fresh.cols["segment"].copy()
    first_at = np.full(len(fresh), int(run.now.timestamp()), dtype=np.int64)
    if len(previous) and "first_segment" in previous.cols:
        rows = previous.rows_of(fresh.originators)
        held = rows >= 0
        first[held] = previous.cols["first_segment"][rows[held]]
        first_at[held] = previous.cols["first_segmented_at"][rows[held]]
    fresh.cols["first_segment"], fresh.cols["first_segmented_at"] = first, first_at


def _segment_of(previous: snapshot.Snapshot, originator: str):
    row = previous.row_of(originator) if len(previous) else None
    if row is None:
        return None
    code = previous.cols["segment"][row]
    return previous.vocab["segment"][code] if code >= 0 else None


def _previous_at(company_id: int) -> str | None:
    last = SegmentRun.objects(company_id=company_id, finished_at__ne=None).order_by("-started_at").only("now").first()
    return last.now.isoformat() if last else None
