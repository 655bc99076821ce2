"""A listener's reasons read as English for none, one and many interactions, days, channels and weeks."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.segmentation.reasons import reasons
from tests.memory import NOW

DAY = 86_400


def inputs(**given) -> dict:
    """The rule inputs of segments.md for one listener (a busy one unless told otherwise), with the times of their
    first and last interactions those days before NOW (Friday 20 November 2026, 12:00 UTC)."""
    base = {"since_first_days": 200.0, "recency_days": 2.0, "n_total": 40, "n_30": 12, "n_prev30": 8, "n_90": 30,
            "channels_30": 2, "competition_share": 0.1, "top_show_share_90": 0.8, "active_weeks_90": 9}
    n = {**base, **given}
    at = int(NOW.timestamp())
    return {**n, "as_of": at, **{key: int(at - n[days] * DAY) if n[days] != float("inf") else 0
                                 for key, days in (("first_ts", "since_first_days"), ("last_ts", "recency_days"))}}


@pytest.mark.parametrize("given, expected", [
    ({"since_first_days": 0.4, "n_total": 1}, ["First interaction today, within the 7-day welcome window",
                                                "1 interaction so far"]),
    ({"since_first_days": 1.2, "n_total": 3}, ["First interaction yesterday, within the 7-day welcome window",
                                                "3 interactions so far"]),
])
def test_a_new_listener_is_told_when_they_started_and_how_often(given, expected):
    assert reasons("new_listener", inputs(**given), tz="UTC", now=NOW) == expected


@pytest.mark.parametrize("given, expected", [
    ({"n_total": 0, "recency_days": float("inf")}, ["No interactions at all"]),
    ({"recency_days": 120.5}, ["Last interaction 120 days ago, more than 90 days ago"]),
])
def test_a_dormant_listener_is_told_how_long_they_have_been_quiet(given, expected):
    assert reasons("dormant", inputs(**given), tz="UTC", now=NOW) == expected


@pytest.mark.parametrize("given, expected", [
    ({"n_total": 1, "competition_share": 1.0}, "Competition entries are 100% of their 1 interaction (threshold 70%)"),
    ({"n_total": 10, "competition_share": 0.7}, "Competition entries are 70% of their 10 interactions (threshold "
                                                "70%)"),
])
def test_a_competition_chaser_is_told_their_share_of_entries(given, expected):
    assert reasons("competition_chaser", inputs(**given), tz="UTC", now=NOW) == [expected]


@pytest.mark.parametrize("given, expected", [
    ({"recency_days": 31.0, "n_prev30": 1}, ["Last interaction 31 days ago, more than 30 days ago",
                                             "1 interaction in the 30 days before the last 30"]),
    ({"recency_days": 1.0, "n_30": 0, "n_prev30": 4}, ["Down to 0 interactions in the last 30 days from 4 the month "
                                                       "before", "Last interaction yesterday"]),
    ({"recency_days": 3.0, "n_30": 1, "n_prev30": 5}, ["Down to 1 interaction in the last 30 days from 5 the month "
                                                       "before", "Last interaction 3 days ago"]),
])
def test_an_at_risk_listener_is_told_whether_they_lapsed_or_declined(given, expected):
    assert reasons("at_risk", inputs(**given), tz="UTC", now=NOW) == expected


@pytest.mark.parametrize("given, expected", [
    ({"n_30": 12, "n_prev30": 1, "channels_30": 2, "recency_days": 0.5},
     "12 interactions in the last 30 days on 2 channels, last one today, up from 1 the month before"),
    ({"n_30": 10, "n_prev30": 10, "channels_30": 3, "recency_days": 1.5},
     "10 interactions in the last 30 days on 3 channels, last one yesterday, as many as the month before"),
])
def test_a_super_fan_is_told_how_busy_they_are_and_only_said_to_grow_when_they_did(given, expected):
    assert reasons("super_fan", inputs(**given), tz="UTC", now=NOW) == [expected]


@pytest.mark.parametrize("given, expected", [
    ({"n_90": 1, "active_weeks_90": 1}, "1 interaction over 1 active week in the last 90 days"),
    ({"n_90": 8, "active_weeks_90": 4}, "8 interactions over 4 active weeks in the last 90 days"),
])
def test_a_show_loyalist_is_told_how_steadily_they_engage(given, expected):
    assert reasons("show_loyalist", inputs(**given), tz="UTC", now=NOW)[1] == expected


@pytest.mark.parametrize("given, expected", [
    ({"n_30": 0, "channels_30": 0}, "0 interactions in the last 30 days on 0 channels"),
    ({"n_30": 1, "channels_30": 1}, "1 interaction in the last 30 days on 1 channel"),
    ({"n_30": 1234, "channels_30": 3}, "1,234 interactions in the last 30 days on 3 channels"),
])
def test_an_occasional_engager_counts_agree_with_their_nouns(given, expected):
    assert reasons("occasional_engager", inputs(**given), tz="UTC", now=NOW)[1] == expected


@pytest.mark.parametrize("tz, expected", [("Africa/Johannesburg", "today"), ("UTC", "yesterday")])
def test_a_day_is_named_by_the_station_s_calendar_not_by_24_hour_days(tz, expected):
    late = int(datetime(2026, 11, 19, 22, 23, tzinfo=UTC).timestamp())  # 00:23 on Friday in Johannesburg
    morning = datetime(2026, 11, 20, 6, 0, tzinfo=UTC)  # 08:00 on Friday in Johannesburg: 7.6 hours later
    found = reasons("super_fan", {**inputs(), "last_ts": late}, tz=tz, now=morning)
    assert f"last one {expected}," in found[0]


def test_the_last_day_named_agrees_with_the_time_shown_in_the_station_s_zone():
    late = int(datetime(2026, 11, 19, 21, 23, tzinfo=UTC).timestamp())  # Thursday 23:23 in Johannesburg
    morning = datetime(2026, 11, 20, 6, 0, tzinfo=UTC)  # Friday 08:00 there: 6.6 hours later, the day before
    found = reasons("occasional_engager", {**inputs(recency_days=0.3), "last_ts": late}, tz="Africa/Johannesburg",
                    now=morning)
    assert found[0] == "Active within 30 days: last interaction yesterday"


def test_a_run_of_an_earlier_day_names_the_date_not_a_today_that_is_no_longer_the_reader_s():
    next_morning = datetime(2026, 11, 21, 6, 0, tzinfo=UTC)
    found = reasons("occasional_engager", inputs(recency_days=0.5), tz="Africa/Johannesburg", now=next_morning)
    assert found[0] == "Active within 30 days: last interaction on 20 Nov 2026"
