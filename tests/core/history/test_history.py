"""A station's segment history: its past rebuilt week by week from the interactions (new and lost listeners, moves
between segments, erased listeners left out, the current snapshot untouched), a point per full run, an import
queueing the rebuild for a worker, and the history read by day, week or month."""
from __future__ import annotations

from datetime import date

import pytest

from core.db import queue
from core.errors import ValidationFailed
from core.history import query
from core.history.models import HistoryPoint
from core.history.query import history_of, segment_history
from core.history.rebuild import rebuild_history
from core.listeners import snapshot
from core.privacy.erasure import erase_listener
from core.segmentation.runs import resegment_listeners, segment_company
from core.service.worker import Worker
from core.stations.models import Company
from tests.conftest import kept
from tests.factories import make_listener
from tests.memory import NOW, event

EARLY, FRESH, GONE = "27820000001", "27820000002", "27820000003"


@pytest.fixture
@kept
def station(app):
    """Company 1: one listener heard every other day from 200 to 100 days ago (dormant by the last week's end),
    one first heard 6 and 5 days ago, and one like the first who was erased."""
    make_listener(1, EARLY, [event(d) for d in range(100, 201, 2)])
    make_listener(1, FRESH, [event(6), event(5)])
    make_listener(1, GONE, [event(d) for d in range(100, 201, 2)])
    segment_company(1, NOW)
    erase_listener(1, GONE, "test-secret")
    segment_company(1, NOW)  # the day's run, after the erasure
    return 1


def rebuilt() -> list[dict]:
    return list(HistoryPoint._get_collection().find({"source": "rebuilt"}, {"_id": 0}).sort("date", 1))


@pytest.mark.db
def test_the_past_is_rebuilt_week_by_week_for_13_months(station):
    assert rebuild_history(1, NOW) == 57
    points = rebuilt()
    assert (points[0]["date"], points[-1]["date"]) == ("2025-10-19", "2026-11-15")
    assert points[0]["total"] == 0  # nobody had been heard from yet


@pytest.mark.db
def test_the_last_week_counts_who_was_new_and_who_went_dormant_and_their_moves(station):
    rebuild_history(1, NOW)
    last = rebuilt()[-1]
    assert last["total"] == 2 and last["segments"]["dormant"] == 1 and last["segments"]["new_listener"] == 1
    assert (last["new"], last["lost"]) == (1, 1)
    assert last["moves"] == {"new": {"new_listener": 1}, "at_risk": {"dormant": 1}}


@pytest.mark.db
def test_an_erased_listener_is_in_no_count_of_the_past(station):
    rebuild_history(1, NOW)
    assert max(p["total"] for p in rebuilt()) == 2


@pytest.mark.db
def test_rebuilding_leaves_the_current_snapshot_as_it_was(station):
    before = Company.objects.get(company_id=1).snapshot_file
    rebuild_history(1, NOW)
    assert Company.objects.get(company_id=1).snapshot_file == before
    assert len(snapshot.current(1)) == 3


@pytest.mark.db
def test_rebuilding_again_replaces_the_rebuilt_past_and_keeps_the_runs_points(station):
    rebuild_history(1, NOW)
    rebuild_history(1, NOW)
    assert len(rebuilt()) == 57 and HistoryPoint.objects(source="run").count() == 1


@pytest.mark.db
def test_a_full_run_is_the_point_of_its_day_in_the_station_s_calendar(station):
    point = HistoryPoint.objects.get(company_id=1, source="run")
    assert point.date == "2026-11-20" and point.total == 2 and point.segments["new_listener"] == 1
    segment_company(1, NOW)
    assert HistoryPoint.objects(company_id=1, source="run").count() == 1  # the day's last run stands for it


@pytest.mark.db
def test_an_import_s_run_queues_one_rebuild_for_a_worker(station, app):
    for originator in ("27820000004", "27820000005"):
        make_listener(1, originator, [event(3)])
        resegment_listeners(1, [originator], NOW)
    waiting = list(queue.Job._get_collection().find({"kind": "history", "state": "queued"}))
    assert [job["payload"] for job in waiting] == [{"company_id": 1}]
    Worker(app.config["SETTINGS"]).work_until_idle()
    assert len(rebuilt()) == 57


@pytest.mark.db
def test_the_history_is_the_rebuilt_weeks_then_the_runs_days_after_them(station):
    rebuild_history(1, NOW)
    found = segment_history(1, date(2026, 10, 1), date(2026, 11, 20), "day")
    assert [p["date"] for p in found["points"]][-3:] == ["2026-11-08", "2026-11-15", "2026-11-20"]
    assert found["points"][-1]["total"] == 2


def point(day: str, total: int, new: int = 0, lost: int = 0, moves: dict | None = None, source: str = "rebuilt",
          **segments) -> dict:
    """A day's point as the history stores it."""
    return {"date": day, "source": source, "total": total, "segments": segments, "new": new, "lost": lost,
            "moves": moves or {}}


NOVEMBER = [point("2026-11-01", 10, new=1, super_fan=4), point("2026-11-08", 12, new=2, lost=1, super_fan=5),
            point("2026-11-15", 11, lost=1, moves={"new": {"new_listener": 1}, "at_risk": {"dormant": 1}}, super_fan=6),
            point("2026-11-20", 11, new=3, moves={"super_fan": {"at_risk": 2}}, source="run", super_fan=4)]
"""Three rebuilt Sundays of November 2026, then a run's day after them."""


def test_a_month_is_its_last_point_with_the_moves_new_and_lost_of_all_its_points():
    [month] = history_of(NOVEMBER, "month")["points"]
    assert (month["date"], month["total"], month["segments"]["super_fan"]) == ("2026-11-20", 11, 4)
    assert (month["new"], month["lost"]) == (6, 2)
    assert month["moves"] == {"new": {"new_listener": 1}, "at_risk": {"dormant": 1}, "super_fan": {"at_risk": 2}}


def test_a_week_is_its_last_day_s_point():
    weeks = history_of(NOVEMBER, "week")["points"]
    assert [(p["date"], p["new"]) for p in weeks] == [("2026-11-01", 1), ("2026-11-08", 2), ("2026-11-15", 0),
                                                       ("2026-11-20", 3)]


def test_the_span_s_moves_leave_out_those_into_its_first_point():
    found = history_of(NOVEMBER[2:], "day")
    assert found["points"][0]["moves"] == {"new": {"new_listener": 1}, "at_risk": {"dormant": 1}}
    assert found["moves"] == {"super_fan": {"at_risk": 2}}


@pytest.fixture
def unread_history(monkeypatch):
    """Station 1 given (in memory), its stored history failing the test when read."""
    def reached(*_args, **_kwargs):
        raise AssertionError("the history was read")

    monkeypatch.setattr(query, "get_company", lambda company_id: Company(company_id=company_id))
    monkeypatch.setattr(HistoryPoint, "_get_collection", reached)


def test_an_unknown_interval_is_refused_before_the_history_is_read(unread_history):
    with pytest.raises(ValidationFailed) as refused:
        segment_history(1, None, None, "year")
    assert refused.value.items[0]["loc"] == ["query", "interval"]


def test_a_span_that_ends_before_it_starts_holds_no_point_and_reads_none(unread_history):
    found = segment_history(1, date(2026, 11, 2), date(2026, 11, 1), "week")
    assert found["points"] == [] and found["moves"] == {}


@pytest.mark.db
def test_a_to_at_the_first_day_of_the_calendar_starts_there(station):
    assert segment_history(1, None, date(1, 1, 5), "week")["from"] == "0001-01-01"
