"""Listener records: many rows at once say what one row says, and the background read works in a forked child (a
preloading server forks its workers after the parent may have read)."""
from __future__ import annotations

import os
import select
import signal
import warnings

import numpy as np
import pytest

from core.explore.records import behaviour, behaviours, records
from core.listeners import snapshot
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event


@pytest.fixture
def station(app):
    make_listener(1, "27830000001", [event(2, message="hello"), event(1)], gender="Female")
    make_listener(1, "27830000002", [event(40, channel=3)])
    make_listener(1, "27830000003", [])
    segment_company(1, NOW)
    return snapshot.current(1)


@pytest.mark.db
def test_many_rows_at_once_read_as_each_row_alone(station):
    rows = np.arange(len(station))
    assert behaviours(station, rows, "Africa/Johannesburg") == [behaviour(station, int(row), "Africa/Johannesburg")
                                                                 for row in rows]
    found = records(1, station, rows[::-1])
    assert [r["originator"] for r in found] == station.originators[rows[::-1]].tolist()
    by_number = {r["originator"]: r for r in found}
    assert by_number["27830000001"]["gender"] == "Female" and by_number["27830000002"]["gender"] is None
    assert by_number["27830000002"]["interactions_total"] == 1 and by_number["27830000002"]["channels"] == [3]


@pytest.mark.db
def test_records_read_in_a_child_forked_after_the_parent_read(station):
    rows = np.arange(len(station))
    records(1, station, rows)  # the parent's pool has a thread now
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            warnings.simplefilter("ignore")  # pymongo's warning of a client used across a fork: a test's own client
            os.write(writing, str(len(records(1, station, rows))).encode())
        except BaseException as e:
            os.write(writing, repr(e).encode()[:300])
        finally:
            os._exit(0)
    os.close(writing)
    ready, _, _ = select.select([reading], [], [], 20)
    if not ready:
        os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    assert ready, "the child's read never finished"
    assert os.read(reading, 400) == str(len(station)).encode()
