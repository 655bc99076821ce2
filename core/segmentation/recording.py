"""What a segmentation run writes: the moves of the listeners it profiled (segment changes, first assignments carried
in the snapshot), its rollups and movements, the snapshot it publishes, and the run document with its timings.

Separate from the runs because a full or import run (core.segmentation.runs) and a live batch
(core.segmentation.live) profile differently but record what they found the same way.
"""
from __future__ import annotations

import time

import numpy as np

from core.clock import utcnow
from core.db.quirks import insert_all
from core.listeners import snapshot
from core.personal import originator_keys
from core.segmentation import rollups
from core.segmentation.models import SegmentChange, SegmentRun


def finish_run(run: SegmentRun, stopwatch: Stopwatch) -> None:
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


def publish_run(run: SegmentRun, company, previous: snapshot.Snapshot, fresh: snapshot.Snapshot,
                merged: snapshot.Snapshot) -> None:
    """Write what the run changed: segment changes, then the snapshot; the run keeps rollups and movements."""
    moves = record_changes(run, previous, fresh)
    run.rollup = rollups.rollup(counted(merged), company)
    run.movements = rollups.movements(moves, fresh, company, previous_run_at(run.company_id))
    snapshot.publish(merged)
    run.listeners, run.profiled, run.changed = len(merged), len(fresh), run.movements["moved"]


def counted(snap: snapshot.Snapshot) -> snapshot.Snapshot:
    """The listeners the overview counts: the same the explorer can find, so that the two agree as soon as an import
    or an erasure has run (erased listeners stay in the snapshot, under a pseudonym, but match no filter)."""
    return snap.take(~snap.cols["erased"]) if len(snap) and "erased" in snap.cols else snap


def record_changes(run: SegmentRun, previous: snapshot.Snapshot, fresh: snapshot.Snapshot) -> dict:
    """Append {from, to, at} for every profiled listener whose segment changed; returns every move of the run.

    A listener's first assignment is not written as a change document (a first run would otherwise insert one per
    listener): it is carried in the snapshot as `first_segment` / `first_segmented_at` (`carry_first_assignment`),
    and on the run in memory (`first_segments`) for what follows it, since it is a move too (an event).
    """
    before = _segments_of(previous, fresh.originators)
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


def carry_first_assignment(previous: snapshot.Snapshot, fresh: snapshot.Snapshot, run: SegmentRun) -> None:
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


def _segments_of(previous: snapshot.Snapshot, originators: np.ndarray) -> np.ndarray:
    """Each listener's segment in `previous` (None where it held them in none, or not at all), in one look-up."""
    found = np.full(len(originators), None, dtype=object)
    if not len(previous):
        return found
    rows = previous.rows_of(originators)
    held = rows >= 0
    codes = previous.cols["segment"][rows[held]].astype(np.int64)
    labels = np.array([*previous.vocab["segment"], None], dtype=object)
    found[held] = labels[np.where(codes >= 0, codes, len(labels) - 1)]
    return found


def previous_run_at(company_id: int) -> str | None:
    last = SegmentRun.objects(company_id=company_id, finished_at__ne=None).order_by("-started_at").only("now").first()
    return last.now.isoformat() if last else None
