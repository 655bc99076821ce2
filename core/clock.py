"""The one clock: every stored time is UTC; people read times in their station's zone.

`utcnow` is the only source of "now" in core, so that a test or a run with an earlier `now` can reason about time
without patching the system clock. `zone_of` is the only way to a zone: a station's zone by its name, with one
fallback, the default station zone, for a station whose zone is missing or unknown.
"""
from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

STATION_ZONE = "Africa/Johannesburg"
"""The zone of a station that names none (the spec's default, docs/decisions.md §4) or one that is unknown."""


@lru_cache(maxsize=64)
def zone_of(name: str | None) -> ZoneInfo:
    """A station's zone from its time zone name ("Africa/Johannesburg", "UTC"); a missing, empty or unknown name is
    the default station zone (STATION_ZONE), never UTC: a station that named no zone is a South African one."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo(STATION_ZONE)


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


def in_zone(moment: datetime, tz: str | None) -> datetime:
    """A time read in a station's zone: a naive time (a date typed by a person) is wall time there."""
    return moment.replace(tzinfo=zone_of(tz)) if moment.tzinfo is None else moment


def local_iso_from_epoch(seconds: int, tz: str | None) -> str | None:
    """Epoch seconds as ISO 8601 with the station's offset (what people read in exports), None for 0."""
    return from_epoch(seconds).astimezone(zone_of(tz)).isoformat() if seconds else None


def station_today(tz: str | None, now: datetime | None = None):
    """Today's date in the station's zone."""
    return as_utc(now).astimezone(zone_of(tz)).date()
