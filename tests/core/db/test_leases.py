"""The lease lock that keeps two runs of one company from rewriting its snapshot at the same time, and the single
flight that makes one paid answer once however many ask for it at once."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.db.connection import get_db
from core.db.leases import lease, single_flight
from core.errors import Conflict

pytestmark = pytest.mark.db


def test_a_second_holder_waits_until_the_first_releases(app):
    order = []

    def hold(name: str, seconds: float) -> None:
        with lease("segment:1"):
            order.append(f"{name} in")
            time.sleep(seconds)
            order.append(f"{name} out")

    first = threading.Thread(target=hold, args=("first", 0.5))
    first.start()
    time.sleep(0.1)
    hold("second", 0)
    first.join()
    assert order == ["first in", "first out", "second in", "second out"]


def test_a_busy_lock_is_a_conflict_after_the_wait(app):
    with lease("segment:1"):
        with pytest.raises(Conflict):
            with lease("segment:1", wait_s=0.3):
                pass


def test_an_expired_lease_of_a_dead_holder_is_taken_over(app):
    get_db()["locks"].insert_one({"_id": "segment:1", "owner": "a process that died",
                                  "until": utcnow() - timedelta(seconds=1)})
    with lease("segment:1", wait_s=1):
        assert get_db()["locks"].find_one({"_id": "segment:1"})["owner"] != "a process that died"


def test_a_living_holder_keeps_its_lease_past_its_ttl(app):
    with lease("segment:1", ttl=timedelta(milliseconds=300)):
        time.sleep(1)
        with pytest.raises(Conflict):
            with lease("segment:1", wait_s=0.3):
                pass


def test_a_released_lease_is_no_longer_renewed(app):
    with lease("segment:1", ttl=timedelta(milliseconds=300)):
        pass
    time.sleep(0.5)
    assert get_db()["locks"].find_one({"_id": "segment:1"}) is None


def test_locks_of_different_companies_do_not_block_each_other(app):
    with lease("segment:1"):
        with lease("segment:2", wait_s=0.3):
            pass


def flights(runners: int, make) -> list:
    """`runners` threads asking at once for one answer kept in a dict; what each got back."""
    kept: dict = {}
    start = threading.Barrier(runners)

    def ask(_):
        start.wait()
        with single_flight("answer:1", lambda: kept.get("answer")) as found:
            if found is None:
                kept["answer"] = make()
                return "made"
        return found

    with ThreadPoolExecutor(runners) as pool:
        return list(pool.map(ask, range(runners)))


def test_eight_callers_racing_for_one_answer_make_it_once_and_the_others_get_it(app):
    made = []
    got = flights(8, lambda: made.append(1) or (time.sleep(0.3), "the answer")[1])
    assert len(made) == 1
    assert sorted(got) == ["made"] + ["the answer"] * 7


def test_a_caller_that_fails_gives_the_claim_back_and_the_next_one_makes_the_answer(app):
    attempts = []

    def make():
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("provider down")
        return "the answer"

    with pytest.raises(RuntimeError):
        with single_flight("answer:2", lambda: None) as found:
            assert found is None
            make()
    with single_flight("answer:2", lambda: None) as found:
        assert found is None
        assert make() == "the answer"


def test_a_cached_answer_takes_no_claim(app):
    with lease("single-flight:answer:3"):  # held by someone else: a cached answer must not wait for it
        with single_flight("answer:3", lambda: "cached") as found:
            assert found == "cached"
