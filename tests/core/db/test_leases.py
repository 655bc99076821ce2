"""The lease lock that keeps two runs of one company from rewriting its snapshot at the same time."""
from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest

from core.db.leases import lease
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
    with lease("segment:1", ttl=timedelta(milliseconds=1)):
        time.sleep(0.05)
        with lease("segment:1", wait_s=1):
            pass


def test_locks_of_different_companies_do_not_block_each_other(app):
    with lease("segment:1"):
        with lease("segment:2", wait_s=0.3):
            pass
