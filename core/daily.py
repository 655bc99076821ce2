"""Work the server does by itself once a day: today the purge that makes erasure reach the disk.

A job is due when its time of day (UTC) has passed and it has not run since. The server process checks every minute;
a lease makes sure that only one process runs a job, and a job that ran (from the server or from the CLI) is not
run again until its next time.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.clock import utcnow
from core.config import Settings
from core.db.connection import UNAVAILABLE
from core.db.leases import lease
from core.errors import Conflict
from core.privacy import purge

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DailyJob:
    """A job, the UTC time of day it is due, and when it last ran."""

    name: str
    at: str  # HH:MM, UTC
    run: Callable[[], object]
    last_run: Callable[[], datetime | None]

    def due(self, now: datetime) -> bool:
        """True when today's time has passed and the job has not run since."""
        hours, minutes = (int(part) for part in self.at.split(":"))
        today = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
        latest = today if today <= now else today - timedelta(days=1)
        last = self.last_run()
        return last is None or last < latest


def jobs_of(settings: Settings) -> list[DailyJob]:
    """The daily jobs these settings turn on."""
    jobs = []
    if settings.daily_purge:
        jobs.append(DailyJob("purge", settings.purge_at, lambda: purge.purge(settings, actor="daily"),
                             purge.last_purge))
    return jobs


def run_due(jobs: list[DailyJob], now: datetime | None = None) -> list[str]:
    """Run every job that is due, one process at a time; returns the names of those that ran here."""
    now, ran = now or utcnow(), []
    for job in jobs:
        if not job.due(now):
            continue
        try:
            with lease(f"daily:{job.name}", wait_s=0):
                if job.due(now):  # another process may have run it while this one waited for the lease
                    job.run()
                    ran.append(job.name)
        except Conflict:
            continue
    return ran


class DailyJobs(threading.Thread):
    """Checks every minute for due jobs, in the server process, for as long as it runs."""

    def __init__(self, jobs: list[DailyJob], interval: float = 60.0):
        super().__init__(name="daily-jobs", daemon=True)
        self.jobs, self.interval = jobs, interval
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(self.interval):
            try:
                for name in run_due(self.jobs):
                    log.info("daily job %s done", name)
            except UNAVAILABLE:  # the database is away: the next round tries again
                continue
            except Exception:  # noqa: BLE001 - a failed job must not end the thread; the log says why
                log.exception("a daily job failed")

    def stop(self) -> None:
        """Stop checking."""
        self._stopping.set()
