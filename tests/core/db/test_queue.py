"""The durable job queue: jobs of one kind and key merge while they wait, the oldest due job is claimed by one
worker only, a dead worker's job is taken over once its lease runs out, and a failed job is tried again later until
its attempts are spent."""
from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.config import activate, active
from core.db import queue

pytestmark = pytest.mark.db


@pytest.fixture
def kinds(app):
    """A kind `note` whose payloads keep every word asked for while they wait, with three attempts."""
    worked: list[dict] = []
    queue.register("note", queue.Kind(run=worked.append, attempts=3,
                                      merge=lambda a, b: {"words": sorted({*a["words"], *b["words"]})}))
    yield worked
    queue._kinds.pop("note", None)


def jobs(**query) -> list[dict]:
    return list(queue.Job._get_collection().find(query))


def test_jobs_of_one_key_merge_while_they_wait_and_other_keys_stay_apart(kinds):
    queue.enqueue("note", "a", {"words": ["one"]})
    queue.enqueue("note", "a", {"words": ["two"]})
    queue.enqueue("note", "b", {"words": ["three"]})
    assert sorted((j["key"], j["payload"]["words"]) for j in jobs()) == [("a", ["one", "two"]), ("b", ["three"])]


def test_a_job_being_worked_is_not_merged_into_so_nothing_asked_later_is_lost(kinds):
    queue.enqueue("note", "a", {"words": ["one"]})
    queue.claim("w1")
    queue.enqueue("note", "a", {"words": ["two"]})
    assert sorted(j["state"] for j in jobs()) == ["queued", "running"]


def test_the_oldest_due_job_is_claimed_and_a_job_not_yet_due_waits(kinds):
    now = utcnow()
    queue.enqueue("note", "later", {"words": []}, now=now + timedelta(minutes=5))
    queue.enqueue("note", "first", {"words": []}, now=now - timedelta(minutes=2))
    queue.enqueue("note", "second", {"words": []}, now=now - timedelta(minutes=1))
    assert [queue.claim("w", now=now)["key"] for _ in range(2)] == ["first", "second"]
    assert queue.claim("w", now=now) is None


def test_two_workers_racing_never_claim_one_job_twice(kinds):
    for n in range(20):
        queue.enqueue("note", f"k{n}", {"words": []})
    claimed: list[str] = []

    def take(name: str) -> None:
        while (job := queue.claim(name)) is not None:
            claimed.append(job["key"])

    racers = [threading.Thread(target=take, args=(f"w{n}",)) for n in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(claimed) == sorted(f"k{n}" for n in range(20))


def test_a_dead_worker_s_job_is_taken_over_once_its_lease_ran_out_and_the_dead_one_cannot_renew(kinds):
    queue.enqueue("note", "a", {"words": []})
    first = queue.claim("dead")
    assert queue.claim("alive") is None  # the lease still stands
    later = utcnow() + queue.lease_length() + timedelta(seconds=1)
    second = queue.claim("alive", now=later)
    assert second["_id"] == first["_id"] and second["attempts"] == 2
    assert not queue.renew(first) and queue.renew(second)


@pytest.fixture
def short_leases(app):
    """Claims that stand 5 seconds (JOB_LEASE_S=5), as in the multi-host test."""
    before = active()
    activate(replace(before, job_lease_s=5.0))
    yield
    activate(before)


def test_a_claim_stands_as_long_as_job_lease_s_says_then_another_worker_takes_the_job(kinds, short_leases):
    queue.enqueue("note", "a", {"words": []})
    now = utcnow()
    first = queue.claim("dead", now=now)
    assert queue.claim("alive", now=now + timedelta(seconds=4.5)) is None
    second = queue.claim("alive", now=now + timedelta(seconds=5.5))
    assert second["_id"] == first["_id"] and second["owner"] == "alive"


def test_a_failed_job_is_tried_again_after_a_growing_wait_then_marked_failed(kinds):
    queue.enqueue("note", "a", {"words": []})
    now = utcnow()
    waits = []
    for _ in range(3):
        job = queue.claim("w", now=now)
        state = queue.finish(job, "boom", now=now)
        if state == "queued":
            waits.append(round((jobs()[0]["run_after"].replace(tzinfo=now.tzinfo) - now).total_seconds()))
            now = now + timedelta(seconds=waits[-1])
    assert state == "failed" and waits == [queue.BACKOFF_S[0], queue.BACKOFF_S[1]]
    assert jobs()[0]["error"] == "boom" and queue.claim("w", now=now + timedelta(days=1)) is None


def test_a_kind_with_its_own_backoff_waits_by_it_and_the_others_keep_the_default(kinds):
    queue.register("patient", queue.Kind(run=lambda payload: None, attempts=4, backoff_s=(5, 50)))
    try:
        now, waits = utcnow() + timedelta(seconds=1), {}  # after the enqueues: a job is claimable from its enqueue
        for name in ("patient", "note"):
            queue.enqueue(name, "a", {"words": []})
            waits[name] = []
            for _ in range(3):
                job = queue.claim("w", [name], now=now)
                queue.finish(job, "boom", now=now)
                run_after = jobs(kind=name)[0]["run_after"].replace(tzinfo=now.tzinfo)
                waits[name].append(round((run_after - now).total_seconds()))
                now = run_after
        assert waits["patient"] == [5, 50, 50]  # the last wait repeats
        assert waits["note"][:2] == [30, 120]
    finally:
        queue._kinds.pop("patient", None)


def test_the_queue_depth_counts_waiting_jobs_per_kind(kinds):
    for key in ("a", "b"):
        queue.enqueue("note", key, {"words": []})
    queue.claim("w")
    assert queue.depth() == {"note": 1}


def test_asking_again_for_what_a_waiting_job_already_asks_queues_nothing_more(kinds):
    queue.enqueue("note", "a", {"words": ["one"]})
    queue.enqueue("note", "a", {"words": ["one"]})
    assert len(jobs()) == 1


def test_a_waiting_job_hurried_is_due_at_once_and_nothing_waiting_is_not_made_up(kinds):
    queue.enqueue("note", "a", {"words": []})
    now = utcnow()
    queue.finish(queue.claim("w", now=now), "boom", now=now)  # waits out its backoff
    assert queue.claim("w", now=now) is None
    assert queue.hurry("note", "a", now=now) and queue.claim("w", now=now)["key"] == "a"
    assert not queue.hurry("note", "b", now=now) and jobs(key="b") == []


def test_a_due_short_job_is_claimed_before_an_older_long_one_and_the_long_one_then_follows(kinds):
    queue.register("slow", queue.Kind(run=lambda payload: None, long=True))
    now = utcnow()
    queue.enqueue("slow", "station", {}, now=now - timedelta(minutes=2))
    queue.enqueue("note", "rebuild", {"words": []}, now=now - timedelta(minutes=1))
    queue.enqueue("note", "not yet", {"words": []}, now=now + timedelta(minutes=5))
    try:
        assert [queue.claim("w", now=now)["key"] for _ in range(2)] == ["rebuild", "station"]
        assert queue.claim("w", now=now) is None
    finally:
        queue._kinds.pop("slow", None)


def test_the_station_s_embedding_is_a_long_job_and_its_history_rebuild_a_short_one(app):
    from core.history.record import REBUILD_JOB
    from core.search.vectors import EMBED_JOB

    assert queue.kinds()[EMBED_JOB].long and not queue.kinds()[REBUILD_JOB].long
