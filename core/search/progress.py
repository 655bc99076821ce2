"""How far the station's embedding has got, so that an answer ranked while listeners are still being read for meaning
can say when all of them will be ("ready for 12,400 of 20,000 listeners, about 3 minutes left") instead of
leaving a producer to guess, or to read the wait as "nobody matched".

Each embedding run (core.search.vectors.refresh_embeddings, in whichever process or host runs it) keeps its count on
the company's embedding counter in MongoDB: how many listeners it has to embed, how many are written, since when.
Time left is what is left at the pace the run has kept so far. A run that has written nothing yet has no pace, and
one that has not moved for STALE (its process died) is not waited for: both leave the time left unknown.
"""
from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from core.clock import as_utc, utcnow
from core.search.models import EmbeddingCounter

STALE = timedelta(minutes=10)


def begin(company_id: int, model: str, total: int) -> str | None:
    """Record a run about to embed `total` listeners; its key (None when there is nothing to embed)."""
    if not total:
        return None
    run, now = uuid.uuid4().hex[:12], utcnow()
    _counter().update_one({"company_id": company_id, "model": model},
                          {"$set": {f"runs.{run}": {"started_at": now, "at": now, "total": total, "done": 0}}},
                          upsert=True)
    return run


def advance(company_id: int, model: str, run: str | None, written: int) -> None:
    """Count `written` more listeners of the run as embedded and stored."""
    if run is not None:
        _counter().update_one({"company_id": company_id, "model": model},
                              {"$inc": {f"runs.{run}.done": written}, "$set": {f"runs.{run}.at": utcnow()}})


def end(company_id: int, model: str, run: str | None) -> None:
    """The run is over (finished or failed): nothing more is to be waited for from it."""
    if run is not None:
        _counter().update_one({"company_id": company_id, "model": model}, {"$unset": {f"runs.{run}": ""}})


def seconds_left(company_id: int, model: str) -> int | None:
    """About how many seconds until the runs under way are written, at the pace each has kept; None when no run
    is under way or one has no pace yet."""
    doc = _counter().find_one({"company_id": company_id, "model": model}, {"_id": 0, "runs": 1}) or {}
    return time_left(doc.get("runs") or {}, utcnow())


def time_left(runs: dict[str, dict], now: datetime) -> int | None:
    """seconds_left of the runs a counter keeps ({run: {"started_at", "at", "total", "done"}}) at `now`."""
    live = [run for run in runs.values() if now - as_utc(run["at"]) < STALE]
    if not live or any(not run["done"] for run in live):
        return None
    return max(round((run["total"] - run["done"]) * (now - as_utc(run["started_at"])).total_seconds()
                     / run["done"]) for run in live)


def _counter():
    return EmbeddingCounter._get_collection()
