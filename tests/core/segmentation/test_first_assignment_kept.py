"""Every snapshot a run publishes keeps each listener's first segment, whole or partial, so that a live batch or a
re-profile on top of it finds the columns it carries forward."""
from __future__ import annotations

import pytest

from core.listeners import snapshot
from core.segmentation.live import reprofile_listeners
from core.segmentation.runs import resegment_listeners, segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


def test_a_partial_run_keeps_the_first_segments_and_a_re_profile_can_follow_it(app):
    make_listener(1, "27820000001", [event(3)])
    make_listener(1, "27820000002", [event(40)])
    segment_company(1, NOW)
    first = snapshot.current(1)
    firsts = {o: first.labels("first_segment")[first.row_of(o)] for o in ("27820000001", "27820000002")}
    resegment_listeners(1, ["27820000001"], NOW)
    snapshot.clear_cache()
    after = snapshot.current(1)
    assert {o: after.labels("first_segment")[after.row_of(o)] for o in firsts} == firsts
    assert reprofile_listeners(1, ["27820000002"])["27820000002"]


def test_a_file_written_without_the_first_segments_takes_fresh_rows_beside_it(app):
    """A file of the release that lost the columns on partial runs: a re-profile on top of it must still work."""
    make_listener(1, "27820000001", [event(3)])
    make_listener(1, "27820000002", [event(40)])
    segment_company(1, NOW)
    current = snapshot.current(1)
    fresh = current.take([current.row_of("27820000002")])
    old = current.take(slice(None))
    del old.cols["first_segment"]
    merged = snapshot.splice(old, fresh)
    assert merged.labels("first_segment")[merged.row_of("27820000001")] is None
