"""The locks of a station's segmentation: the lease every rewrite of its snapshot holds (runs, live batches), the
lease of the full runs the server starts, and which stations this thread holds or is rebuilding meanwhile.

Separate from the runs because the writers outside them (live batches, erasure, sealing a plain snapshot) take the
same lease, and the daily schedule and a producer's click name the same full-run lease, without making a run.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from datetime import timedelta

from core.db.leases import lease

FULL_RUN_TTL = timedelta(hours=2)
"""Longer than any full run; a process that died mid-run frees the station after it."""


def full_run_lease(company_id: int) -> str:
    """The lease a full run the server starts holds (a producer's click or the daily run), so that two of one station
    never overlap, whichever process starts them. The name predates the daily run; tests and live leases use it."""
    return f"dashboard-run:{company_id}"


@contextmanager
def segment_lease(company_id: int, wait_s: float = 600):
    """The lock of everything that rewrites the company's snapshot (runs, live batches), so that they never
    interleave and the last to publish is the last to have read. This thread is known to hold it meanwhile, so that
    a snapshot lost under it is rebuilt in place (core.segmentation.runs) rather than by waiting for the lock it
    holds."""
    with lease(f"segment:{company_id}", wait_s=wait_s), marked("held", company_id):
        yield


_local = threading.local()


@contextmanager
def marked(what: str, company_id: int):
    """This thread's set `what` ("held": segment leases, "rebuilding": lost snapshots) holds the company meanwhile."""
    setattr(_local, what, marks(what) | {company_id})
    try:
        yield
    finally:
        setattr(_local, what, marks(what) - {company_id})


def marks(what: str) -> frozenset[int]:
    return getattr(_local, what, frozenset())
