"""What each run adds to the history: every run (a full run, an import's, an erasure's, a live batch's) makes the
day's point the station as that run left it, so that the latest point of a trend and the counts a page shows beside
it are the same figures; an import changes the past, so it queues a rebuild of it for a worker (merged while it
waits)."""
from __future__ import annotations

import numpy as np

from core.clock import as_utc, zone_of
from core.db import queue
from core.history.models import HistoryPoint
from core.history.periods import first_heard, period_start
from core.history.rebuild import rebuild_history
from core.listeners import snapshot
from core.segmentation.models import SegmentRun
from core.segmentation.rules import SEGMENTS
from core.stations.companies import timezone_of

REBUILD_JOB = "history"
FIRST = "unsegmented"
"""The source a run's matrix gives a listener's first assignment: not a move, and not new unless first heard then."""


def after_run(run: SegmentRun) -> None:
    """Record the day's point after every run; queue the rebuild of the station's past after an import's run."""
    record_point(run)
    if run.kind == "import":
        queue_rebuild(run.company_id)


def queue_rebuild(company_id: int) -> None:
    """Ask a worker to rebuild the station's past (merged into a rebuild that already waits): imports change it."""
    queue.enqueue(REBUILD_JOB, f"{REBUILD_JOB}:{company_id}", {"company_id": company_id})


def rebuild_job(payload: dict) -> int:
    """What a worker does with a rebuild job."""
    return rebuild_history(int(payload["company_id"]))


def record_point(run: SegmentRun) -> None:
    """The day's point after a run: the counts as the run left them; the moves of every run of the day added up
    (first assignments are no moves); and the listeners first heard since the point before, by their segment now,
    as the day's new listeners (core.history.periods)."""
    rollup, tz = run.rollup or {}, timezone_of(run.company_id)
    day = as_utc(run.now).astimezone(zone_of(tz)).date()
    counts = {key: int((rollup.get("segments", {}).get(key) or {}).get("count", 0)) for key in SEGMENTS}
    newcomers = _newcomers(run, period_start(run.company_id, day, tz))
    moved = {f"moves.{source}.{target}": int(n) for source, row in ((run.movements or {}).get("matrix") or {}).items()
             if source != FIRST for target, n in row.items() if n and target != source}
    lost = sum(n for key, n in moved.items() if key.endswith(".dormant") and not key.startswith("moves.dormant."))
    HistoryPoint._get_collection().update_one(
        {"company_id": run.company_id, "source": "run", "date": day.isoformat()},
        {"$set": {"as_of": as_utc(run.now), "total": int(rollup.get("total", 0)), "segments": counts,
                  "moves.new": newcomers, "new": sum(newcomers.values())},
         "$inc": {**moved, "lost": lost}}, upsert=True)


def _newcomers(run: SegmentRun, since) -> dict[str, int]:
    """{segment: listeners} of the counted listeners first heard after `since` and by the run's moment, by the
    segment they are in now (the snapshot the run published)."""
    snap = snapshot.current(run.company_id)
    if not len(snap):
        return {}
    heard = first_heard(snap.cols["first_ts"], since, run.now)
    if "erased" in snap.cols:
        heard &= ~snap.cols["erased"]
    codes = snap.cols["segment"][heard]
    counts = np.bincount(codes[codes >= 0], minlength=len(snap.vocab["segment"]))
    return {str(key): int(n) for key, n in zip(snap.vocab["segment"], counts.tolist(), strict=True) if n}
