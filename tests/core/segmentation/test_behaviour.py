"""Behavioural profiles over interactions built in memory: every input of segments.md and every behavioural field,
in the station's time zone, with ties to the lowest value (docs/decisions.md §4). No database."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import numpy as np
import pytest

from core.clock import zone_of
from core.segmentation import behaviour
from core.segmentation.behaviour import local_seconds
from tests.memory import column, event, snapshot_of

SAST = timezone(timedelta(hours=2))


def person(originator: str, events: list[dict], **declared) -> dict:
    """A listener document with its interactions."""
    return {"originator": originator, "events": events, **declared}


def at_local(day: datetime, hour: int, minute: int = 0) -> dict:
    """An event at a local (SAST) wall-clock time on `day`."""
    return {"t": day.replace(hour=hour, minute=minute, tzinfo=SAST).astimezone(UTC), "channel": 1,
            "campaign": "poll", "timeslot": None, "message": None}


@pytest.mark.parametrize("days_ago, expected", [(7, "new_listener"), (8, "occasional_engager")])
def test_first_interaction_on_day_7_is_new_and_on_day_8_is_not(days_ago, expected):
    snap = snapshot_of([person("a", [event(days_ago), event(1)])])
    assert column(snap, "segment", "a") == expected


def test_interaction_exactly_30_days_ago_counts_in_the_month_before():
    snap = snapshot_of([person("a", [event(30), event(29.99)])])
    assert (column(snap, "n_30", "a"), column(snap, "n_prev30", "a")) == (1, 1)


def test_interactions_after_now_are_ignored():
    snap = snapshot_of([person("a", [event(40), event(-5)])])
    assert column(snap, "n_total", "a") == 1
    assert column(snap, "segment", "a") == "at_risk"


def test_seven_of_ten_competition_entries_make_a_chaser():
    snap = snapshot_of([
        person("a", [event(20 + i, campaign="competition") for i in range(7)] + [event(20 + i) for i in range(3)]),
        person("b", [event(20 + i, campaign="competition") for i in range(69)] + [event(20 + i) for i in range(31)])])
    assert column(snap, "segment", "a") == "competition_chaser"
    assert column(snap, "segment", "b") != "competition_chaser"


def test_peak_hour_and_daypart_are_in_the_company_time_zone():
    day = datetime(2026, 11, 10)
    snap = snapshot_of([person("a", [at_local(day, 7, 30), at_local(day, 7, 45), at_local(day, 13)])])
    assert column(snap, "peak_hour", "a") == 7
    assert column(snap, "peak_time_of_day", "a") == "breakfast"


def test_peak_ties_go_to_the_lowest_value():
    day = datetime(2026, 11, 10)  # a Tuesday
    snap = snapshot_of([person("a", [at_local(day, 20), at_local(day, 6), at_local(day + timedelta(days=1), 6),
                                     at_local(day + timedelta(days=1), 20)])])
    assert column(snap, "peak_hour", "a") == 6
    assert column(snap, "primary_day_of_week", "a") == 2


def test_primary_channel_tie_goes_to_the_lowest_channel():
    snap = snapshot_of([person("a", [event(1, channel=5), event(2, channel=2), event(3, channel=5),
                                     event(4, channel=2)])])
    assert column(snap, "primary_channel", "a") == 2
    assert column(snap, "channels", "a") == [2, 5]


@pytest.mark.parametrize("weekdays, expected", [(3, True), (2, False)])
def test_weekday_pattern_needs_75_percent_monday_to_friday(weekdays, expected):
    monday, saturday = datetime(2026, 11, 9), datetime(2026, 11, 14)
    snap = snapshot_of([person("a", [at_local(monday, 10)] * weekdays + [at_local(saturday, 10)])])
    assert column(snap, "weekday_pattern", "a") is expected


def test_public_holiday_is_named_in_the_company_country():
    snap = snapshot_of([person("a", [at_local(datetime(2026, 9, 24), 9), at_local(datetime(2026, 9, 25), 9)])])
    assert column(snap, "public_holidays", "a") == ["Heritage Day"]


def test_active_weeks_are_local_iso_weeks():
    # Sunday 23:30 local is still the old ISO week although it is Sunday 21:30 UTC; Monday 00:30 local is the next
    sunday, monday = datetime(2026, 11, 15), datetime(2026, 11, 16)
    snap = snapshot_of([person("a", [at_local(sunday, 23, 30), at_local(monday, 0, 30)]),
                        person("b", [at_local(monday, 0, 30), at_local(monday, 1, 30)])])
    assert column(snap, "active_weeks_90", "a") == 2
    assert column(snap, "active_weeks_90", "b") == 1


def test_a_loyal_weekly_show_listener_is_a_show_loyalist():
    snap = snapshot_of([person("a", [event(9 + 7 * w, timeslot=3) for w in range(5)] + [event(100)])], timeslots=[3])
    assert column(snap, "segment", "a") == "show_loyalist"
    assert column(snap, "timeslots", "a") == [3]


def test_profile_only_listener_with_no_interactions_is_dormant():
    snap = snapshot_of([person("a", [], name="Thandi")])
    assert column(snap, "segment", "a") == "dormant"


@pytest.mark.parametrize("tz", ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", None])
def test_local_time_is_each_moments_own_offset_across_changes_of_clocks(tz, monkeypatch):
    """Moments over six years, and every few seconds around London's change of clocks of 28 March 2021, shifted by
    the zone's offset at each one: through the table of quarter hours, and through the quarters looked up one by one
    (what times centuries apart take)."""
    rng = np.random.default_rng(7)
    ts = np.concatenate([rng.integers(1_600_000_000, 1_790_000_000, 5_000),
                         1_616_893_200 + np.arange(-3_600, 3_600, 7)])
    zone = zone_of(tz)
    offsets = [datetime.fromtimestamp(int(moment), zone).utcoffset().total_seconds() for moment in ts]
    expected = ts + np.array(offsets, dtype=np.int64)
    assert (local_seconds(ts, tz) == expected).all()
    monkeypatch.setattr(behaviour, "MOST_QUARTERS", 10)
    assert (local_seconds(ts, tz) == expected).all()


def test_distinct_values_per_listener_are_counted_alike_by_table_and_by_sorting(monkeypatch):
    rng = np.random.default_rng(3)
    row, codes = rng.integers(0, 50, 2_000), rng.integers(2, 14, 2_000)
    tabled = behaviour._distinct(row, codes, 60)
    monkeypatch.setattr(behaviour, "MOST_MARKS", 0)
    expected = [len(set(codes[row == listener].tolist())) for listener in range(60)]
    assert tabled.tolist() == behaviour._distinct(row, codes, 60).tolist() == expected


def test_peak_month_is_the_local_month():
    """Two interactions in the first half hour of 1 January, local time (still 31 December in UTC), one on 31 December:
    January is the peak month, 1."""
    new_year = datetime(2026, 1, 1)
    events = [at_local(new_year, 0, 10), at_local(new_year, 0, 20), at_local(datetime(2025, 12, 31), 21)]
    snap = snapshot_of([person("a", events)])
    assert column(snap, "peak_month", "a") == 1
