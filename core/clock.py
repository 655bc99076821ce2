"""The one clock: every stored time is UTC; people read times in their station's zone.

`utcnow` is the only source of "now" in core, so that a test or a run with an earlier `now` can reason about time
without patching the system clock.
"""
from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Timezone-aware now; every stored time is UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime | None) -> datetime:
    """A time as aware UTC; a naive time is taken as UTC, and None as now."""
    if moment is None:
        return utcnow()
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def from_epoch(seconds: int) -> datetime:
    """Epoch seconds as an aware UTC time."""
    return datetime.fromtimestamp(int(seconds), UTC)


def iso_from_epoch(seconds: int) -> str | None:
    """Epoch seconds as ISO 8601 UTC, None for 0 (the columns' "never")."""
    return from_epoch(seconds).isoformat() if seconds else None
