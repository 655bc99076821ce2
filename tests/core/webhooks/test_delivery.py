"""Delivery to loopback receivers that answer 200, 500, too late or close the connection: signed as the manual's
code verifies (docs/alerts-and-webhooks.md), batched, retried with a backoff of over a day, in order per listener, at
least once (a repeat keeps its event id), replayed, logged; and URLs that reach private addresses refused when saved
and at delivery."""
from __future__ import annotations

import json
import logging
import re
import socket
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import utcnow
from core.db import queue
from core.db.leases import lease
from core.service.worker import Worker
from core.webhooks import delivery, urls
from core.webhooks.endpoints import add_endpoint, list_deliveries, replay_delivery, send_test
from core.webhooks.events import DELIVER_JOB, Event, emit, queue_events, queued_events
from core.webhooks.models import WebhookEndpoint
from tests.core.webhooks.receiver import receiving
from tests.factories import make_company

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[3]
SECRET = "a-secret-of-the-station-1"


def readme_verifier():
    """The manual's verify_signature (docs/alerts-and-webhooks.md), run as a receiver would copy it."""
    text = (ROOT / "docs" / "alerts-and-webhooks.md").read_text(encoding="utf-8")
    section = text[text.index("**Verifying a delivery.**"):]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL).group(1)
    scope: dict = {}
    exec(compile(code, "alerts-and-webhooks.md", "exec"), scope)  # noqa: S102 - the manual's own example, as a reader runs it
    return scope["verify_signature"]


@pytest.fixture
def receiver(app):
    make_company(1)
    with receiving() as server:
        yield server


def endpoint_for(server, events=("alert.fired",)) -> str:
    return add_endpoint(1, server.url, SECRET, list(events))["webhook_id"]


def work() -> int:
    return Worker(settings=None).work_until_idle()


def waiting() -> int:
    return sum(len(queued_events(e.webhook_id, delivered=False)) for e in WebhookEndpoint.objects)


def job() -> dict:
    return queue.Job._get_collection().find_one({"kind": DELIVER_JOB})


def test_a_delivery_is_signed_so_that_the_readme_s_code_verifies_it_and_rejects_a_changed_body(receiver):
    endpoint_for(receiver)
    emit(1, "alert.fired", {"rule": "super_fan falls below 1,000"})
    work()
    verify = readme_verifier()
    request = receiver.received[0]
    assert verify(SECRET, request["body"], request["headers"]["X-Signature"])
    assert not verify(SECRET, request["body"].replace(b"1,000", b"9,000"), request["headers"]["X-Signature"])
    assert not verify("another-secret-entirely", request["body"], request["headers"]["X-Signature"])
    assert receiver.events()[0]["data"] == {"rule": "super_fan falls below 1,000"}


def test_events_travel_in_batches(receiver):
    endpoint_for(receiver)
    queue_events(1, [Event("alert.fired", {"n": n}) for n in range(delivery.BATCH + 5)])
    work()
    assert [len(json.loads(r["body"])["events"]) for r in receiver.received] == [delivery.BATCH, 5]


def test_a_failed_delivery_is_logged_and_tried_again_later_then_delivered_in_order_with_the_same_ids(receiver):
    webhook_id = endpoint_for(receiver)
    receiver.mode = "fail"
    for n in range(3):
        emit(1, "alert.fired", {"n": n}, originator="27820000001")
    work()
    assert job()["state"] == "queued" and job()["run_after"].replace(tzinfo=None) > utcnow().replace(tzinfo=None)
    failed = list_deliveries(1, webhook_id)["deliveries"]
    assert [(d["ok"], d["status"], d["error"], d["attempt"]) for d in failed] == [
        (False, 500, "the endpoint answered 500 (Internal Server Error)", 1)]
    emit(1, "alert.fired", {"n": 3}, originator="27820000001")  # waits behind the failed batch
    receiver.mode = "ok"
    queue.Job._get_collection().update_one({"kind": DELIVER_JOB}, {"$set": {"run_after": utcnow()}})
    work()
    sent = [json.loads(r["body"])["events"] for r in receiver.received]
    assert [[e["data"]["n"] for e in batch] for batch in sent] == [[0, 1, 2], [0, 1, 2, 3]]
    assert [e["id"] for e in sent[0]] == [e["id"] for e in sent[1][:3]]  # a repeat keeps its id
    latest = list_deliveries(1, webhook_id)["deliveries"][0]
    assert (latest["ok"], latest["status"], latest["attempt"]) == (True, 200, 2) and latest["latency_ms"] >= 0
    assert waiting() == 0


@pytest.mark.parametrize("mode, error", [("slow", "timed out: no answer within 0.3 s"),
                                         ("close", "closed the connection without answering")])
def test_a_receiver_that_does_not_answer_in_time_or_closes_the_connection_is_a_failure(receiver, monkeypatch,
                                                                                       mode, error):
    monkeypatch.setattr(delivery, "TIMEOUT_S", 0.3)
    webhook_id = endpoint_for(receiver)
    receiver.mode = mode
    emit(1, "alert.fired", {"n": 1})
    work()
    logged = list_deliveries(1, webhook_id)["deliveries"][0]
    assert not logged["ok"] and logged["status"] is None and error in logged["error"]
    assert waiting() == 1 and job()["state"] == "queued"


