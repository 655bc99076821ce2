"""Mokgosi FM's days before `now`, in station time: how busy each day is, which competition runs, which show airs."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np

from bench.other_station import catalogue as cat

HISTORY_DAYS = 396  # about 13 months
DAY = 86400


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


SLOTS = {slot: (set(days), _minutes(start), _minutes(end)) for slot, (_, days, start, end, _) in cat.SHOWS.items()}


def show_at(weekday: int, minute: int) -> int | None:
    """The timeslot on air at this ISO weekday and minute of the day, if any (hours with no show exist)."""
    for slot, (days, start, end) in SLOTS.items():
        if weekday in days and start <= minute < end:
            return slot
    return None


class Calendar:
    """Day k (0 = today, station time) back to HISTORY_DAYS: weekday, activity and competition of each day."""

    def __init__(self, now: datetime):
        zone = timezone(timedelta(hours=cat.OFFSET_HOURS))
        local = now.astimezone(zone)
        self.now = now.timestamp()
        self.midnight = local.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
        dates = [local.date() - timedelta(days=k) for k in range(HISTORY_DAYS)]
        self.weekday = np.array([d.isoweekday() for d in dates])
        month = np.array([d.month for d in dates])
        self.activity = (np.array([cat.MONTH_ACTIVITY[m] for m in month])
                         * np.array(cat.WEEKDAY_ACTIVITY[1:])[self.weekday - 1])
        self.keyword = [""] * HISTORY_DAYS
        self.jackpot = np.full(HISTORY_DAYS, -1)
        friday, word = cat.CASH_CALL
        for k in np.flatnonzero((self.weekday == friday) & (month != 12)).tolist():
            self.keyword[k] = word
        for j, (start, length, word) in enumerate(cat.JACKPOTS):
            for k in range(max(0, start - length + 1), min(start + 1, HISTORY_DAYS)):
                self.keyword[k], self.jackpot[k] = word, j
        self.activity[self.jackpot >= 0] *= 1.3
        self.competing = np.array([bool(word) for word in self.keyword])

    def airings(self, slot: int) -> np.ndarray:
        """The days (k) on which a show airs."""
        return np.flatnonzero(np.isin(self.weekday, list(SLOTS[slot][0])))

    def moment(self, k: int, minute: int, second: int) -> float:
        """Seconds since the epoch of minute `minute` of day k, moved a day back when it would fall after `now`."""
        t = self.midnight - k * DAY + minute * 60 + second
        return t - DAY if t > self.now else t

    def day_of(self, t: float) -> tuple[int, int, int]:
        """(k, ISO weekday, minute of the day) of a moment, in station time."""
        start = t - (t - self.midnight) % DAY
        k = min(int(round((self.midnight - start) / DAY)), HISTORY_DAYS - 1)
        return k, int(self.weekday[k]), int((t - start) // 60)
