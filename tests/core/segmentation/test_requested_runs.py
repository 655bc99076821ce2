"""Runs started from the dashboard: one at a time per station (a database lease), progress in the database."""
from __future__ import annotations

import pytest

from core.db.leases import release, try_lease
from core.segmentation.overview import latest_run
from core.segmentation.requested import SegmentationBusy, segmentation_status, start_segmentation
from tests.factories import make_listener
from tests.memory import event

pytestmark = pytest.mark.db


@pytest.fixture
def station(app):
    make_listener(1, "27820000001", [event(1), event(3)])


def test_a_run_records_its_steps_and_finishes(station):
    start_segmentation(1, actor="thandi@jozi.fm", wait=True)
    status = segmentation_status(1)
    assert status["job"]["state"] == "done" and not status["running"]
    assert status["job"]["steps"][0] == "reading listeners and interactions"
    assert status["last_finished"] and latest_run(1).listeners == 1


def test_a_second_start_while_one_holds_the_station_starts_nothing(station):
    token = try_lease("dashboard-run:1", __import__("datetime").timedelta(minutes=5))
    try:
        with pytest.raises(SegmentationBusy):
            start_segmentation(1)
        assert segmentation_status(1)["job"] is None
    finally:
        release("dashboard-run:1", token)


def test_the_lease_is_given_back_when_the_run_ends(station):
    start_segmentation(1, wait=True)
    start_segmentation(1, wait=True)
    assert segmentation_status(1)["job"]["state"] == "done"
