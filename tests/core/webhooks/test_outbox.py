"""The outbox's bodies are sealed: no shared field is stored plain, a live event shares the station's open group, an
erasure leaves no readable copy of the listener's events (a backup taken before) while the others' still read, and
the keys of groups whose batches are gone are swept."""
from __future__ import annotations

import json
from datetime import timedelta

import bson
import pytest

from core.privacy.erasure import erase_listener
from core.webhooks import outbox
from core.webhooks.events import Event, emit, queue_events, queued_events
from core.webhooks.models import WebhookBatch, WebhookEndpoint, WebhookKey
from tests.core.webhooks.test_emit import endpoint
from tests.factories import make_listener

pytestmark = pytest.mark.db

PEOPLE = {"27820000001": "Thandeka Zungu", "27820000002": "Sipho Ndlovu"}


@pytest.fixture
def station(app):
    for originator, name in PEOPLE.items():
        make_listener(1, originator, name=name, email=f"{name.split()[0].lower()}@example.org")
    endpoint(1, "a", ["listener.entered_segment"], ["name", "email"])


def moved(originator: str) -> Event:
    return Event("listener.entered_segment", {"originator": originator, "to_segment": "loyal"}, originator)


def stored() -> list[dict]:
    return list(WebhookBatch._get_collection().find({}))


def names_in(webhook_id: str) -> list[str]:
    return [json.loads(row["body"])["data"]["name"] for row in queued_events(webhook_id)]


def test_no_shared_field_is_stored_plain_and_each_reads_back(station):
    queue_events(1, [moved(o) for o in PEOPLE])
    raw = b"".join(bson.encode(doc) for doc in stored()).lower()
    assert [w for w in (b"thandeka", b"sipho", b"example.org") if w in raw] == []
    assert names_in("a") == list(PEOPLE.values())


def test_live_events_share_the_station_s_open_group(station):
    for originator in PEOPLE:
        emit(1, "listener.entered_segment", {"originator": originator}, originator=originator)
    assert len({doc["bodies_group"] for doc in stored()}) == 1
    assert WebhookKey._get_collection().count_documents({}) == 1


def test_after_erasure_a_backup_copy_reads_nothing_and_the_others_still_read(station):
    queue_events(1, [moved(o) for o in PEOPLE])
    queue_events(1, [moved("27820000001")])
    backup = stored()
    receipt = erase_listener(1, "27820000001", "test-secret")
    assert receipt["stores"]["webhook_events"] == 2
    assert outbox.opened([dict(doc) for doc in backup]) == []
    assert names_in("a") == ["Sipho Ndlovu"]
    assert len(stored()) == 1  # the batch that held only the erased listener's event is gone


def test_the_keys_of_groups_whose_batches_are_gone_are_swept(station, monkeypatch):
    monkeypatch.setattr(outbox, "SHARED_UP_TO", 0)  # a group per write, as a run's many batches make
    queue_events(1, [moved("27820000001")])
    endpoint(1, "b", ["listener.entered_segment"])
    queue_events(1, [moved("27820000002")], endpoints=[WebhookEndpoint._get_collection().find_one(
        {"webhook_id": "b"})])
    WebhookBatch._get_collection().delete_many({"webhook_id": "a"})  # delivered and expired
    monkeypatch.setattr(outbox, "SWEEP_AFTER", -timedelta(seconds=5))  # every group is old enough
    assert outbox.sweep(1) == 1
    assert len(queued_events("b")) == 1 and WebhookKey._get_collection().count_documents({}) == 1
