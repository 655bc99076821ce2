"""The weeks a station's past is rebuilt by (core.history.rebuild.week_ends): each ends at Monday midnight in the
station's zone, keeping the wall clock across a change of daylight saving. No database."""
from __future__ import annotations

from datetime import UTC, datetime

from core.history.rebuild import week_ends
from tests.memory import NOW


def test_a_week_ends_at_monday_midnight_in_the_station_s_zone_oldest_first():
    ends = week_ends(NOW, "Africa/Johannesburg", 3)  # NOW is Friday 20 November 2026, 14:00 in Johannesburg
    assert [e.isoformat() for e in ends] == ["2026-11-02T00:00:00+02:00", "2026-11-09T00:00:00+02:00",
                                             "2026-11-16T00:00:00+02:00"]


def test_a_week_end_keeps_the_wall_clock_across_a_change_of_daylight_saving():
    ends = week_ends(datetime(2026, 4, 1, 12, tzinfo=UTC), "Europe/London", 2)
    assert [e.isoformat() for e in ends] == ["2026-03-23T00:00:00+00:00", "2026-03-30T00:00:00+01:00"]
