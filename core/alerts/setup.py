"""The package's registrations at start-up (documents, jobs, run hooks), called by core.service.startup."""
from __future__ import annotations

from core.alerts import check, delivery
from core.alerts import models as _models  # noqa: F401 - registers the package's documents
from core.db import queue
from core.segmentation import subscribers


def register() -> None:
    """Register the package's jobs and hooks with the lower packages that offer registration points: the check after
    each run (core.service.startup registers history's hook first, so a full run's point exists when the rules
    read it), and the worker's mail jobs."""
    subscribers.after_run(check.after_run)
    queue.register(delivery.MAIL_JOB, queue.Kind(run=delivery.mail_job))
