"""Re-profiled rows written over a snapshot in place, and the copy made when they do not fit."""
from __future__ import annotations

from core.listeners import snapshot
from tests.memory import column, event, snapshot_of

STATION = [{"originator": "27820000001", "events": [event(120), event(150)]},
           {"originator": "27820000002", "events": [event(2)]},
           {"originator": "27820000003", "events": [event(3, channel=2)]}]


def test_rows_of_known_listeners_are_written_over_their_rows_of_the_same_snapshot():
    previous = snapshot_of(STATION)
    fresh = snapshot_of([{"originator": "27820000001", "events": [event(1), event(120), event(150)]}])
    merged = snapshot.splice_in_place(previous, fresh)
    assert merged is previous
    assert merged.originators.tolist() == ["27820000001", "27820000002", "27820000003"]
    assert column(merged, "segment", "27820000001") == column(fresh, "segment", "27820000001") != "dormant"
    assert column(merged, "n_30", "27820000001") == 1
    assert column(merged, "channels", "27820000003") == [2]


def test_a_new_listener_is_added_to_a_copy_with_the_same_rows_otherwise():
    previous = snapshot_of(STATION)
    fresh = snapshot_of([{"originator": "27820000004", "events": [event(1)]}])
    merged = snapshot.splice_in_place(previous, fresh)
    assert merged is not previous and len(previous) == 3
    assert sorted(merged.originators.tolist()) == ["27820000001", "27820000002", "27820000003", "27820000004"]


def test_a_value_the_snapshot_has_no_code_for_goes_to_a_copy_that_has_it():
    previous = snapshot_of(STATION)
    fresh = snapshot_of([{"originator": "27820000002", "events": [event(1)], "tags": ["vip"]}])
    merged = snapshot.splice_in_place(previous, fresh)
    assert merged is not previous
    assert column(merged, "tags", "27820000002") == ["vip"]
    assert column(previous, "tags", "27820000002") == []


def test_counts_per_show_keep_their_numbers_when_a_listener_brings_a_show_the_snapshot_has_no_column_for():
    previous = snapshot_of(STATION)
    fresh = snapshot_of([{"originator": "27820000002", "events": [event(1, timeslot=7)] * 3}])
    merged = snapshot.splice_in_place(previous, fresh)
    counts = dict(zip(merged.vocab["timeslot_counts"], merged.cols["timeslot_counts"][merged.row_of("27820000002")]))
    assert merged.cols["timeslot_counts"].dtype == previous.cols["timeslot_counts"].dtype and counts[7] == 3
    assert merged.cols["channel_counts"][merged.row_of("27820000001")].sum() == 2
