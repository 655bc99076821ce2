"""The days a usage history or spend chart asks for, in memory: whole days of the station's zone as the moments
they hold, both ends included, and a date, limit or range that cannot be read refused before the ledger is reached
(its store fails the test when reached). What the ledger then lists within those moments, newest first, is
tests/core/credits/test_usage.py and test_daily_spend.py, on the database."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from core.credits import usage as usage_module
from core.credits.usage import daily_spend, day_window, usage
from core.errors import ValidationFailed

LAST_MINUTE = datetime(2026, 11, 10, 23, 59, 59, 999000, tzinfo=UTC)
MIDNIGHT = datetime(2026, 11, 11, 0, 0, tzinfo=UTC)
MORNING = datetime(2026, 11, 12, 8, 0, tzinfo=UTC)
MOMENTS = {"last-minute": LAST_MINUTE, "midnight": MIDNIGHT, "morning": MORNING}


@pytest.fixture(autouse=True)
def unreachable_ledger(monkeypatch):
    """The ledger's entries fail the test when reached."""
    def reached(*_args, **_kwargs):
        raise AssertionError("the ledger was reached")

    monkeypatch.setattr(usage_module, "entries", reached)


def held(from_date, to_date, tz: str | None = "UTC") -> list[str]:
    """Which of the moments the days from `from_date` to `to_date` hold, latest first."""
    window = day_window(from_date, to_date, tz)
    if window is None:
        return []
    start, end = window
    return [name for name, moment in sorted(MOMENTS.items(), key=lambda item: item[1], reverse=True)
            if (start is None or start <= moment) and (end is None or moment < end)]


def test_to_date_keeps_its_last_second_and_leaves_out_the_midnight_after_it():
    assert held(None, date(2026, 11, 10)) == ["last-minute"]


def test_from_date_starts_at_its_midnight():
    assert held("2026-11-11", None) == ["morning", "midnight"]


def test_a_one_day_range_is_that_whole_day():
    assert held("2026-11-11", "2026-11-11") == ["midnight"]


def test_a_range_that_runs_backwards_holds_nothing():
    assert day_window("2026-11-12", "2026-11-10", "UTC") is None


def test_the_last_and_first_days_of_the_calendar_are_ranges_like_any_other():
    start, end = day_window("0001-01-01", "9999-12-31", "UTC")
    assert all((start is None or start <= moment) and (end is None or moment < end)
               for moment in (datetime.min.replace(tzinfo=UTC), LAST_MINUTE, datetime.max.replace(tzinfo=UTC)))


@pytest.mark.parametrize(("tz", "on_the_10th"), [("UTC", ["last-minute"]), ("Africa/Johannesburg", []),
                                                ("America/New_York", ["midnight", "last-minute"]),
                                                (None, []), ("Mars/Olympus", [])])
def test_a_day_is_the_station_s_day(tz, on_the_10th):
    """23:59:59 UTC on the 10th is 01:59:59 on the 11th in Johannesburg and 18:59:59 on the 10th in New York; a
    station without a zone, or with one nobody knows, has Johannesburg's days (core.clock.zone_of)."""
    assert held(date(2026, 11, 10), date(2026, 11, 10), tz) == on_the_10th


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "2026-11-1", "20261101"])
def test_a_date_that_is_not_yyyy_mm_dd_is_422(bad):
    with pytest.raises(ValidationFailed) as refused:
        usage(1, from_date=bad)
    assert refused.value.items[0]["loc"] == ["query", "from_date"]


@pytest.mark.parametrize("limit", [0, 1001])
def test_a_limit_outside_1_to_1000_is_422(limit):
    with pytest.raises(ValidationFailed) as refused:
        usage(1, limit=limit)
    assert refused.value.items[0]["loc"] == ["query", "limit"]


@pytest.mark.parametrize("limit", [1, 1000])
def test_a_limit_of_1_or_1000_goes_on_to_the_ledger(limit):
    with pytest.raises(AssertionError, match="the ledger was reached"):
        usage(1, limit=limit)


@pytest.mark.parametrize(("first", "last", "name", "message"), [
    ("2026-11-31", "2026-12-01", "from_date", "Not a valid date: give YYYY-MM-DD."),
    (None, "2026-12-01", "from_date", "Give a date: YYYY-MM-DD."),
    ("2025-01-01", "2026-01-02", "to_date", "Pick at most 366 days."),
])
def test_bad_spend_ranges_are_refused_with_a_message(first, last, name, message):
    with pytest.raises(ValidationFailed) as refused:
        daily_spend(1, first, last)
    assert refused.value.items[0]["loc"][-1] == name and refused.value.items[0]["msg"] == message


def test_a_spend_range_of_a_year_of_366_days_goes_on_to_the_ledger():
    with pytest.raises(AssertionError, match="the ledger was reached"):
        daily_spend(1, "2024-01-01", "2024-12-31")
