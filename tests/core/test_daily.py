"""The server's daily work: a full run of every station once a station day, one process at a time, so that segments
age with time even when no new events arrive."""
from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from core.config import Settings
from core.db.leases import release, try_lease
from core.listeners import snapshot
from core.segmentation.leases import FULL_RUN_TTL, full_run_lease
from core.segmentation.models import SegmentRun
from core.segmentation.requested import SegmentationBusy, start_segmentation
from core.segmentation.runs import segment_company
from core.service.daily import jobs_of, run_due
from tests.factories import make_company, make_listener
from tests.memory import NOW, column, event

pytestmark = pytest.mark.db

DAILY = Settings.from_env({"DAILY_PURGE": "false"})  # the purge has its own tests; these are about segments


@pytest.fixture
def stations(app):
    """Station 1 in Johannesburg (UTC+2), station 2 on UTC, one listener each, never segmented."""
    make_company(1, timezone="Africa/Johannesburg")
    make_company(2, timezone="UTC")
    make_listener(1, "a", [event(10), event(12), event(14)])
    make_listener(2, "b", [event(10), event(12), event(14)])


def full_runs(company_id: int) -> int:
    return SegmentRun.objects(company_id=company_id, kind="full").count()


def test_the_daily_run_segments_every_due_station_once(stations):
    assert sorted(run_due(jobs_of(DAILY), NOW)) == ["segment:1", "segment:2"]
    assert run_due(jobs_of(DAILY), NOW + timedelta(hours=1)) == []
    assert (full_runs(1), full_runs(2)) == (1, 1)


def test_a_station_segmented_since_its_midnight_is_skipped(stations):
    segment_company(1, NOW - timedelta(hours=2))  # a cron run at noon, station time
    assert run_due(jobs_of(DAILY), NOW) == ["segment:2"]
    assert full_runs(1) == 1


def test_each_station_s_day_begins_at_its_own_midnight(stations):
    run_due(jobs_of(DAILY), NOW)
    late_evening_utc = datetime(2026, 11, 20, 23, 0, tzinfo=UTC)  # already 01:00 on the 21st in Johannesburg
    assert run_due(jobs_of(DAILY), late_evening_utc) == ["segment:1"]
    assert run_due(jobs_of(DAILY), late_evening_utc + timedelta(hours=1)) == ["segment:2"]


def test_with_no_new_events_daily_runs_move_a_listener_to_at_risk_then_dormant(stations):
    segments = []
    for days in (0, 25, 85):
        run_due(jobs_of(DAILY), NOW + timedelta(days=days))
        segments.append(column(snapshot.current(1), "segment", "a"))
    assert segments == ["occasional_engager", "at_risk", "dormant"]


def test_a_station_whose_run_a_producer_started_is_left_to_that_run(stations):
    token = try_lease(full_run_lease(1), FULL_RUN_TTL)  # what a click on "Run segmentation now" holds
    try:
        with pytest.raises(SegmentationBusy):
            start_segmentation(1)
        assert run_due(jobs_of(DAILY), NOW) == ["segment:2"]
    finally:
        release(full_run_lease(1), token)
    assert full_runs(1) == 0


def test_two_processes_racing_for_the_daily_run_run_each_station_once(stations):
    ran, start = [], threading.Barrier(2)

    def process() -> None:
        jobs = jobs_of(DAILY)
        start.wait()
        ran.extend(run_due(jobs, NOW))

    racers = [threading.Thread(target=process) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(ran) == ["segment:1", "segment:2"]
    assert (full_runs(1), full_runs(2)) == (1, 1)


def test_daily_segmentation_false_turns_the_server_s_run_off(stations):
    settings = Settings.from_env({"DAILY_PURGE": "false", "DAILY_SEGMENTATION": "false"})
    assert run_due(jobs_of(settings), NOW) == []
    assert (full_runs(1), full_runs(2)) == (0, 0)


def test_a_station_created_after_start_up_gets_its_daily_run_too(stations):
    run_due(jobs_of(DAILY), NOW)
    make_listener(3, "c", [event(1)])
    assert run_due(jobs_of(DAILY), NOW + timedelta(minutes=1)) == ["segment:3"]
