"""For the people on call: /health/live and /health/ready, /metrics for the admin key only (request latency by
route, jobs waiting, leases, credits spent, vectors), a request id on every answer carried into the logs and into
the jobs the request queued."""
from __future__ import annotations

import io
import json
import logging
import re

import pytest
from pythonjsonlogger.json import JsonFormatter

from core.access.api_keys import create_key
from core.config import active
from core.credits.charges import charge
from core.credits.ledger import load
from core.db import connection, queue
from core.logs import FIELDS, RequestId, begin_request
from core.oncall import health
from core.search import lexical_store, process_indexes, vectors
from core.search.models import ListenerEmbedding
from core.segmentation.runs import segment_company
from core.service.worker import Worker
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def admin():
    return {"X-Admin-Key": active().admin_key}


def figure(text: str, name: str, **labels) -> float | None:
    """A sample's value in a Prometheus exposition, by name and labels."""
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.partition(" ")[0]))
            if all(found.get(k) == v for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return None


def test_live_answers_whatever_the_database_does(client, monkeypatch):
    monkeypatch.setattr(connection, "ping", lambda: False)
    assert client.get("/health/live").get_json() == {"status": "ok"}


def test_ready_once_the_database_answers_and_every_station_s_index_is_loaded(client, app):
    make_listener(1, "27820000001", [event(2, message="Hello")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    process_indexes.forget_indexes()
    answer = client.get("/health/ready")
    assert answer.status_code == 200 and answer.get_json() == {"status": "ready", "database": "ok", "stations": 1}
    assert vectors.status()["indexed_here"] == 1


def test_ready_means_the_first_search_reads_no_text_again(client, app):
    make_listener(1, "27820000001", [event(2, message="Jerusalema please")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    process_indexes.forget_indexes()
    assert client.get("/health/ready").status_code == 200
    ListenerEmbedding.objects(company_id=1).update(unset__sealed_text=True)  # read again now, the words would be gone
    lexical = lexical_store.current_lexical(1, process_indexes.current_index(1))
    assert lexical.shares("Jerusalema").max() > 0


def test_not_ready_while_the_database_does_not_answer(client, monkeypatch):
    monkeypatch.setattr(health.connection, "ping", lambda: False)
    answer = client.get("/health/ready")
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert answer.get_json()["database"] == "unreachable"


@pytest.mark.parametrize("headers", [{}, {"X-Admin-Key": "wrong"}])
def test_metrics_are_refused_without_the_admin_key_in_json(client, headers):
    answer = client.get("/metrics", headers=headers)
    assert answer.status_code == 403 and "X-Admin-Key" in answer.get_json()["detail"]


def test_metrics_count_requests_by_route_and_read_jobs_leases_and_credits_from_the_database(client, admin):
    before = figure(client.get("/metrics", headers=admin).text, "lss_request_seconds_count",
                    route="/health/live", method="GET", status="200") or 0
    for _ in range(3):
        client.get("/health/live")
    queue.enqueue("embed", "embed:1", {"company_id": 1, "originators": None})
    load(1, 10)
    with charge(1, "ai_segment_insights"):
        pass
    text = client.get("/metrics", headers=admin).text
    assert figure(text, "lss_request_seconds_count", route="/health/live", method="GET", status="200") == before + 3
    assert figure(text, "lss_queue_depth", kind="embed") == 1
    assert figure(text, "lss_credits_spent_total", company_id="1") == 5
    assert figure(text, "lss_vectors_stored") == 0


def test_a_job_done_is_counted_with_how_long_it_took(client, admin, app):
    queue.enqueue("embed", "embed:1", {"company_id": 1, "originators": None})
    Worker(app.config["SETTINGS"]).work_until_idle()
    text = client.get("/metrics", headers=admin).text
    assert figure(text, "lss_jobs_recent", kind="embed", state="done") == 1
    assert figure(text, "lss_job_seconds_recent", kind="embed", stat="max") >= 0


def test_every_answer_carries_a_request_id_the_sane_one_it_came_with_or_a_new_one(client):
    assert client.get("/health/live", headers={"X-Request-ID": "lb-1234.abc"}).headers["X-Request-ID"] == "lb-1234.abc"
    made = client.get("/health/live", headers={"X-Request-ID": "bad id <script>"}).headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{16}", made)
    assert client.get("/login").headers["X-Request-ID"] != made


def test_a_job_queued_by_a_request_keeps_the_request_s_id(client, app, monkeypatch):
    monkeypatch.setattr(vectors, "active", lambda: type("S", (), {"auto_embed": True})())
    make_listener(1, "27820000001", [event(2)])
    _, token = create_key([1])
    client.post("/api/v1/interactions/1", headers={"X-API-Key": token, "X-Request-ID": "req-42"},
                json=[{"company_id": 1, "originator": "27820000001", "timestamp": NOW.isoformat(),
                       "channel_type": 2, "campaign_type": "poll"}])
    job = queue.Job._get_collection().find_one({"kind": "embed"})
    assert job is not None and job["request_id"] == "req-42"


def test_a_log_line_is_one_json_object_with_the_request_id():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter(FIELDS))
    handler.addFilter(RequestId())
    log = logging.getLogger("tests.observability")
    log.addHandler(handler)
    try:
        begin_request("req-7")
        log.warning("the database is slow")
    finally:
        log.removeHandler(handler)
    line = json.loads(stream.getvalue())
    assert line["message"] == "the database is slow" and line["request_id"] == "req-7"
