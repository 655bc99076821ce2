"""Dates people type mean the station's wall time; times people read carry the station's offset."""
from __future__ import annotations

from core.explore.filters import parse_filters
from core.explore.records import behaviour
from tests.memory import event, snapshot_of

LATE_SUNDAY = 13 / 24
"""19 Nov 2026 23:00 UTC, which is already 20 Nov 01:00 in Johannesburg."""


def late_listener():
    return snapshot_of([{"originator": "27820000001", "events": [event(LATE_SUNDAY)]}])


def test_a_date_without_time_means_midnight_in_the_stations_zone():
    flt = parse_filters({"last_interaction_after": "2026-11-20"})
    assert flt.mask(late_listener(), "Africa/Johannesburg").tolist() == [True]
    assert flt.mask(late_listener(), "UTC").tolist() == [False]


def test_a_time_without_an_offset_is_wall_time_in_the_stations_zone():
    flt = parse_filters({"last_interaction_before": "2026-11-20T00:30"})
    assert flt.mask(late_listener(), "Africa/Johannesburg").tolist() == [False]
    assert flt.mask(late_listener(), "UTC").tolist() == [True]


def test_a_time_with_an_offset_is_that_moment_whatever_the_zone():
    flt = parse_filters({"last_interaction_after": "2026-11-19T22:30:00+00:00"})
    assert flt.mask(late_listener(), "Africa/Johannesburg").tolist() == [True]
    assert flt.mask(late_listener(), "Pacific/Auckland").tolist() == [True]


def test_record_times_carry_the_stations_offset():
    profile = behaviour(late_listener(), 0, "Africa/Johannesburg")
    assert profile["last_interaction"] == "2026-11-20T01:00:00+02:00"
