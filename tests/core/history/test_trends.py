"""The trends read from a station's history: sizes and the at-risk share by week or month over a chosen span, new
and lost listeners per week, the moves over the span as flows a person reads, and what joined and left a segment."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from core.errors import ValidationFailed
from core.history import query
from core.history.models import HistoryPoint
from core.history.query import flows, joined_and_left, segment_trends, share_of, trends_of
from core.stations.models import Company
from tests.factories import make_company

TODAY = date(2026, 11, 20)  # a Friday


def test_a_share_is_the_segment_over_all_listeners_and_none_for_an_empty_station():
    assert share_of({"total": 200, "segments": {"at_risk": 30}}, "at_risk") == 0.15
    assert share_of({"total": 0, "segments": {"at_risk": 0}}, "at_risk") is None


def test_flows_leave_out_staying_put_and_come_largest_first_in_words():
    found = flows({"super_fan": {"at_risk": 12, "super_fan": 40}, "new": {"new_listener": 30},
                   "at_risk": {"dormant": 1}})
    assert [f["sentence"] for f in found] == ["30 first-time listeners joined as new listeners",
                                              "12 super fans became at risk", "1 at-risk listener became dormant"]


def test_a_segment_is_joined_from_others_and_from_first_time_listeners_and_left_for_others():
    moves = {"new": {"new_listener": 5}, "super_fan": {"new_listener": 2, "at_risk": 3},
             "new_listener": {"occasional_engager": 4, "new_listener": 9}}
    assert joined_and_left(moves, "new_listener") == (7, 4)
    assert joined_and_left(moves, "dormant") == (0, 0)


SUNDAYS = [date(2026, 11, 15) - timedelta(weeks=7 - i) for i in range(8)]


def point(day: date, at_risk: int, moved: int, new: int = 1) -> dict:
    """A rebuilt week's point as the history stores it."""
    return {"date": day.isoformat(), "source": "rebuilt", "total": 100, "segments": {"at_risk": at_risk},
            "moves": {"super_fan": {"at_risk": moved}}, "new": new, "lost": 0}


SERIES = [point(day, 10 + i, i + 1) for i, day in enumerate(SUNDAYS)]
"""Eight Sundays of a station's rebuilt history, 15 November 2026 the last: at risk 10, 11, ... 17 of 100, 1, 2, ...
8 super fans becoming at risk in each."""


@pytest.fixture
def weeks(app):
    """SERIES stored as station 1's history."""
    make_company(1)
    for p in SERIES:
        HistoryPoint(company_id=1, as_of=datetime.fromisoformat(p["date"]).replace(tzinfo=UTC), **p).save()
    return SUNDAYS


@pytest.mark.db
def test_the_trends_are_weekly_over_the_span_with_the_at_risk_share(weeks):
    found = segment_trends(1, "week", 4, today=TODAY)
    assert [p["date"] for p in found["points"]] == [d.isoformat() for d in weeks[-4:]]
    assert [p["at_risk_share"] for p in found["points"]] == [0.14, 0.15, 0.16, 0.17]


def test_the_flows_add_up_the_moves_after_the_span_s_first_point():
    found = trends_of(SERIES[-4:], "week", 4, TODAY)  # the points of the 4 weeks to TODAY
    assert found["moves"] == {"super_fan": {"at_risk": 6 + 7 + 8}}
    assert found["flows"][0]["sentence"] == "21 super fans became at risk"


def test_monthly_sizes_are_each_month_s_last_point_and_new_and_lost_stay_weekly():
    found = trends_of(SERIES, "month", 13, TODAY)
    assert [(p["date"], p["segments"]["at_risk"]) for p in found["points"]] == [
        ("2026-09-27", 10), ("2026-10-25", 14), ("2026-11-15", 17)]
    assert len(found["weekly"]) == 8 and sum(p["new"] for p in found["weekly"]) == 8


@pytest.mark.parametrize(("interval", "weeks_", "field"), [("day", 26, "interval"), ("week", 7, "weeks")])
def test_an_interval_or_span_the_trends_do_not_offer_is_refused_before_the_history_is_read(
        monkeypatch, interval, weeks_, field):
    def reached(*_args, **_kwargs):
        raise AssertionError("the history was read for a request it should have refused")

    monkeypatch.setattr(query, "get_company", lambda company_id: Company(company_id=company_id))
    monkeypatch.setattr(HistoryPoint, "_get_collection", reached)
    with pytest.raises(ValidationFailed) as refused:
        segment_trends(1, interval, weeks_, today=TODAY)
    assert refused.value.items[0]["loc"] == ["query", field]


@pytest.mark.db
def test_a_station_without_history_has_no_points(app):
    make_company(1)
    assert segment_trends(1, today=TODAY)["points"] == []