def test_a_host_name_that_cannot_be_found_is_logged_in_words(receiver, monkeypatch):
    def not_found(url):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(delivery, "resolve_for_delivery", not_found)
    webhook_id = add_endpoint(1, "https://hooks.example.invalid/in", SECRET, ["alert.fired"])["webhook_id"]
    send_test(1, webhook_id)
    work()
    logged = list_deliveries(1, webhook_id)
    assert logged["deliveries"][0]["error"] == "the host name hooks.example.invalid could not be found"
    assert logged["last_delivery"]["error"] == logged["deliveries"][0]["error"]


def test_an_endpoint_nothing_listens_on_is_a_connection_refused_in_words(receiver):
    with socket.socket() as probe:  # a port just freed: nothing listens on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    webhook_id = add_endpoint(1, f"http://127.0.0.1:{port}/in", SECRET, ["alert.fired"])["webhook_id"]
    emit(1, "alert.fired", {"n": 1})
    work()
    assert list_deliveries(1, webhook_id)["deliveries"][0]["error"] == (
        f"connection refused by 127.0.0.1:{port} (nothing listens there)")


def test_a_retry_is_one_warning_line_in_words_and_its_traceback_only_at_debug(receiver, caplog):
    endpoint_for(receiver)
    receiver.mode = "fail"
    emit(1, "alert.fired", {"n": 1})
    with caplog.at_level(logging.WARNING):
        work()
    [line] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert line.levelno == logging.WARNING and line.exc_info is None and "Traceback" not in line.getMessage()
    assert "the endpoint answered 500 (Internal Server Error)" in line.getMessage()
    assert "attempt 1, tried again later" in line.getMessage()
    caplog.clear()
    queue.Job._get_collection().update_one({"kind": DELIVER_JOB}, {"$set": {"run_after": utcnow()}})
    with caplog.at_level(logging.DEBUG, logger="core.service.worker"):
        work()
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG and r.name == "core.service.worker"]
    assert any("traceback" in m and "deliver_waiting" in m for m in debug)
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1


def test_a_receiver_that_stays_down_is_tried_for_more_than_a_day_and_nothing_is_lost(receiver):
    endpoint_for(receiver)
    receiver.mode = "fail"
    emit(1, "alert.fired", {"n": 1})
    first = now = utcnow()
    state = "queued"
    while state == "queued":
        claimed = queue.claim("w", [DELIVER_JOB], now=now)
        try:
            delivery.deliver_job(claimed["payload"])
        except delivery.DeliveryFailed as failure:
            state = queue.finish(claimed, str(failure), now=now)
        if state == "queued":
            now = job()["run_after"].replace(tzinfo=first.tzinfo)
    assert state == "failed" and now - first > timedelta(days=1)
    assert len(receiver.received) == delivery.ATTEMPTS
    assert waiting() == 1  # still there for the next attempt
    receiver.mode = "ok"
    emit(1, "alert.fired", {"n": 2})  # the next event starts the endpoint's deliveries again
    work()
    assert [e["data"]["n"] for e in json.loads(receiver.received[-1]["body"])["events"]] == [1, 2]


def test_two_workers_never_deliver_one_endpoint_at_once(receiver):
    webhook_id = endpoint_for(receiver)
    emit(1, "alert.fired", {"n": 1})
    with lease(f"webhook:{webhook_id}", wait_s=0), pytest.raises(delivery.DeliveryFailed):
        delivery.deliver_job({"webhook_id": webhook_id})
    assert receiver.received == []


def test_a_delivery_replayed_sends_its_events_again_with_their_ids(receiver):
    webhook_id = endpoint_for(receiver)
    emit(1, "alert.fired", {"n": 1})
    work()
    delivered = list_deliveries(1, webhook_id)["deliveries"][0]
    assert replay_delivery(1, webhook_id, delivered["delivery_id"])["queued"] == 1
    work()
    first, again = (json.loads(r["body"])["events"] for r in receiver.received)
    assert first == again
    assert list_deliveries(1, webhook_id)["deliveries"][0]["replay_of"] == delivered["delivery_id"]


def test_the_test_button_sends_a_sample_event_to_that_endpoint_alone(receiver):
    webhook_id = endpoint_for(receiver)
    other = endpoint_for(receiver)
    send_test(1, webhook_id)
    work()
    assert [e["type"] for e in receiver.events()] == ["webhook.test"]
    assert list_deliveries(1, other)["deliveries"] == []


def test_a_url_is_checked_again_at_delivery_and_a_private_address_is_refused_then(receiver, monkeypatch):
    webhook_id = endpoint_for(receiver)
    emit(1, "alert.fired", {"n": 1})
    monkeypatch.setattr(delivery, "resolve_for_delivery", lambda url: urls.resolve_for_delivery(url, allow_hosts=()))
    work()
    logged = list_deliveries(1, webhook_id)["deliveries"][0]
    assert receiver.received == [] and logged["error"].startswith("refused")


def test_an_endpoint_s_secret_is_never_answered(receiver):
    answer = add_endpoint(1, receiver.url, SECRET, ["alert.fired"])
    assert SECRET not in json.dumps(answer) and WebhookEndpoint.objects.first().secret == SECRET
