"""Who is told after a segmentation run: the stores derived from the snapshot (the vector index) once a run publishes,
and what follows a run (the segment history, events to other systems, alert checks) once it is stored.

Separate from the runs themselves because the packages above register here at start-up (core.service.startup and
the packages' setup modules) without needing anything of how a run is made, and every kind of run (full, import,
live, a lost snapshot's rebuild) tells the same subscribers.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from core.segmentation.models import SegmentRun

log = logging.getLogger(__name__)

Published = Callable[[int, list[str] | None], None]
_after_publish: list[Published] = []


def after_publish(callback: Published) -> None:
    """Call `callback(company_id, touched)` after every run publishes (touched None: every listener), so that stores
    derived from the snapshot (the vector index) follow it; registered at start-up by the packages above."""
    if callback not in _after_publish:
        _after_publish.append(callback)


def published(company_id: int, touched: list[str] | None) -> None:
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


def finished(run: SegmentRun) -> None:
    for callback in _after_run:
        try:
            callback(run)
        except Exception:  # noqa: BLE001 - the run is stored and published; what follows it must not fail it
            log.exception("after the run %s of company %s", run.run_id, run.company_id)
