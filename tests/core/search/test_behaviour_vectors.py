"""Behaviour vectors built in memory (no database): unit rows of interaction shares, alike whatever the number of
interactions, read from the snapshot's counts (or, in a file from before them, its members), tags and interests as
one more group, and a listener without interactions behaving like nobody."""
from __future__ import annotations

import numpy as np
import pytest

from core.search.behaviour_vectors import Interactions, Vocabulary, active, behaviour_rows, feature_rows, group_counts
from tests.memory import event, snapshot_of

VOCAB = Vocabulary(timeslot=(1, 2, 3), channel=(1, 2), campaign=("competition", "song_request"))


def interactions(*listeners: list[tuple]) -> Interactions:
    """Interactions of listeners 0, 1, ... each given as (timeslot, channel, campaign) tuples."""
    rows = [(owner, *e) for owner, events in enumerate(listeners) for e in events]
    owner, timeslot, channel, campaign = zip(*rows) if rows else ((), (), (), ())
    return Interactions(np.array(owner, dtype=np.int64), np.array(timeslot), np.array(channel),
                        np.array(campaign, dtype=object))


def person(originator: str, habits: list[tuple], **declared) -> dict:
    """A listener with one interaction per (timeslot, channel, campaign) of `habits`, a day apart."""
    return {"originator": originator, **declared,
            "events": [event(1 + i, channel=c, campaign=k, timeslot=t) for i, (t, c, k) in enumerate(habits)]}


def test_feature_rows_are_unit_length_and_zero_for_a_listener_without_interactions():
    rows = feature_rows(interactions([(1, 1, "competition"), (2, 2, "song_request")], []), 2, VOCAB)
    assert np.linalg.norm(rows[0]) == pytest.approx(1.0)
    assert not rows[1].any()


def test_listeners_with_the_same_habits_are_alike_whatever_their_number_of_interactions():
    few = [(1, 1, "song_request")]
    rows = feature_rows(interactions(few, few * 20, [(3, 2, "competition")] * 5), 3, VOCAB)
    assert rows[0] @ rows[1] == pytest.approx(1.0)
    assert rows[0] @ rows[2] == pytest.approx(0.0)


def test_a_show_off_the_schedule_is_left_out():
    rows = feature_rows(interactions([(99, 1, "competition"), (1, 1, "competition")], [(1, 1, "competition")]), 2,
                        VOCAB)
    assert rows[0] @ rows[1] == pytest.approx(1.0)


def test_the_snapshot_keeps_each_listener_s_interactions_per_show_channel_and_campaign_type():
    snap = snapshot_of([person("27820000001", [(1, 1, "competition")] * 3 + [(2, 2, "song_request")])],
                       timeslots=(1, 2, 3))
    assert snap.cols["timeslot_counts"][0].tolist() == [3, 1, 0]
    assert snap.cols["channel_counts"][0].tolist()[:2] == [3, 1]
    assert dict(zip(snap.vocab["campaign_counts"], snap.cols["campaign_counts"][0].tolist())) == {
        "competition": 3, "song_request": 1}


def test_snapshot_rows_are_the_shares_of_behaviour_with_tags_as_one_more_group():
    habits = [(1, 1, "competition")] * 2 + [(2, 2, "song_request")]
    snap = snapshot_of([person("27820000001", habits, tags=["gospel"]),
                        person("27820000002", habits * 5, tags=["gospel"]),
                        person("27820000003", habits, tags=["soccer"]),
                        person("27820000004", [(3, 2, "song_request")], tags=["soccer"])], timeslots=(1, 2, 3))
    rows = behaviour_rows(snap)
    assert np.linalg.norm(rows, axis=1) == pytest.approx(np.ones(4))
    assert rows[0] @ rows[1] == pytest.approx(1.0)
    assert rows[0] @ rows[1] > rows[0] @ rows[2] > rows[0] @ rows[3]


def test_a_file_written_before_the_counts_is_read_from_who_used_what():
    snap = snapshot_of([person("27820000001", [(1, 1, "competition")] * 4), person("27820000002", [])],
                       timeslots=(1, 2))
    for name in ("timeslot_counts", "channel_counts", "campaign_counts"):
        del snap.cols[name]
    assert group_counts(snap, "timeslot")[0].tolist() == [1, 0]
    assert np.linalg.norm(behaviour_rows(snap)[0]) == pytest.approx(1.0)
    assert active(snap).tolist() == [True, False]


def test_a_listener_without_interactions_is_not_active_and_has_no_behaviour():
    snap = snapshot_of([person("27820000001", [(1, 1, "competition")]), person("27820000002", [], tags=["jazz"])],
                       timeslots=(1,))
    assert active(snap).tolist() == [True, False]
    rows = behaviour_rows(snap)
    assert rows[0] @ rows[1] == pytest.approx(0.0)
