"""The package's registrations at start-up (documents, jobs, run and erasure hooks), called by core.startup."""
from __future__ import annotations

from core.webhooks import models as _models  # noqa: F401 - registers the package's documents


def register() -> None:
    """Register the package's jobs and hooks with the lower packages that offer registration points."""
