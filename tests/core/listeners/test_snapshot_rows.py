"""Finding listeners' rows in a snapshot by their numbers."""
from __future__ import annotations

import numpy as np

from core.listeners.snapshot import Snapshot, empty


def _of(*numbers: str) -> Snapshot:
    return Snapshot(1, {"originator": np.array(numbers)})


def test_each_number_finds_its_row_and_an_unknown_number_none():
    snap = _of("27820000003", "27820000001", "27820000002")
    assert [snap.row_of(n) for n in ("27820000001", "27820000002", "27820000003")] == [1, 2, 0]
    assert snap.rows_of(["27820000002", "27820000009", "27820000003"]).tolist() == [2, -1, 0]
    assert snap.row_of("27820000000") is None and snap.row_of("27830000000") is None


def test_a_number_is_not_found_by_its_beginning_or_a_longer_number():
    snap = _of("2782", "27820000001")
    assert snap.row_of("278") is None and snap.row_of("278200000012") is None
    assert _of("a").row_of("abc") is None  # not cut to the width of the snapshot's numbers
    assert snap.row_of("2782") == 0


def test_a_listener_with_two_rows_is_found_at_the_last():
    snap = _of("27820000001", "27820000002", "27820000001")
    assert snap.row_of("27820000001") == 2 and snap.rows_of(["27820000001"]).tolist() == [2]


def test_a_snapshot_without_listeners_finds_nobody():
    assert empty(1).row_of("27820000001") is None
    assert empty(1).rows_of(["27820000001"]).tolist() == [-1]
    assert _of("27820000001").rows_of([]).tolist() == []
