"""The package's registrations at start-up (documents, jobs and run hooks), called by core.service.startup; its store of
personal values is declared where it lives (core.webhooks.producers)."""
from __future__ import annotations

from core.audiences import store as audiences
from core.db import queue
from core.segmentation import subscribers
from core.webhooks import delivery, producers
from core.webhooks import models as _models  # noqa: F401 - registers the package's documents
from core.webhooks.events import DELIVER_JOB


def register() -> None:
    """Register the package's jobs and hooks with the lower packages that offer registration points."""
    queue.register(DELIVER_JOB, queue.Kind(run=delivery.deliver_job, attempts=delivery.ATTEMPTS,
                                           backoff_s=delivery.BACKOFF_S))
    subscribers.after_run(producers.after_run)
    audiences.after_members_change(producers.after_members_change)
