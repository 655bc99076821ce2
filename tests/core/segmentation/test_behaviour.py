"""Behavioural profiles over interactions built in memory: every input of segments.md and every behavioural field,
in the station's time zone, with ties to the lowest value (docs/decisions.md §4). No database."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

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
