"""/api/v1/webhooks: endpoints added (the secret never answered, a private or plain-http URL refused with a clear
422), listed, removed; the delivery log with failures, a replay and a test event, delivered by the worker to a
loopback receiver; another station's key reaches none of it."""
from __future__ import annotations

import json

import pytest

from core.service.worker import Worker
from tests.core.webhooks.receiver import receiving
from tests.factories import make_company

pytestmark = pytest.mark.db

SECRET = "a-secret-of-the-station-1"


@pytest.fixture
def headers(app, key_for):
    make_company(1)
    make_company(2)
    return key_for(1)


def add(client, headers, url: str, **body):
    return client.post("/api/v1/webhooks/1", json={"url": url, "secret": SECRET, "events": ["alert.fired"], **body},
                       headers=headers)


def test_an_endpoint_is_added_with_its_id_and_listed_without_its_secret(client, headers):
    answer = add(client, headers, "https://hooks.example.com/in", share=["location"])
    assert answer.status_code == 200
    made = answer.get_json()
    assert made["webhook_id"] and made["events"] == ["alert.fired"] and made["share"] == ["location"]
    listed = client.get("/api/v1/webhooks/1", headers=headers).get_json()["webhooks"]
    assert [w["webhook_id"] for w in listed] == [made["webhook_id"]] and listed[0]["waiting"] == 0
    assert SECRET not in answer.get_data(as_text=True) + json.dumps(listed)


@pytest.mark.parametrize("body, field", [
    ({"url": "http://hooks.example.com/in"}, "url"), ({"url": "https://10.0.0.7/in"}, "url"),
    ({"url": "https://[64:ff9b::7f00:1]/in"}, "url"), ({"url": "https://224.0.0.1/in"}, "url"),
    ({"events": ["listener.bought_a_car"]}, "events"), ({"events": []}, "events"), ({"secret": "short"}, "secret"),
    ({"share": ["id_number"]}, "share"), ({"colour": "red"}, "colour")])
def test_a_bad_endpoint_is_refused_with_a_clear_422_naming_the_field(client, headers, body, field):
    answer = client.post("/api/v1/webhooks/1", json={"url": "https://hooks.example.com/in", "secret": SECRET,
                                                     "events": ["alert.fired"], **body}, headers=headers)
    assert answer.status_code == 422 and field in answer.get_data(as_text=True)
    assert client.get("/api/v1/webhooks/1", headers=headers).get_json()["webhooks"] == []


def test_an_endpoint_removed_is_gone_and_a_second_removal_is_404(client, headers):
    webhook_id = add(client, headers, "https://hooks.example.com/in").get_json()["webhook_id"]
    assert client.delete(f"/api/v1/webhooks/1/{webhook_id}", headers=headers).get_json()["deleted"] is True
    assert client.delete(f"/api/v1/webhooks/1/{webhook_id}", headers=headers).status_code == 404


def test_the_log_shows_a_failed_test_event_then_its_replay_delivered(client, headers):
    with receiving() as receiver:
        webhook_id = add(client, headers, receiver.url).get_json()["webhook_id"]
        receiver.mode = "fail"
        assert client.post(f"/api/v1/webhooks/1/{webhook_id}/test", headers=headers).get_json()["queued"] == 1
        Worker(settings=None).work_until_idle()
        log = client.get(f"/api/v1/webhooks/1/{webhook_id}/deliveries?failed=true", headers=headers).get_json()
        failed = log["deliveries"][0]
        assert (failed["ok"], failed["status"], failed["error"], log["waiting"]) == (
            False, 500, "the endpoint answered 500 (Internal Server Error)", 1)
        receiver.mode = "ok"
        replayed = client.post(f"/api/v1/webhooks/1/{webhook_id}/deliveries/{failed['delivery_id']}/replay",
                               headers=headers)
        assert replayed.status_code == 200 and replayed.get_json()["queued"] == 1
        Worker(settings=None).work_until_idle()
        assert [e["type"] for e in receiver.events()][-1] == "webhook.test"


def test_another_station_s_key_reaches_none_of_the_endpoints(client, headers, key_for):
    webhook_id = add(client, headers, "https://hooks.example.com/in").get_json()["webhook_id"]
    theirs = key_for(2)
    assert client.get("/api/v1/webhooks/2", headers=theirs).get_json()["webhooks"] == []
    assert client.get(f"/api/v1/webhooks/2/{webhook_id}/deliveries", headers=theirs).status_code == 404
    assert client.delete(f"/api/v1/webhooks/2/{webhook_id}", headers=theirs).status_code == 404
    assert client.get("/api/v1/webhooks/1", headers=theirs).status_code == 403
