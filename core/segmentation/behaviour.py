"""Behavioural profiles of many listeners at once: one vectorised pass over all their interactions.

Every input of segments.md and every behavioural field the filters use is computed here, in the company's time
zone, from the interactions at or before `now` (a run with an earlier `now` sees the station as it was then).
Ties in "peak" fields go to the lowest value, as docs/decisions.md §4 says.

Beside the "used at all" members of shows, channels and campaign types, each listener's count of interactions per
value is kept (`*_counts`, uint16, held at 65,535): how much of their behaviour each is, which look-alikes are
measured by (core.search.behaviour_vectors), without reading any interaction again.
"""
from __future__ import annotations

from datetime import UTC, datetime

import holidays as holiday_calendars
import numpy as np

from core.clock import zone_of
from core.listeners.events import Events

DAY = 86400
DAYPARTS = ("overnight", "breakfast", "midmorning", "afternoon", "drive", "evening")
DAYPART_OF_HOUR = np.array([0] * 6 + [1] * 3 + [2] * 3 + [3] * 3 + [4] * 4 + [5] * 5, dtype=np.int8)
WEEKDAY_SHARE = 0.75
MOST = np.iinfo(np.uint16).max


def local_seconds(ts: np.ndarray, tz_name: str | None) -> np.ndarray:
    """Epoch seconds shifted to local wall-clock time; offsets looked up once per quarter hour, not per event."""
    if len(ts) == 0:
        return ts.copy()
    quarter, inverse = np.unique(ts // 900, return_inverse=True)
    tz = zone_of(tz_name)
    offsets = np.array([datetime.fromtimestamp(int(q) * 900, tz).utcoffset().total_seconds() for q in quarter],
                       dtype=np.int64)
    return ts + offsets[inverse.reshape(-1)]


def _counts(row: np.ndarray, codes: np.ndarray, n: int, width: int) -> np.ndarray:
    """n x width matrix: how many interactions of each listener fall in each code."""
    flat = row.astype(np.int64) * width + codes
    return np.bincount(flat, minlength=n * width).reshape(n, width)


def _distinct(row: np.ndarray, codes: np.ndarray, n: int) -> np.ndarray:
    """How many distinct codes each listener has."""
    if len(row) == 0:
        return np.zeros(n, dtype=np.int64)
    pairs = np.unique(row.astype(np.int64) << 32 | codes.astype(np.int64))
    return np.bincount((pairs >> 32).astype(np.int64), minlength=n)


def _peak(row, codes, n, width, offset=0) -> np.ndarray:
    """The code with most interactions per listener (lowest on ties), plus offset; -1 with no interactions."""
    if width == 0:
        return np.full(n, -1, dtype=np.int16)
    counts = _counts(row, codes, n, width)
    return np.where(counts.sum(axis=1) > 0, counts.argmax(axis=1) + offset, -1).astype(np.int16)


def _held(row, codes, n, width) -> np.ndarray:
    """n x width uint16 counts (held at MOST: a listener past it is not a person, and its shares barely move)."""
    return np.minimum(_counts(row, codes, n, width), MOST).astype(np.uint16)


def _membership(row, codes, n, width) -> np.ndarray:
    """n x width booleans: the listener has at least one interaction with that code."""
    matrix = np.zeros((n, width), dtype=bool)
    matrix[row, codes] = True
    return matrix


def _holiday_codes(local_day: np.ndarray, country: str) -> tuple[np.ndarray, list[str]]:
    """Per interaction the index of its public holiday in the returned names (-1 on ordinary days)."""
    if len(local_day) == 0:
        return np.full(0, -1, dtype=np.int32), []
    years = range(int(np.datetime64(int(local_day.min()), "D").astype("datetime64[Y]").astype(int)) + 1970,
                  int(np.datetime64(int(local_day.max()), "D").astype("datetime64[Y]").astype(int)) + 1971)
    calendar = holiday_calendars.country_holidays(country, years=list(years))
    names = sorted(set(calendar.values()))
    code_of_day = {int(np.datetime64(day, "D").astype(np.int64)): names.index(name) for day, name in calendar.items()}
    days, inverse = np.unique(local_day, return_inverse=True)
    day_codes = np.array([code_of_day.get(int(d), -1) for d in days], dtype=np.int32)
    return day_codes[inverse.reshape(-1)], names


def profile(events: Events, now: datetime, tz_name: str | None, country: str, timeslot_vocab: list[int],
            channel_vocab: list[int]) -> dict:
    """Per-listener behavioural columns for `events.originators`, in that order (see module docstring)."""
    now_s = int(now.astimezone(UTC).timestamp())
    keep = events.ts <= now_s
    row, ts = events.row[keep], events.ts[keep]
    channel, campaign, timeslot = events.channel[keep], events.campaign[keep], events.timeslot[keep]
    n = len(events.originators)
    local = local_seconds(ts, tz_name)
    cols = _windows(row, ts, local, channel, campaign, events.campaign_vocab, timeslot, n, now_s)
    cols.update(_time_patterns(row, local, n, country))
    cols.update(_channels_and_shows(row, channel, timeslot, n, timeslot_vocab, channel_vocab))
    cols["campaign_types"] = (list(events.campaign_vocab),
                              _membership(row, campaign, n, len(events.campaign_vocab)))
    cols["campaign_counts"] = (list(events.campaign_vocab), _held(row, campaign, n, len(events.campaign_vocab)))
    return cols


def rule_inputs(events: Events, now: datetime, local: np.ndarray) -> dict:
    """The inputs of the segment rules (and nothing else) of every listener of `events` as of `now`, from their
    interactions at or before it; `local` is `local_seconds(events.ts, tz)`, computed once by a caller that asks
    for many `now`s (a station's past rebuilt week by week, core.history)."""
    now_s = int(now.astimezone(UTC).timestamp())
    keep = events.ts <= now_s
    return _windows(events.row[keep], events.ts[keep], local[keep], events.channel[keep], events.campaign[keep],
                    events.campaign_vocab, events.timeslot[keep], len(events.originators), now_s)


def _windows(row, ts, local, channel, campaign, campaign_vocab, timeslot, n, now_s) -> dict:
    """Counts, recency and the other inputs of the segment rules."""
    age = now_s - ts
    in30, in90 = age < 30 * DAY, age < 90 * DAY
    prev30 = (age >= 30 * DAY) & (age < 60 * DAY)
    n_total = np.bincount(row, minlength=n)
    first = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    last = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(first, row, ts)
    np.maximum.at(last, row, ts)
    has = n_total > 0
    comp_code = campaign_vocab.index("competition") if "competition" in campaign_vocab else -1
    comp = np.bincount(row, weights=(campaign == comp_code), minlength=n)
    shows90 = in90 & (timeslot >= 0)
    return {
        "n_total": n_total.astype(np.int32),
        "n_30": np.bincount(row[in30], minlength=n).astype(np.int32),
        "n_prev30": np.bincount(row[prev30], minlength=n).astype(np.int32),
        "n_90": np.bincount(row[in90], minlength=n).astype(np.int32),
        "channels_30": _distinct(row[in30], channel[in30], n).astype(np.int16),
        "competition_share": np.divide(comp, n_total, out=np.zeros(n), where=has),
        "top_show_share_90": _top_share(row[shows90], timeslot[shows90], n),
        "first_ts": np.where(has, first, 0),
        "last_ts": np.where(has, last, 0),
        "since_first_days": np.where(has, (now_s - first) / DAY, np.inf),
        "recency_days": np.where(has, (now_s - last) / DAY, np.inf),
        "active_weeks_90": _distinct(row[in90], _local_week(local[in90]), n).astype(np.int16),
    }


def _local_week(ts: np.ndarray) -> np.ndarray:
    """Monday-based week number (one per ISO week) of UTC seconds already shifted to local time."""
    return (ts // DAY + 3) // 7


def _top_share(row, slots, n) -> np.ndarray:
    """Largest count for one show over the number of interactions with a show (0 when none)."""
    if len(row) == 0:
        return np.zeros(n)
    keys, counts = np.unique(row.astype(np.int64) << 32 | slots.astype(np.int64), return_counts=True)
    owners = (keys >> 32).astype(np.int64)
    top = np.zeros(n, dtype=np.int64)
    np.maximum.at(top, owners, counts)
    total = np.bincount(owners, weights=counts, minlength=n)
    return np.divide(top, total, out=np.zeros(n), where=total > 0)


def _time_patterns(row, local, n, country) -> dict:
    """Peak hour, daypart, day of week and month, weekday pattern and public holidays, in local time."""
    day = local // DAY
    hour = ((local % DAY) // 3600).astype(np.int64)
    dow = (day + 3) % 7  # 0 = Monday
    month = day.astype("datetime64[D]").astype("datetime64[M]").astype(np.int64) % 12
    holiday, names = _holiday_codes(day, country)
    on_holiday = holiday >= 0
    n_total = np.bincount(row, minlength=n)
    weekday = np.bincount(row, weights=dow < 5, minlength=n)
    return {
        "peak_hour": _peak(row, hour, n, 24),
        "peak_time_of_day": _peak(row, DAYPART_OF_HOUR[hour].astype(np.int64), n, len(DAYPARTS)),
        "primary_day_of_week": _peak(row, dow, n, 7, offset=1),
        "peak_month": _peak(row, month, n, 12, offset=1),
        "weekday_pattern": (n_total > 0) & (weekday >= WEEKDAY_SHARE * n_total),
        "public_holidays": (names, _membership(row[on_holiday], holiday[on_holiday], n, len(names))),
    }


def _channels_and_shows(row, channel, timeslot, n, timeslot_vocab, channel_vocab) -> dict:
    """Channels used, the primary one, shows listened to and the most listened show."""
    channels = sorted(set(channel_vocab) | set(np.unique(channel).tolist()))
    channel_code = np.searchsorted(channels, channel)
    shows = sorted(set(timeslot_vocab) | set(np.unique(timeslot[timeslot >= 0]).tolist()))
    with_show = timeslot >= 0
    show_code = np.searchsorted(shows, timeslot[with_show])
    primary = _peak(row, channel_code, n, len(channels))
    top_show = _peak(row[with_show], show_code, n, len(shows))
    return {
        "channels": (channels, _membership(row, channel_code, n, len(channels))),
        "primary_channel": np.where(primary >= 0, np.array(channels + [0])[primary], 0).astype(np.int16),
        "timeslots": (shows, _membership(row[with_show], show_code, n, len(shows))),
        "channel_counts": (channels, _held(row, channel_code, n, len(channels))),
        "timeslot_counts": (shows, _held(row[with_show], show_code, n, len(shows))),
        "top_timeslot": np.where(top_show >= 0, np.array(shows + [-1])[top_show], -1).astype(np.int32),
    }
