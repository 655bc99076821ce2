"""The worker process's loop: it works what the queue holds (a failure is kept and tried again later, the worker
goes on), queues every station's embedding once at start however many workers start, runs the daily jobs, and a
stop request lets the job under way finish."""
from __future__ import annotations

import threading
import time

import pytest

from core.db import queue
from core.search.models import ListenerEmbedding
from core.segmentation.runs import segment_company
from core.service.worker import Worker
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def worker(app):
    """A worker of the test settings; kinds `ok`, `boom` and `slow` besides the service's own."""
    worked: list[dict] = []

    def boom(payload):
        raise RuntimeError("the provider fell over")

    def slow(payload):
        time.sleep(payload["seconds"])
        worked.append(payload)

    queue.register("ok", queue.Kind(run=worked.append))
    queue.register("boom", queue.Kind(run=boom, attempts=2))
    queue.register("slow", queue.Kind(run=slow))
    yield Worker(app.config["SETTINGS"], poll_s=0.05, daily_every_s=3600), worked
    for name in ("ok", "boom", "slow"):
        queue._kinds.pop(name, None)


def test_the_worker_works_every_due_job_and_a_failure_is_kept_for_a_later_try(worker):
    this, worked = worker
    queue.enqueue("boom", "x", {})
    queue.enqueue("ok", "y", {"n": 1})
    assert this.work_until_idle() == 2
    assert worked == [{"n": 1}]
    failed = queue.Job._get_collection().find_one({"kind": "boom"})
    assert failed["state"] == "queued" and "the provider fell over" in failed["error"]


def test_an_embedding_job_queued_by_a_run_is_done_by_the_worker_not_by_the_run(worker, monkeypatch):
    from core.search import vectors

    this, _ = worker
    monkeypatch.setattr(vectors, "active", lambda: type("S", (), {"auto_embed": True})())
    make_listener(1, "27820000001", [event(2, message="Play gospel please")])
    segment_company(1, NOW)
    assert ListenerEmbedding.objects(company_id=1).count() == 0
    this.work_until_idle()
    assert ListenerEmbedding.objects(company_id=1).count() == 1


def embedding_in_the_background(monkeypatch, on: bool) -> None:
    """The settings' AUTO_EMBED as the worker reads it (the test settings have it off)."""
    from core.service import worker as worker_module

    monkeypatch.setattr(worker_module, "active", lambda: type("S", (), {"auto_embed": on})())


def test_workers_starting_together_queue_each_station_s_catch_up_once(worker, app, monkeypatch):
    this, _ = worker
    embedding_in_the_background(monkeypatch, True)
    for company_id in (1, 2):
        make_listener(company_id, f"2782000000{company_id}", [event(2)])
    others = [Worker(app.config["SETTINGS"]) for _ in range(3)]
    starting = [threading.Thread(target=w.catch_up) for w in (this, *others)]
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join()
    waiting = sorted(j["key"] for j in queue.Job._get_collection().find({"kind": "embed", "state": "queued"}))
    assert waiting == ["embed:1", "embed:2"]


def test_a_worker_started_with_embedding_off_queues_no_embedding(worker, monkeypatch):
    this, _ = worker
    embedding_in_the_background(monkeypatch, False)
    make_listener(1, "27820000001", [event(2, message="Play gospel please")])
    this.catch_up()
    assert queue.Job._get_collection().count_documents({"kind": "embed"}) == 0


def test_a_stop_lets_the_job_under_way_finish_and_starts_no_other(worker):
    this, worked = worker
    queue.enqueue("slow", "a", {"seconds": 0.5})
    queue.enqueue("slow", "b", {"seconds": 0.5})
    running = threading.Thread(target=this.run)
    running.start()
    deadline = time.monotonic() + 10
    while not queue.Job._get_collection().count_documents({"state": "running"}) and time.monotonic() < deadline:
        time.sleep(0.01)
    this.stop()
    running.join(timeout=10)
    assert not running.is_alive() and len(worked) == 1
    states = sorted(j["state"] for j in queue.Job._get_collection().find({"kind": "slow"}))
    assert states == ["done", "queued"]
