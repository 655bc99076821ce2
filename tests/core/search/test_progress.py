"""How long the embedding under way has left (core.search.progress): at the pace each run has kept, unknown before
a run has written anything or once it stopped moving (in memory, on the runs a counter keeps), and nothing to wait
for once it ended (on the database)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.clock import utcnow
from core.search import progress
from core.search.models import EmbeddingCounter
from core.search.progress import time_left

MODEL = "local:test"
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def kept(ago: timedelta, total: int, done: int, moved: timedelta = timedelta(0)) -> dict:
    """A run as the counter keeps it: begun `ago`, `done` of `total` written, the last `moved` before NOW."""
    return {"started_at": NOW - ago, "at": NOW - moved, "total": total, "done": done}


def run_started(ago: timedelta, total: int, done: int, moved: timedelta = timedelta(0)) -> str:
    """A run that began `ago`, has `done` of `total` written and last wrote `moved` ago."""
    run = progress.begin(1, MODEL, total)
    progress.advance(1, MODEL, run, done)
    EmbeddingCounter._get_collection().update_one(
        {"company_id": 1, "model": MODEL},
        {"$set": {f"runs.{run}.started_at": utcnow() - ago, f"runs.{run}.at": utcnow() - moved}})
    return run


def test_a_run_a_quarter_done_in_a_minute_has_three_minutes_left():
    assert time_left({"a": kept(timedelta(minutes=1), total=4000, done=1000)}, NOW) == 180


def test_with_two_runs_under_way_the_slower_one_says_how_long():
    runs = {"a": kept(timedelta(minutes=1), total=4000, done=1000), "b": kept(timedelta(minutes=1), 2000, 200)}
    assert time_left(runs, NOW) == 540


def test_a_run_that_has_written_nothing_yet_has_no_pace_so_no_estimate():
    assert time_left({"a": kept(timedelta(minutes=1), total=4000, done=0)}, NOW) is None


@pytest.mark.parametrize("moved, waited_for", [(timedelta(minutes=9), True), (timedelta(minutes=11), False)])
def test_a_run_that_stopped_moving_for_ten_minutes_is_no_longer_waited_for(moved, waited_for):
    runs = {"a": kept(timedelta(minutes=30), total=4000, done=1000, moved=moved)}
    assert (time_left(runs, NOW) is not None) is waited_for


@pytest.mark.db
def test_a_run_s_count_kept_in_the_database_says_its_time_left(app):
    run_started(timedelta(minutes=1), total=4000, done=1000)
    assert 175 <= progress.seconds_left(1, MODEL) <= 185


@pytest.mark.db
def test_an_ended_run_leaves_nothing_to_wait_for_and_other_stations_are_apart(app):
    run = run_started(timedelta(minutes=1), total=4000, done=1000)
    assert progress.seconds_left(2, MODEL) is None
    progress.end(1, MODEL, run)
    assert progress.seconds_left(1, MODEL) is None


@pytest.mark.db
def test_nothing_to_embed_records_no_run(app):
    assert progress.begin(1, MODEL, 0) is None
    assert progress.seconds_left(1, MODEL) is None
