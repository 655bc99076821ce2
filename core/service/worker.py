"""The worker process (`flask --app wsgi worker`): every background job of the service, so that web processes only
answer requests. Any number of workers may run, on any hosts sharing the database: jobs are claimed one at a time
under leases (core.db.queue), the daily jobs run under leases of their own (core.service.daily), and a worker killed
mid-job leaves its lease to run out and another worker to do the job.

What a worker does, round after round:
- the oldest due job of the queue (embedding the listeners a run touched, and the kinds later packages register);
- every minute, the daily jobs that are due (each station's full run, the purge), and the sweep of uploads: those
  left waiting for their mapping past their hour, and any file of this host's uploads that no job holds, deleted
  (an upload names listeners);
- at start, a catch-up: erasures a killed process left under way are finished, and every station's embedding is
  queued once, for whatever was written before it ran.
A job is kept claimed while it runs (its lease renewed from a thread), and a stop request (SIGTERM) lets the job
under way finish, then gives nothing else a start.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from core.config import Settings, active
from core.db import queue
from core.db.connection import UNAVAILABLE
from core.db.leases import lease
from core.errors import Conflict
from core.ingest.staging import sweep_uploads
from core.logs import current_request_id
from core.privacy.erasure import resume_erasures
from core.service.daily import jobs_of, run_due
from core.stations.companies import list_companies

log = logging.getLogger(__name__)

POLL_S = 1.0
DAILY_EVERY_S = 60.0


def _log_end(job: dict, state: str, seconds: float, error: str | None) -> None:
    """One line per attempt: INFO when done; a failure at WARNING with its words and whether it is tried again,
    since a receiver that is down fails every retry for a day (the traceback is at DEBUG, logged where it failed)."""
    if error is None:
        log.info("job %s %s %s in %.1fs", job["kind"], job["key"], state, seconds)
        return
    then = "tried again later" if state == "queued" else "given up"
    log.warning("job %s %s failed (attempt %d, %s) in %.1fs: %s", job["kind"], job["key"], job.get("attempts", 1),
                then, seconds, error)

class Worker:
    """One worker: its name (unique across hosts), what it has done, and how to stop it."""

    def __init__(self, settings: Settings, poll_s: float = POLL_S, daily_every_s: float = DAILY_EVERY_S):
        self.settings, self.poll_s, self.daily_every_s = settings, poll_s, daily_every_s
        self.name = queue.worker_name()
        self.done: dict[str, int] = {}
        self.stopping = threading.Event()

    def run(self, on_job: Callable[[dict, str, float], None] | None = None) -> None:
        """Work until `stop`: jobs as they come, daily jobs every minute, after a catch-up."""
        self.catch_up()
        next_daily = 0.0
        while not self.stopping.is_set():
            try:
                if time.monotonic() >= next_daily:
                    next_daily = time.monotonic() + self.daily_every_s
                    for name in run_due(jobs_of(self.settings)):
                        log.info("daily job %s done", name)
                    self.finish_erasures()
                    self.sweep()
                if not self.work_once(on_job):
                    self.stopping.wait(self.poll_s)
            except UNAVAILABLE:  # the database is away: try again in a moment, lose nothing
                self.stopping.wait(self.poll_s)

    def stop(self) -> None:
        """Finish the job under way, then stop."""
        self.stopping.set()

    def sweep(self) -> None:
        """Delete the uploads no job holds any more (core.ingest.staging); a failure is logged, and the next round
        sweeps again."""
        try:
            removed = sweep_uploads(self.settings.data_dir)
        except UNAVAILABLE:
            raise
        except Exception as failure:  # noqa: BLE001 - the jobs must go on; the log says why, without values
            log.warning("the sweep of uploads failed: %s (at %s)", queue.failure_of(failure),
                        queue.trace_of(failure))
            return
        if removed:
            log.info("%d uploads that no job holds deleted", removed)

    def catch_up(self) -> None:
        """Finish the erasures a killed process left under way, then queue each station's embedding once (whatever
        was written before any worker ran), under a short lease so that several workers starting together queue it
        once; not when the settings say listeners are not embedded in the background (AUTO_EMBED=false)."""
        try:
            self.finish_erasures()
        except UNAVAILABLE:
            log.warning("the database did not answer; erasures under way wait for the next round")
        if not active().auto_embed:
            return
        try:
            with lease("worker:catch-up", wait_s=0):
                for company in list_companies():
                    queue.enqueue("embed", f"embed:{company.company_id}",
                                  {"company_id": company.company_id, "originators": None})
        except Conflict:
            pass  # another worker is queueing it right now
        except UNAVAILABLE:
            log.warning("the database did not answer; the catch-up waits for the next start")

    def finish_erasures(self) -> None:
        """Finish the erasures a killed process left under way, once their lease has run out (core.privacy.erasure)."""
        for receipt in resume_erasures():
            log.info("an erasure cut short was finished: %s", receipt["pseudonym"])

    def work_once(self, on_job: Callable[[dict, str, float], None] | None = None) -> bool:
        """Claim and work one due job; False when none was due."""
        job = queue.claim(self.name, list(queue.kinds()))
        if job is None:
            return False
        started, renewing = time.monotonic(), threading.Event()
        keeper = threading.Thread(target=self._keep, args=(job, renewing), daemon=True, name="job-lease")
        keeper.start()
        error, asked_by = None, current_request_id.set(job.get("request_id"))
        try:
            log.debug("job %s %s started", job["kind"], job["key"])
            queue.kinds()[job["kind"]].run(job.get("payload") or {})
        except UNAVAILABLE:
            raise  # the lease runs out and the job is taken again once the database is back
        except Exception as failure:  # noqa: BLE001 - a failed job is tried again later; the worker goes on
            error = queue.failure_of(failure)  # its words may repeat a listener's value: logged without
            log.debug("job %s %s traceback (code lines only):\n%s", job["kind"], job["key"],
                      queue.traceback_of(failure))
        finally:
            renewing.set()
            keeper.join()
            current_request_id.reset(asked_by)
        state = queue.finish(job, error)
        seconds = time.monotonic() - started
        self.done[job["kind"]] = self.done.get(job["kind"], 0) + 1
        if on_job:
            on_job(job, state, seconds)
        _log_end(job, state, seconds, error)
        return True

    def work_until_idle(self, limit: int = 1000) -> int:
        """Work every due job (tests and `flask --app wsgi worker --once`); how many were worked."""
        worked = 0
        while worked < limit and self.work_once():
            worked += 1
        return worked

    def _keep(self, job: dict, done: threading.Event) -> None:
        """Renew the job's lease until it is done; give up when another worker took it over."""
        while not done.wait(queue.lease_length().total_seconds() / 4):
            try:
                if not queue.renew(job):
                    log.warning("job %s %s was taken over by another worker", job["kind"], job["key"])
                    return
            except UNAVAILABLE:
                continue
