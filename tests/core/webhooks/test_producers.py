"""Where events come from: a full run's and a live batch's moves (left then entered, per listener), a listener's
first segment whatever made it (entered alone, from none), an audience's members joining, and erasure, after which
nothing of the listener is queued, kept or sent."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest

from core import personal
from core.audiences.store import create_audience
from core.clock import utcnow
from core.db import queue
from core.db.connection import get_db
from core.ingest.live import record_interactions
from core.privacy.erasure import erase_listener
from core.segmentation.models import SegmentChange
from core.segmentation.runs import resegment_listeners, segment_company
from core.service.worker import Worker
from core.webhooks.endpoints import add_endpoint
from core.webhooks.events import DELIVER_JOB, queued_events
from core.webhooks.models import WebhookEndpoint
from tests.conftest import restored
from tests.core.webhooks.receiver import receiving
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.themes import GOSPEL_THEME, of_theme, split_both_ways, themed_station

pytestmark = pytest.mark.db

SEGMENT_EVENTS = ["listener.entered_segment", "listener.left_segment"]
SECRET = "a-secret-of-the-station-1"


def queued() -> list[dict]:
    return [json.loads(row["body"]) for e in WebhookEndpoint.objects for row in queued_events(e.webhook_id)]


@pytest.fixture
def station(app):
    """Company 1 segmented as of NOW: five listeners heard lately, one of them also a long time ago."""
    for n in range(5):
        make_listener(1, f"2782000000{n}", [event(d) for d in (1, 3, 8, 15)], location=f"Town {n}",
                      name=f"Person {n}")
    segment_company(1, NOW)
    return 1


def test_a_run_s_moves_are_queued_as_left_then_entered_per_listener_with_the_shared_fields(station):
    add_endpoint(1, "https://hooks.example.com/in", SECRET, SEGMENT_EVENTS, ["location"])
    segment_company(1, NOW + timedelta(days=200))  # everyone has gone quiet since
    moves = list(SegmentChange._get_collection().find({"at": {"$gt": NOW}}, sort=[("_id", 1)]))
    assert len(moves) == 5
    bodies = queued()
    assert [b["type"] for b in bodies] == ["listener.left_segment", "listener.entered_segment"] * 5
    named = {personal.key_of(1, f"2782000000{n}"): f"2782000000{n}" for n in range(5)}  # stored as keys
    for move, (left, entered) in zip(moves, zip(bodies[::2], bodies[1::2], strict=True), strict=True):
        originator = named[move["originator"]]
        expected = {"originator": originator, "from_segment": move["from_segment"],
                    "to_segment": move["to_segment"], "location": f"Town {originator[-1]}"}
        assert {k: left["data"][k] for k in expected} == expected == {k: entered["data"][k] for k in expected}
        assert "name" not in left["data"] and "Person" not in json.dumps(left)


def test_an_endpoint_gets_only_the_types_it_chose(station):
    add_endpoint(1, "https://hooks.example.com/in", SECRET, ["listener.entered_segment"])
    segment_company(1, NOW + timedelta(days=200))
    assert {b["type"] for b in queued()} == {"listener.entered_segment"}


def test_a_run_that_moves_nobody_queues_nothing(station):
    add_endpoint(1, "https://hooks.example.com/in", SECRET, SEGMENT_EVENTS)
    segment_company(1, NOW)
    assert queued() == []


def test_a_live_batch_that_moves_a_listener_is_delivered_at_once(app):
    now = utcnow()
    make_listener(1, "27820000001", [event(120, now=now), event(150, now=now)])
    segment_company(1, now)
    with receiving() as receiver:
        add_endpoint(1, receiver.url, SECRET, SEGMENT_EVENTS)
        row = {"company_id": 1, "originator": "27820000001", "timestamp": (now - timedelta(hours=1)).isoformat(),
               "channel_type": 2, "campaign_type": "song_request"}
        record_interactions(1, [row])
        job = queue.Job._get_collection().find_one({"kind": DELIVER_JOB})
        assert job["run_after"].replace(tzinfo=None) <= utcnow().replace(tzinfo=None)  # due now, not after a run
        Worker(settings=None).work_until_idle()
        assert [(e["type"], e["data"]["from_segment"]) for e in receiver.events()] == [
            ("listener.left_segment", "dormant"), ("listener.entered_segment", "dormant")]


def test_a_listener_s_first_segment_is_entered_from_none_whatever_made_the_run(station):
    add_endpoint(1, "https://hooks.example.com/in", SECRET, SEGMENT_EVENTS)
    make_listener(1, "27820000009", [event(1)])
    resegment_listeners(1, ["27820000009"], NOW, kind="import")
    assert [(b["type"], b["data"]["originator"], b["data"]["from_segment"], b["data"]["run_kind"])
            for b in queued()] == [("listener.entered_segment", "27820000009", None, "import")]


def test_a_station_s_first_full_run_enters_each_listener_in_their_first_segment(app):
    make_company(1)
    add_endpoint(1, "https://hooks.example.com/in", SECRET, SEGMENT_EVENTS)
    for n in range(3):
        make_listener(1, f"2782000000{n}", [event(d) for d in (1, 3, 8, 15)])
    run = segment_company(1, NOW)
    bodies = queued()
    assert {b["type"] for b in bodies} == {"listener.entered_segment"} and len(bodies) == 3
    assert {(b["data"]["originator"], b["data"]["from_segment"], b["data"]["to_segment"]) for b in bodies} == {
        (originator, None, segment) for originator, segment in run.first_segments.items()}


def test_an_audience_s_new_members_are_queued_as_joined(app):
    restored("themed-1", themed_station)
    add_endpoint(1, "https://hooks.example.com/in", SECRET, ["audience.members_changed"])
    made = create_audience(1, "Gospel", GOSPEL_THEME, limit=4, min_score=0)
    bodies = queued()
    assert [b["data"]["originator"] for b in bodies] == [m["originator"] for m in made["members"]]
    assert {(b["data"]["change"], b["data"]["audience_id"]) for b in bodies} == {("joined", made["audience_id"])}


def test_an_audience_s_holdout_is_never_queued_and_each_event_says_how_many_were_held_out(app, monkeypatch):
    restored("themed-1", themed_station)
    add_endpoint(1, "https://hooks.example.com/in", SECRET, ["audience.members_changed"])
    split_both_ways(monkeypatch, of_theme(1, "gospel"))
    made = create_audience(1, "Gospel", GOSPEL_THEME, limit=4, min_score=0, holdout_percent=50)
    bodies = queued()
    assert [b["data"]["originator"] for b in bodies] == [m["originator"] for m in made["members"]
                                                         if m["arm"] == "target"]
    assert {b["data"]["held_out"] for b in bodies} == {made["holdout_count"]} and made["holdout_count"] > 0


def test_erasure_drops_the_listener_s_events_and_leaves_nothing_personal_in_any_webhook_store(station, test_env):
    with receiving() as receiver:
        add_endpoint(1, receiver.url, SECRET, SEGMENT_EVENTS, ["location"])
        receiver.mode = "fail"
        segment_company(1, NOW + timedelta(days=200))
        Worker(settings=None).work_until_idle()  # the first batch fails: everything waits
        erase_listener(1, "27820000003", test_env["SECRET_KEY"])
        receiver.mode = "ok"
        queue.Job._get_collection().update_many({"kind": DELIVER_JOB}, {"$set": {"run_after": utcnow()}})
        Worker(settings=None).work_until_idle()
        delivered = receiver.received[-1]["body"].decode()
    assert "27820000003" not in delivered and "Town 3" not in delivered and "27820000002" in delivered
    for name in ("webhook_batches", "webhook_deliveries", "webhook_endpoints"):
        stored = json.dumps(list(get_db()[name].find({}, {"_id": 0})), default=str)
        assert "27820000003" not in stored and "Town 3" not in stored, name
