"""What counts as a response to an audience's campaign, as pure rules on data built in memory: a campaign recorded
starts no earlier than the station-calendar day its audience was made (and says when it starts), and a member's
interaction counts from the moment counting starts and from when they joined, to the second."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np
import pytest

from core.audiences.campaign import GOAL, checked, made_day
from core.audiences.results import responses_of
from core.errors import ValidationFailed
from tests.memory import event, events_of, snapshot_of

SNAP = snapshot_of([{"originator": "27820000001", "events": [event(3)]}])
MADE = datetime(2026, 11, 30, 22, 30, tzinfo=UTC)  # 1 Dec 00:30 in Johannesburg, still 30 Nov in UTC
ANY = dict.fromkeys(GOAL)


def test_the_day_an_audience_was_made_is_the_station_s_calendar_day():
    assert made_day(MADE, "Africa/Johannesburg") == date(2026, 12, 1)
    assert made_day(MADE, "UTC") == date(2026, 11, 30)


def test_a_campaign_may_start_on_the_day_its_audience_was_made():
    made_on = made_day(MADE, "Africa/Johannesburg")
    assert checked({"starts": "2026-12-01"}, SNAP, made_on=made_on)["starts"] == "2026-12-01"


def test_a_campaign_starting_the_day_before_its_audience_was_made_is_refused_naming_starts():
    with pytest.raises(ValidationFailed) as refused:
        checked({"starts": "2026-11-30", "ends": "2026-12-05"}, SNAP, made_on=made_day(MADE, "Africa/Johannesburg"))
    assert [item["loc"] for item in refused.value.items] == [["body", "starts"]]
    assert "before its audience was made (2026-12-01)" in refused.value.items[0]["msg"]


def test_a_campaign_recorded_without_its_first_day_is_refused_naming_starts():
    with pytest.raises(ValidationFailed) as refused:
        checked({"hoped_lift_points": 3}, SNAP, made_on=date(2026, 12, 1))
    assert [(item["loc"], item["type"]) for item in refused.value.items] == [(["body", "starts"], "missing")]


def test_a_window_read_for_results_may_start_before_the_audience_was_made():
    assert checked({"starts": "2026-01-01"}, SNAP, names={"starts": "from"}, where="query")["starts"] == "2026-01-01"


def responded(seconds: list[int], since: list[int] | None = None) -> list[bool]:
    """Whether each of these listeners responded, one interaction each `seconds` after MADE, counting from MADE
    to a day later (each counted from its `since`, seconds after MADE, when given)."""
    people = {f"2782000000{i}": [event(0, now=MADE + timedelta(seconds=s))] for i, s in enumerate(seconds)}
    events = events_of(people)
    start = int(MADE.timestamp())
    bounds = np.array([start, start + 86_400], dtype=np.int64)
    rows = np.arange(len(people))
    joined = None if since is None else np.array([start + s for s in since], dtype=np.int64)
    return responses_of(events, events.row.astype(np.int64), rows, ANY, bounds, len(people), joined)[0].tolist()


def test_a_response_one_second_before_counting_starts_is_not_counted_and_one_at_or_after_it_is():
    assert responded([-1, 0, 1]) == [False, True, True]


def test_a_member_who_joined_later_counts_only_from_when_they_joined():
    assert responded([10, 10, 10], since=[0, 11, 10]) == [True, False, True]
