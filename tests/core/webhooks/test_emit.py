"""Queuing events: one per subscribed endpoint of the station, with the fields it chose to share and no more, in
the endpoint's order, and a delivery job for the worker."""
from __future__ import annotations

import json

import pytest

from core.clock import utcnow
from core.db.queue import Job
from core.webhooks.events import emit, queued_events
from core.webhooks.models import WebhookEndpoint
from tests.factories import make_listener

pytestmark = pytest.mark.db


def endpoint(company_id: int, webhook_id: str, events: list[str], fields: list[str] = ()) -> None:
    WebhookEndpoint(company_id=company_id, webhook_id=webhook_id, url="https://hooks.example.com/in", secret="s",
                    events=events, shared_fields=list(fields), created_at=utcnow()).save()


def bodies(webhook_id: str) -> list[dict]:
    return [json.loads(row["body"]) for row in queued_events(webhook_id)]


def test_an_event_is_queued_for_every_endpoint_of_the_station_subscribed_to_its_type(app):
    endpoint(1, "a", ["alert.fired"])
    endpoint(1, "b", ["alert.fired", "listener.entered_segment"])
    endpoint(1, "c", ["listener.entered_segment"])
    endpoint(2, "d", ["alert.fired"])
    assert emit(1, "alert.fired", {"rule": "at_risk grows"}) == 2
    assert [len(bodies(w)) for w in "abcd"] == [1, 1, 0, 0]
    body = bodies("a")[0]
    assert set(body) == {"id", "type", "created_at", "company_id", "data"}
    assert (body["type"], body["company_id"], body["data"]) == ("alert.fired", 1, {"rule": "at_risk grows"})
    assert Job._get_collection().count_documents({"kind": "webhook", "state": "queued"}) == 2


def test_an_event_carries_only_the_fields_the_endpoint_shares(app):
    make_listener(1, "27820000001", name="Thandi", email="t@example.com", location="Soweto")
    endpoint(1, "a", ["listener.entered_segment"], ["location"])
    endpoint(1, "b", ["listener.entered_segment"])
    emit(1, "listener.entered_segment", {"originator": "27820000001", "from_segment": "casual",
                                         "to_segment": "loyal"}, originator="27820000001")
    assert bodies("a")[0]["data"] == {"originator": "27820000001", "from_segment": "casual", "to_segment": "loyal",
                                      "location": "Soweto"}
    assert "location" not in bodies("b")[0]["data"] and "Thandi" not in json.dumps(bodies("b"))


def test_events_keep_the_order_they_were_emitted_in_with_an_id_each(app):
    endpoint(1, "a", ["alert.fired"])
    for n in range(5):
        emit(1, "alert.fired", {"n": n})
    found = bodies("a")
    assert [b["data"]["n"] for b in found] == [0, 1, 2, 3, 4]
    assert len({b["id"] for b in found}) == 5
