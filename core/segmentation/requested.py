"""Segmentation runs a producer starts from the dashboard: one at a time per station, in the background, watched.

One at a time by a lease in the database (core.db.leases), not a lock of this process: gunicorn runs several
workers and any of them may get the second click. The run works in a daemon thread of the worker that took the
click; its progress goes to a document, so that any worker can answer the page's polls.
The server's daily run of the station (core.service.daily) holds the same lease, so the two never overlap either.
"""
from __future__ import annotations

import logging
import threading

from mongoengine import DateTimeField, Document, IntField, ListField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.db.leases import release, try_lease
from core.errors import Conflict
from core.segmentation.leases import FULL_RUN_TTL, full_run_lease
from core.segmentation.overview import latest_run
from core.segmentation.runs import segment_company
from core.stations.companies import get_company

log = logging.getLogger(__name__)


@stored
class SegmentJob(Document):
    """A run asked for from the dashboard: who asked, its state (running, done, failed) and its steps so far."""

    company_id = IntField(required=True)
    actor = StringField(default="")
    state = StringField(default="running")
    steps = ListField(StringField())
    started_at = DateTimeField(default=utcnow)
    finished_at = DateTimeField()
    meta = {"collection": "segment_jobs", "indexes": [("company_id", "-started_at")]}


class SegmentationBusy(Conflict):
    """A run of this station is already under way."""


def start_segmentation(company_id: int, actor: str = "", wait: bool = False) -> SegmentJob:
    """Start a full run of the station in the background; SegmentationBusy while another dashboard run holds it.
    `wait` joins the thread (tests, the CLI)."""
    get_company(company_id)
    name = full_run_lease(company_id)
    token = try_lease(name, FULL_RUN_TTL)
    if token is None:
        raise SegmentationBusy("A segmentation of this station is already running.")
    job = SegmentJob(company_id=company_id, actor=actor).save()
    worker = threading.Thread(target=_work, args=(job, name, token), daemon=True, name=f"segment-{company_id}")
    worker.start()
    if wait:
        worker.join()
    return job


def _work(job: SegmentJob, name: str, token: str) -> None:
    """The run itself; whatever happens, the job says how it ended and the lease is given back."""
    def step(message: str) -> None:
        SegmentJob.objects(id=job.id).update_one(push__steps=message)

    state = "failed"
    try:
        segment_company(job.company_id, progress=step)
        state = "done"
    except Exception:  # noqa: BLE001 - the page must learn that it failed; the log keeps why
        log.exception("dashboard segmentation of company %s failed", job.company_id)
        step("the run failed; the previous segments stay in place")
    finally:
        SegmentJob.objects(id=job.id).update_one(set__state=state, set__finished_at=utcnow())
        release(name, token)


def segmentation_status(company_id: int) -> dict:
    """What the overview shows of runs: the latest dashboard job (with its steps) and when the last full run finished
    (from the dashboard, the daily run or the CLI: the one that aged every listener, not an import's partial run)."""
    job = SegmentJob.objects(company_id=company_id).order_by("-started_at").first()
    run = latest_run(company_id, kind="full")
    return {"job": None if job is None else {"state": job.state, "steps": list(job.steps),
                                            "started_at": job.started_at.isoformat(), "actor": job.actor},
            "running": job is not None and job.state == "running",
            "last_finished": run.finished_at.isoformat() if run and run.finished_at else None}
