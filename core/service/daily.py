"""Work the server does by itself once a day: the purge that makes erasure reach the disk, and a full segmentation
run of every station, because time alone moves listeners to at_risk and dormant.

A job is due when its time of day (in its zone: UTC for the purge, the station's own for its run) has passed and it
has not run since. Every worker process (core.service.worker) checks every minute, listing the stations anew
each time; a lease makes sure that only one process runs a job, and a job that ran (from a worker, the dashboard
or the CLI) is not run again until its next time.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.alerts.check import daily_check, last_checked
from core.alerts.store import stations_with_rules
from core.clock import as_utc, utcnow, zone_of
from core.config import Settings
from core.db.connection import UNAVAILABLE
from core.db.leases import lease
from core.errors import Conflict
from core.privacy import purge
from core.segmentation.leases import FULL_RUN_TTL, full_run_lease
from core.segmentation.overview import latest_run
from core.segmentation.runs import segment_company
from core.stations.companies import list_companies
from core.stations.models import Company

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DailyJob:
    """A job, the time of day it is due in its zone, when it last ran, and the lease it runs under."""

    name: str
    at: str  # HH:MM in `tz`
    run: Callable[[datetime], object]  # given the time of the round that found it due
    last_run: Callable[[], datetime | None]
    tz: str | None = "UTC"  # the purge's zone; a station's job gives the station's (None: the default station zone)
    lock: str = ""  # the lease's name; default daily:<name>
    ttl: timedelta = timedelta(minutes=30)

    def due(self, now: datetime) -> bool:
        """True when today's time has passed and the job has not run since."""
        hours, minutes = (int(part) for part in self.at.split(":"))
        local = as_utc(now).astimezone(zone_of(self.tz))
        today = local.replace(hour=hours, minute=minutes, second=0, microsecond=0)
        latest = today if today <= local else today - timedelta(days=1)
        last = self.last_run()
        return last is None or as_utc(last) < latest

    @property
    def lease_name(self) -> str:
        """The lease held while it runs."""
        return self.lock or f"daily:{self.name}"


def jobs_of(settings: Settings) -> list[DailyJob]:
    """The daily jobs these settings turn on (reads the stations: call it again to see new ones)."""
    jobs = []
    if settings.daily_purge:
        jobs.append(DailyJob("purge", settings.purge_at, lambda now: purge.purge(settings, actor="daily"),
                             purge.clean_since))
    if settings.daily_segmentation:
        jobs.extend(segmentation_job(company, settings.segment_at) for company in list_companies())
    jobs.extend(alerts_job(company, settings.alerts_at) for company in list_companies(stations_with_rules()))
    return jobs


def alerts_job(company: Company, at: str) -> DailyJob:
    """A station's daily check of its alert rules at `at` in its own zone, for the stations that have rules (a rule
    fires once a week at most, so a check after a run the same day adds nothing twice)."""
    company_id = company.company_id
    return DailyJob(f"alerts:{company_id}", at, lambda now: daily_check(company_id, now),
                    lambda: last_checked(company_id), tz=company.timezone)


def segmentation_job(company: Company, at: str) -> DailyJob:
    """A station's full run at `at` in its own zone, unless a full run as of that time or later exists (from cron, a
    producer's click or another process); under the lease of a click's run, so that the two never overlap."""
    company_id = company.company_id
    return DailyJob(f"segment:{company_id}", at, lambda now: segment_company(company_id, now),
                    lambda: _full_run_as_of(company_id), tz=company.timezone,
                    lock=full_run_lease(company_id), ttl=FULL_RUN_TTL)


def _full_run_as_of(company_id: int) -> datetime | None:
    """The time the station's newest full run profiled its listeners as of: how old its segments are."""
    run = latest_run(company_id, kind="full")
    return run.now if run else None


def run_due(jobs: list[DailyJob], now: datetime | None = None) -> list[str]:
    """Run every job that is due, one process at a time; returns the names of those that ran here."""
    now, ran = now or utcnow(), []
    for job in jobs:
        try:
            if job.due(now) and _run_here(job, now):
                ran.append(job.name)
        except UNAVAILABLE:
            raise  # the database is away: every other job would fail as well
        except Exception:  # noqa: BLE001 - one station's failure must not hold back the others; the log says why
            log.exception("daily job %s failed", job.name)
    return ran


def _run_here(job: DailyJob, now: datetime) -> bool:
    """Run the job under its lease; False when another process holds the lease or ran the job meanwhile."""
    try:
        with lease(job.lease_name, job.ttl, wait_s=0):
            if not job.due(now):  # another process ran it between this one's look and its lease
                return False
            job.run(now)
            return True
    except Conflict:
        return False
