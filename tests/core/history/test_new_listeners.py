"""New listeners are those heard for the first time in the period, never those a run counted for the first time; and
the day's point is the station as the latest run of any kind left it, so that a trend's latest figure and the counts
beside it agree."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np
import pytest

from core.history.models import HistoryPoint
from core.history.periods import first_heard, week_start
from core.history.query import joined_and_left, segment_trends
from core.intelligence.segment_profile import segment_profile
from core.listeners.declared import read_listeners
from core.listeners.events import read_batches
from core.segmentation.live import resegment_live
from core.segmentation.overview import station_summary
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

TZ = "Africa/Johannesburg"
WEEK_BEGAN = datetime(2026, 11, 15, 22, 0, tzinfo=UTC)  # Monday 16 November 2026, 00:00 in Johannesburg


def seconds(*moments: datetime) -> np.ndarray:
    return np.array([int(m.timestamp()) for m in moments], dtype=np.int64)


def test_a_week_begins_on_monday_at_midnight_in_the_station_s_zone():
    assert week_start(date(2026, 11, 20), TZ) == WEEK_BEGAN
    assert week_start(date(2026, 11, 16), TZ) == WEEK_BEGAN


def test_a_first_interaction_on_the_last_second_of_a_week_is_new_in_that_week_not_the_next():
    sunday_late, monday_first = WEEK_BEGAN - timedelta(seconds=1), WEEK_BEGAN
    first_ts = seconds(sunday_late, monday_first)
    assert first_heard(first_ts, WEEK_BEGAN - timedelta(weeks=1), WEEK_BEGAN).tolist() == [True, True]
    assert first_heard(first_ts, WEEK_BEGAN, WEEK_BEGAN + timedelta(weeks=1)).tolist() == [False, False]


def test_a_first_interaction_at_the_week_s_first_moment_is_new_in_that_week():
    sunday_late, monday = WEEK_BEGAN - timedelta(seconds=1), WEEK_BEGAN + timedelta(seconds=1)
    assert first_heard(seconds(sunday_late, monday), WEEK_BEGAN, NOW).tolist() == [False, True]


def test_a_listener_never_heard_is_new_in_no_period():
    assert not first_heard(np.zeros(1, dtype=np.int64), None, NOW).any()


OLD, NEWCOMER, LATE = "27820000001", "27820000002", "27820000003"


@pytest.fixture
def station(app):
    """Company 1 (Johannesburg): a listener heard for months, one first heard this week (Tuesday), and the
    station's first full run at NOW (Friday)."""
    make_listener(1, OLD, [event(d) for d in range(3, 200, 3)])
    make_listener(1, NEWCOMER, [event(3)])
    segment_company(1, NOW)
    return 1


@pytest.mark.db
def test_a_station_s_first_full_run_counts_as_new_only_those_first_heard_that_week(station):
    point = HistoryPoint.objects.get(company_id=1, source="run")
    assert point.new == 1 and point.moves["new"] == {"new_listener": 1}
    assert sum(point.moves["new"].values()) < point.total == 2


@pytest.mark.db
def test_a_segment_is_not_joined_by_the_listeners_a_first_run_segmented(station):
    weekly = segment_trends(1, today=date(2026, 11, 20))["weekly"]
    old_segment = next(key for key, n in HistoryPoint.objects.get(source="run").segments.items()
                       if n and key != "new_listener")
    assert joined_and_left(weekly[-1]["moves"], old_segment) == (0, 0)


@pytest.mark.db
def test_a_live_listener_heard_for_the_first_time_is_new_in_today_s_point_and_its_counts(station):
    later = NOW + timedelta(hours=2)
    make_listener(1, LATE, [event(0, now=later)])
    resegment_live(1, read_listeners(1, [LATE]), read_batches(1, [LATE]), now=later)
    point = HistoryPoint.objects.get(company_id=1, source="run")
    assert point.new == 2 and point.total == 3 == station_summary(1)["total_listeners"]
    trend = segment_trends(1, today=date(2026, 11, 20))
    assert trend["points"][-1]["segments"]["new_listener"] == segment_profile(1, "new_listener")["size"] == 2


@pytest.mark.db
def test_the_day_s_point_adds_up_the_moves_of_its_runs(station):
    segment_company(1, NOW + timedelta(hours=1))
    segment_company(1, NOW + timedelta(hours=2))
    point = HistoryPoint.objects.get(company_id=1, source="run")
    assert point.new == 1 and point.moves["new"] == {"new_listener": 1}
    assert HistoryPoint.objects(company_id=1, source="run").count() == 1
