"""What each run adds to the history: a full run is the day's point (its counts and moves as the run stored them);
an import changes the past, so it queues a rebuild of it for a worker (merged while it waits)."""
from __future__ import annotations

from zoneinfo import ZoneInfo

from core.clock import as_utc
from core.db import queue
from core.history.models import HistoryPoint
from core.history.rebuild import rebuild_history
from core.segmentation.models import SegmentRun
from core.segmentation.rules import SEGMENTS
from core.stations.companies import timezone_of

REBUILD_JOB = "history"


def after_run(run: SegmentRun) -> None:
    """Record a full run's point; queue the rebuild of the station's past after an import's run."""
    if run.kind == "full":
        record_point(run)
    elif run.kind == "import":
        queue_rebuild(run.company_id)


def queue_rebuild(company_id: int) -> None:
    """Ask a worker to rebuild the station's past (merged into a rebuild that already waits): imports change it."""
    queue.enqueue(REBUILD_JOB, f"{REBUILD_JOB}:{company_id}", {"company_id": company_id})


def rebuild_job(payload: dict) -> int:
    """What a worker does with a rebuild job."""
    return rebuild_history(int(payload["company_id"]))


def record_point(run: SegmentRun) -> None:
    """The day's point from a full run (the last full run of a station day stands for it)."""
    rollup, movements = run.rollup or {}, run.movements or {}
    matrix = movements.get("matrix") or {}
    moves = {("new" if source == "unsegmented" else source): {t: int(n) for t, n in row.items() if n}
             for source, row in matrix.items()}
    day = as_utc(run.now).astimezone(ZoneInfo(timezone_of(run.company_id))).date().isoformat()
    counts = {key: int((rollup.get("segments", {}).get(key) or {}).get("count", 0)) for key in SEGMENTS}
    HistoryPoint.objects(company_id=run.company_id, source="run", date=day).update_one(
        upsert=True, set__as_of=as_utc(run.now), set__total=int(rollup.get("total", 0)), set__segments=counts,
        set__moves={k: v for k, v in moves.items() if v}, set__new=sum(moves.get("new", {}).values()),
        set__lost=sum(row.get("dormant", 0) for source, row in moves.items() if source not in ("new", "dormant")))
