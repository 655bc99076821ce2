"""One zone rule (issue 50, item 3): a station's zone comes from core.clock.zone_of, and a station whose zone is
missing or unknown reads its dates and days in the default station zone, Johannesburg (UTC+2, no daylight saving),
everywhere: a date a person types, today's date, an export's times, the history's weeks, a brief's dates."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from core.campaigns.brief_facts import find_dates
from core.clock import from_epoch, in_zone, local_iso_from_epoch, station_today, zone_of
from core.history.periods import week_start

UNKNOWN = [None, "", "Mars/Olympus", "../etc/passwd"]


@pytest.mark.parametrize("tz", UNKNOWN)
def test_a_date_typed_for_a_station_without_a_known_zone_is_johannesburg_midnight(tz):
    assert in_zone(datetime(2026, 11, 1), tz).astimezone(UTC) == datetime(2026, 10, 31, 22, tzinfo=UTC)


def test_a_date_typed_for_a_station_in_utc_is_utc_midnight():
    assert in_zone(datetime(2026, 11, 1), "UTC").astimezone(UTC) == datetime(2026, 11, 1, tzinfo=UTC)


@pytest.mark.parametrize("tz", UNKNOWN)
def test_today_of_a_station_without_a_known_zone_turns_at_johannesburg_midnight(tz):
    assert station_today(tz, datetime(2026, 11, 24, 22, 30, tzinfo=UTC)) == date(2026, 11, 25)
    assert station_today("UTC", datetime(2026, 11, 24, 22, 30, tzinfo=UTC)) == date(2026, 11, 24)


@pytest.mark.parametrize("tz", UNKNOWN)
def test_an_export_time_of_a_station_without_a_known_zone_carries_johannesburg_s_offset(tz):
    seconds = int(datetime(2026, 11, 24, 22, 30, tzinfo=UTC).timestamp())
    assert local_iso_from_epoch(seconds, tz) == "2026-11-25T00:30:00+02:00"
    assert from_epoch(seconds).astimezone(zone_of(tz)).utcoffset().total_seconds() == 2 * 3600


@pytest.mark.parametrize("tz", UNKNOWN)
def test_a_history_week_of_a_station_without_a_known_zone_starts_at_johannesburg_s_monday_midnight(tz):
    assert week_start(date(2026, 11, 25), tz).astimezone(UTC) == datetime(2026, 11, 22, 22, tzinfo=UTC)


@pytest.mark.parametrize("tz", [None, "Mars/Olympus"])
def test_a_brief_s_dates_for_a_station_without_a_known_zone_are_read_as_in_johannesburg(tz):
    now = datetime(2026, 11, 24, 22, 30, tzinfo=UTC)  # already the 25th in Johannesburg
    brief = "Run it from tomorrow until 30 November."
    assert find_dates(brief, now, tz, []) == find_dates(brief, now, "Africa/Johannesburg", [])
    assert find_dates(brief, now, tz, [])["start"] == "2026-11-26"


def test_a_zone_is_the_same_object_each_time():
    assert zone_of("America/New_York") is zone_of("America/New_York")
