"""The overview's rollup is made of sums that add up, so a live batch moves it by the difference of its listeners. In
memory: the listeners' snapshots are built (tests.memory) and the station's shows given."""
from __future__ import annotations

import pytest

from core.listeners import snapshot
from core.personal import tag_keys
from core.segmentation import rollups
from core.stations.models import Company
from tests.memory import event, snapshot_of

COMPANY = Company(company_id=1, channels={"2": "WhatsApp line"})
SHOWS = {3: "The Drive", 5: "Breakfast Club"}


@pytest.fixture(autouse=True)
def shows_in_memory(monkeypatch):
    """Rendering names the station's shows: these, given rather than stored."""
    monkeypatch.setattr(rollups, "show_titles", lambda company_id: SHOWS if company_id == 1 else {})
EARLIER = [{"originator": "27820000001", "events": [event(120), event(150)], "tags": ["vip"]},
           {"originator": "27820000002", "events": [event(2, timeslot=3), event(4, channel=2)]},
           {"originator": "27820000003", "events": [event(3, channel=2, campaign="competition")]}]
LATER = [{"originator": "27820000001", "events": [event(1, timeslot=5), event(120), event(150)], "tags": ["vip"]},
         {"originator": "27820000004", "events": [event(1, channel=3)], "tags": ["new"]}]


def test_sums_moved_by_a_batch_give_the_rollup_of_a_recount():
    previous = snapshot_of(EARLIER, timeslots=(3, 5))
    fresh = snapshot_of(LATER, timeslots=(3, 5))
    old_rows = previous.take([previous.row_of("27820000001")])
    moved = rollups.add(rollups.add(rollups.sums(previous), rollups.sums(old_rows), -1), rollups.sums(fresh))
    recount = rollups.rollup(snapshot.splice(previous, fresh), COMPANY)
    assert rollups.render(moved, COMPANY) == recount
    assert recount["total"] == 4
    assert recount["segments"]["occasional_engager"]["habits"]["top_show"]["name"] == "Breakfast Club"


def test_a_rollup_from_sums_is_the_rollup_of_the_listeners():
    station = snapshot_of(EARLIER, timeslots=(3, 5))
    rollup = rollups.rollup(station, COMPANY)
    assert rollup["segments"]["dormant"]["count"] == 1
    assert rollup["tags"] == {tag_keys(station.company_id, ["vip"])[0]: {"dormant": 1}}  # a run names no tag
