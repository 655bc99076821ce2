"""Stored interactions outside the accepted range (2000-01-01T00:00:00Z to one day after `now`) are left out wherever
stored interactions are read, so that no consumer meets a placeholder date: batches read into Events, one listener's
history, and the messages of a batch."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from core.listeners.events import accepted_millis, batch_document, events_of, listener_history, timed_messages
from tests.factories import make_listener
from tests.memory import NOW
from tests.out_of_range import millis, store_out_of_range

IN_RANGE = {"2000-01-01T00:00:00Z": millis(datetime(2000, 1, 1, tzinfo=UTC)), "NOW": millis(NOW),
            "a day after NOW": millis(NOW + timedelta(days=1))}
OUTSIDE = {"1999-12-31T23:59:59.999Z": millis(datetime(2000, 1, 1, tzinfo=UTC)) - 1,
           "0001-01-01": millis(datetime(1, 1, 1, tzinfo=UTC)),
           "a millisecond beyond a day after NOW": millis(NOW + timedelta(days=1)) + 1,
           "the largest int64": 2**63 - 1, "the smallest int64": -2**63}


def batch(times: list[int], campaigns: list[str] | None = None, originator: str = "27820000001") -> dict:
    """One listener's batch as the importer writes it, a message on every interaction."""
    n = len(times)
    return batch_document(1, originator, "test", times, [2] * n, campaigns or ["song_request"] * n, [None] * n,
                          [f"message {i}" for i in range(n)], [str(i) for i in range(n)])


def test_the_accepted_range_runs_from_2000_01_01_utc_to_one_day_after_now_both_included():
    assert accepted_millis(NOW) == (946_684_800_000, millis(NOW + timedelta(days=1)))


def test_interactions_outside_the_accepted_range_are_not_read_into_events():
    events = events_of([batch(list(OUTSIDE.values()) + list(IN_RANGE.values()))], now=NOW)
    assert sorted(events.ts.tolist()) == sorted(ms // 1000 for ms in IN_RANGE.values())
    assert len(events.row) == len(events.channel) == len(events.campaign) == len(events.timeslot) == len(IN_RANGE)


def test_a_listener_whose_interactions_are_all_outside_the_range_is_read_with_none():
    events = events_of([batch(list(OUTSIDE.values())), batch([IN_RANGE["NOW"]], originator="27820000002")], now=NOW)
    assert events.originators == ["27820000001", "27820000002"]
    assert np.bincount(events.row, minlength=2).tolist() == [0, 1]


def test_the_campaign_types_of_interactions_left_out_are_not_in_the_vocabulary():
    events = events_of([batch([OUTSIDE["0001-01-01"], IN_RANGE["NOW"]], ["competition", "song_request"])], now=NOW)
    assert events.campaign_vocab == ["song_request"] and events.campaign.tolist() == [0]


def test_the_messages_of_interactions_outside_the_range_are_not_read():
    found = timed_messages(batch([OUTSIDE["0001-01-01"], IN_RANGE["NOW"], OUTSIDE["the largest int64"]]), now=NOW)
    assert found == [(IN_RANGE["NOW"], "message 1")]


@pytest.mark.db
def test_a_listener_history_leaves_out_the_interactions_outside_the_range(app):
    make_listener(1, "27820000001")
    store_out_of_range(1, "27820000001")
    history = listener_history(1, "27820000001")
    first, last = accepted_millis()
    assert len(history) == 1 and first <= int(history.ms[0]) <= last  # three days after NOW is in range
    assert len(history.campaign) == len(history.message) == len(history.channel) == len(history.timeslot) == 1
