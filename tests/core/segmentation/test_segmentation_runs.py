"""Segmentation runs over real stored interactions: history, movements, partial runs, the published snapshot."""
from __future__ import annotations

from datetime import timedelta, timezone

import pytest

from core import personal
from core.explore.listener import get_listener
from core.listeners import snapshot
from core.segmentation.models import SegmentChange
from core.segmentation.runs import resegment_listeners, segment_company
from core.stations.models import Show
from tests.factories import make_company, make_listener
from tests.memory import NOW, column, event

pytestmark = pytest.mark.db

SAST = timezone(timedelta(hours=2))


def test_a_run_appends_history_only_for_listeners_whose_segment_changed(app):
    make_listener(1, "a", [event(1), event(3)])
    make_listener(1, "b", [event(100)])
    segment_company(1, NOW)
    run = segment_company(1, NOW + timedelta(days=10))
    moves = {(c.originator, c.from_segment, c.to_segment) for c in SegmentChange.objects(run_id=run.run_id)}
    assert moves == {(personal.key_of(1, "a"), "new_listener", "occasional_engager")}  # stored under its key
    history = get_listener(1, "a")["segment_history"]
    assert [(h["from"], h["to"]) for h in history] == [(None, "new_listener"), ("new_listener", "occasional_engager")]
    assert history[1]["at"] == (NOW + timedelta(days=10)).isoformat()


def test_movements_count_transitions_and_name_the_show_in_words(app):
    make_company(1)
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=[1], start="06:00", end="09:00").save()
    for i in range(3):
        make_listener(1, f"l{i}", [event(d, channel=1 + d % 2, timeslot=3) for d in range(1, 13)]
                      + [event(200, timeslot=3)])
    segment_company(1, NOW)
    run = segment_company(1, NOW + timedelta(days=40))
    assert run.movements["matrix"] == {"super_fan": {"at_risk": 3}}
    assert run.movements["highlights"] == ["3 super fans are now at risk, all of them Breakfast Club listeners"]


def test_resegmenting_touched_listeners_keeps_the_others_as_they_were(app):
    make_listener(1, "a", [event(1), event(3)])
    make_listener(1, "b", [event(2), event(4)])
    segment_company(1, NOW)
    later = NOW + timedelta(days=20)
    resegment_listeners(1, ["a"], now=later)
    assert column(snapshot.current(1), "segment", "a") == "occasional_engager"
    assert column(snapshot.current(1), "segment", "b") == "new_listener"
    assert len(snapshot.current(1)) == 2


def test_same_interactions_and_now_always_give_the_same_segments(app):
    make_listener(1, "a", [event(d, channel=1 + d % 3) for d in range(1, 30)])
    make_listener(1, "b", [event(40), event(41)])
    first = segment_company(1, NOW).rollup
    snapshot.clear_cache()
    assert segment_company(1, NOW).rollup == first


def test_a_partial_run_keeps_fixed_vocabularies_in_their_order(app):
    make_listener(1, "a", [event(1)], name="A", email="a@x.fm")
    make_listener(1, "b", [event(2)])
    segment_company(1, NOW)
    resegment_listeners(1, ["a"], now=NOW)
    snap = snapshot.current(1)
    from core.listeners.fields import COMPLETENESS
    from core.segmentation.rules import SEGMENTS

    assert snap.vocab["missing_fields"] == list(COMPLETENESS)
    assert snap.vocab["segment"] == list(SEGMENTS)
    assert column(snap, "missing_fields", "a") == ["mobile_number", "gender", "age", "location", "language",
                                                   "ethnicity", "id_number"]


def test_with_no_new_events_a_later_run_moves_a_listener_to_at_risk_then_dormant(app):
    make_listener(1, "a", [event(10), event(12), event(14)])
    segments = []
    for days in (0, 25, 85):
        segment_company(1, NOW + timedelta(days=days))
        segments.append(column(snapshot.current(1), "segment", "a"))
    assert segments == ["occasional_engager", "at_risk", "dormant"]
