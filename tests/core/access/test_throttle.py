"""Rate-limit counters in the service's own database: shared by every worker, expiring by themselves."""
from __future__ import annotations

import gc

import limits
import pytest
from limits.storage import storage_from_string
from limits.strategies import STRATEGIES

from core.access import throttle
from core.db import connection
from core.service import startup

pytestmark = pytest.mark.db

FIVE_A_MINUTE = limits.parse("5/minute")


def worker():
    """The counting of one worker process: a storage named by the URI, as flask-limiter builds it."""
    return STRATEGIES[throttle.STRATEGY](storage_from_string(throttle.STORAGE_URI))


class Clock:
    """time.time() for the limits storage, moved by hand."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


def test_a_failure_counted_by_one_worker_counts_for_every_other(app):
    first, second = worker(), worker()
    for _ in range(3):
        first.hit(FIVE_A_MINUTE, "thandi@jozi.fm")
    for _ in range(2):
        second.hit(FIVE_A_MINUTE, "thandi@jozi.fm")
    assert not first.test(FIVE_A_MINUTE, "thandi@jozi.fm")
    assert second.test(FIVE_A_MINUTE, "sam@group.fm")


def test_failures_older_than_the_window_no_longer_count(app, monkeypatch):
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr("limits.storage.mongodb.time", clock)
    counter = worker()
    for _ in range(5):
        counter.hit(FIVE_A_MINUTE, "thandi@jozi.fm")
    assert not counter.test(FIVE_A_MINUTE, "thandi@jozi.fm")
    clock.now += 61
    assert counter.test(FIVE_A_MINUTE, "thandi@jozi.fm")


def test_the_windows_expire_by_a_ttl_index_made_at_start_up(app):
    indexes = connection.get_db()["rate_limit_windows"].index_information()
    assert {"key": [("expireAt", 1)], "expireAfterSeconds": 0}.items() <= indexes["expireAt_1"].items()


def test_the_counters_follow_a_reconnect(app):
    counter = worker()
    counter.hit(FIVE_A_MINUTE, "thandi@jozi.fm")
    startup.start(app.config["SETTINGS"])  # reconnects the data and the key vault, as a process does
    assert counter.hit(FIVE_A_MINUTE, "thandi@jozi.fm")
    assert counter.get_window_stats(FIVE_A_MINUTE, "thandi@jozi.fm").remaining == 3


def test_a_collected_storage_leaves_the_services_connection_open(app):
    counter = worker()
    counter.hit(FIVE_A_MINUTE, "thandi@jozi.fm")
    del counter
    gc.collect()
    assert connection.ping()
