"""What a period of the history counts as new: the listeners heard for the first time in it (their first interaction
falls in it), never those a segmentation run happened to count for the first time. A station's first full run, or a
run after a lost snapshot, segments every listener for the first time; none of them is new unless first heard then.

The rebuilt weeks (core.history.rebuild) and the runs' points (core.history.record) both count new listeners here.
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

import numpy as np

from core.clock import as_utc, zone_of
from core.history.models import HistoryPoint


def first_heard(first_ts: np.ndarray, since: datetime | None, until: datetime) -> np.ndarray:
    """Which listeners were heard for the first time after `since` (None: ever) and at or before `until`, from their
    first interaction's epoch seconds (0: never heard)."""
    after = int(as_utc(since).timestamp()) if since is not None else 0
    return (first_ts > after) & (first_ts <= int(as_utc(until).timestamp()))


def week_start(day: date, tz: str) -> datetime:
    """Monday 00:00 in the station's zone of the ISO week holding `day`: where the weekly trends' periods begin."""
    monday = day - timedelta(days=day.weekday())
    return datetime.combine(monday, time(0), tzinfo=zone_of(tz))


def period_start(company_id: int, day: date, tz: str) -> datetime:
    """Where the period a run's point for `day` stands for begins: the moment of the point before it (the day before
    or earlier), but never before its week began, so that a week's new listeners are those first heard in that week
    even after weeks without a point."""
    before = HistoryPoint._get_collection().find_one(
        {"company_id": company_id, "date": {"$lt": day.isoformat()}}, {"_id": 0, "as_of": 1}, sort=[("date", -1)])
    start = week_start(day, tz)
    return max(start, as_utc(before["as_of"])) if before else start
