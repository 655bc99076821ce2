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

from core.churn.features import most_on_one
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
    quarter = ts // 900
    first, span = int(quarter.min()), int(quarter.max() - quarter.min()) + 1
    if span > MOST_QUARTERS:  # times centuries apart: each quarter that holds one, looked up
        held, inverse = np.unique(quarter, return_inverse=True)
        return ts + _offsets(held, zone_of(tz_name))[inverse.reshape(-1)]
    return ts + _quarter_offsets(first, span, zone_of(tz_name))[quarter - first]


MOST_QUARTERS = 4_000_000
"""Quarter hours (114 years) up to which `local_seconds` tables every quarter of its times' span: a table is read
in one pass, where finding the quarters that hold a time sorts 20 million of them at a million listeners."""


def _offsets(quarters: np.ndarray, tz) -> np.ndarray:
    """The zone's offset from UTC, in seconds, at the start of each of these quarter hours."""
    return np.array([datetime.fromtimestamp(int(q) * 900, tz).utcoffset().total_seconds() for q in quarters],
                    dtype=np.int64)


def _quarter_offsets(first: int, span: int, tz) -> np.ndarray:
    """The offset of each of `span` quarter hours from quarter `first`: looked up at the first and last quarter of
    each day, and quarter by quarter only on a day where they differ (a change of clocks)."""
    starts = first + 96 * np.arange(-(-span // 96))  # day d holds quarters 96d .. 96d + 95 from `first`
    begin, end = _offsets(starts, tz), _offsets(starts + 95, tz)
    table = np.repeat(begin, 96)
    for day in np.flatnonzero(begin != end).tolist():
        table[96 * day:96 * day + 96] = _offsets(starts[day] + np.arange(96), tz)
    return table[:span]


def _counts(row: np.ndarray, codes: np.ndarray, n: int, width: int) -> np.ndarray:
    """n x width matrix: how many interactions of each listener fall in each code."""
    flat = row.astype(np.int64, copy=False) * width + codes
    return np.bincount(flat, minlength=n * width).reshape(n, width)


def _distinct(row: np.ndarray, codes: np.ndarray, n: int) -> np.ndarray:
    """How many distinct codes each listener has: marks in a listener x code table when the codes span few values
    (channels, the weeks of 90 days), which is one pass where sorting the pairs is many."""
    if len(row) == 0:
        return np.zeros(n, dtype=np.int64)
    low, width = int(codes.min()), int(codes.max() - codes.min()) + 1
    if width * n <= MOST_MARKS:
        marks = np.zeros(n * width, dtype=bool)
        marks[row.astype(np.int64, copy=False) * width + (codes - low)] = True
        return marks.reshape(n, width).sum(axis=1)
    pairs = np.unique(row.astype(np.int64) << 32 | codes.astype(np.int64))
    return np.bincount((pairs >> 32).astype(np.int64), minlength=n)


MOST_MARKS = 200_000_000
"""Listener x code marks (bytes) `_distinct` may table: 200 codes at a million listeners."""


def _peak(row, codes, n, width, offset=0) -> np.ndarray:
    """The code with most interactions per listener (lowest on ties), plus offset; -1 with no interactions."""
    return _peak_of(_counts(row, codes, n, width), offset)


def _peak_of(counts: np.ndarray, offset: int = 0) -> np.ndarray:
    """`_peak` of a listener x code table of counts."""
    if counts.shape[1] == 0:
        return np.full(len(counts), -1, dtype=np.int16)
    return np.where(counts.sum(axis=1) > 0, counts.argmax(axis=1) + offset, -1).astype(np.int16)


def _held_of(counts: np.ndarray) -> np.ndarray:
    """n x width uint16 counts (held at MOST: a listener past it is not a person, and its shares barely move)."""
    return np.minimum(counts, MOST).astype(np.uint16)


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
    first = int(local_day.min())
    day_codes = np.array([code_of_day.get(day, -1) for day in range(first, int(local_day.max()) + 1)],
                         dtype=np.int32)  # a table of every day from the first: years of days, not events
    return day_codes[local_day - first], names


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
    by_campaign = _counts(row, campaign, n, len(events.campaign_vocab))
    cols["campaign_types"] = (list(events.campaign_vocab), by_campaign > 0)
    cols["campaign_counts"] = (list(events.campaign_vocab), _held_of(by_campaign))
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
    total = np.bincount(row, minlength=n)
    return np.divide(most_on_one(row, slots, n), total, out=np.zeros(n), where=total > 0)


def _time_patterns(row, local, n, country) -> dict:
    """Peak hour, daypart, day of week and month, weekday pattern and public holidays, in local time."""
    day = local // DAY
    hour = ((local % DAY) // 3600).astype(np.int64)
    dow = (day + 3) % 7  # 0 = Monday
    month = _month_of_days(int(day.min()), int(day.max()))[day - day.min()] if len(day) else day
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


def _month_of_days(first: int, last: int) -> np.ndarray:
    """The month (0 = January) of each day from `first` to `last` (days since 1970): a table of days, read per
    interaction, rather than a calendar sum per interaction."""
    return np.arange(first, last + 1).astype("datetime64[D]").astype("datetime64[M]").astype(np.int64) % 12


def _channels_and_shows(row, channel, timeslot, n, timeslot_vocab, channel_vocab) -> dict:
    """Channels used, the primary one, shows listened to and the most listened show: each from one table of counts
    per listener."""
    channels = sorted(set(channel_vocab) | set(np.unique(channel).tolist()))
    shows = sorted(set(timeslot_vocab) | set(np.unique(timeslot[timeslot >= 0]).tolist()))
    with_show = timeslot >= 0
    by_channel = _counts(row, _coded(channel, channels), n, len(channels))
    by_show = _counts(row[with_show], _coded(timeslot[with_show], shows), n, len(shows))
    primary, top_show = _peak_of(by_channel), _peak_of(by_show)
    return {
        "channels": (channels, by_channel > 0),
        "primary_channel": np.where(primary >= 0, np.array(channels + [0])[primary], 0).astype(np.int16),
        "timeslots": (shows, by_show > 0),
        "channel_counts": (channels, _held_of(by_channel)),
        "timeslot_counts": (shows, _held_of(by_show)),
        "top_timeslot": np.where(top_show >= 0, np.array(shows + [-1])[top_show], -1).astype(np.int32),
    }


def _coded(values: np.ndarray, vocab: list[int]) -> np.ndarray:
    """Each value's position in the sorted `vocab`, which holds it: read from a table of positions when the values
    are small whole numbers (channels, show ids), else by bisection."""
    if vocab and 0 <= vocab[0] and vocab[-1] < MOST_TABLED:
        table = np.zeros(vocab[-1] + 1, dtype=np.int64)
        table[vocab] = np.arange(len(vocab))
        return table[values]
    return np.searchsorted(vocab, values)


MOST_TABLED = 1_000_000
"""The largest channel or show id `_coded` reads from a table of positions (8 MB)."""
