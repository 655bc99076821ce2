"""Look-alikes on feature rows built in memory (no database): rows are unit length, a listener never votes for
themself, nearer look-alikes weigh more, and only the k nearest vote."""
from __future__ import annotations

import numpy as np
import pytest

from core.ai.lookalikes import Interactions, Vocabulary, feature_rows, similarities, vote, voters_of

VOCAB = Vocabulary(timeslot=(1, 2, 3), channel=(1, 2), campaign=("competition", "song_request"))


def interactions(*listeners: list[tuple]) -> Interactions:
    """Interactions of listeners 0, 1, ... each given as (timeslot, channel, campaign) tuples."""
    rows = [(owner, *event) for owner, events in enumerate(listeners) for event in events]
    owner, timeslot, channel, campaign = zip(*rows) if rows else ((), (), (), ())
    return Interactions(np.array(owner, dtype=np.int64), np.array(timeslot), np.array(channel),
                        np.array(campaign, dtype=object))


def unit(*vectors) -> np.ndarray:
    matrix = np.array(vectors, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def test_feature_rows_are_unit_length_and_zero_for_a_listener_without_interactions():
    rows = feature_rows(interactions([(1, 1, "competition"), (2, 2, "song_request")], []), 2, VOCAB)
    assert np.linalg.norm(rows[0]) == pytest.approx(1.0)
    assert not rows[1].any()


def test_listeners_with_the_same_habits_are_alike_whatever_their_number_of_interactions():
    few = [(1, 1, "song_request")]
    many = few * 20
    other = [(3, 2, "competition")] * 5
    rows = feature_rows(interactions(few, many, other), 3, VOCAB)
    assert rows[0] @ rows[1] == pytest.approx(1.0)
    assert rows[0] @ rows[2] == pytest.approx(0.0)


def test_a_show_off_the_schedule_is_left_out():
    rows = feature_rows(interactions([(99, 1, "competition"), (1, 1, "competition")], [(1, 1, "competition")]), 2,
                        VOCAB)
    assert rows[0] @ rows[1] == pytest.approx(1.0)


def test_the_listener_is_never_their_own_lookalike():
    matrix = unit([1, 0], [0.9, 0.1], [0.8, 0.2])
    voters = voters_of("gender", np.array([0, 1, 1]), ["female", "male"])
    votes = vote(similarities(matrix, matrix[[0]], voters, np.array([0])), voters, k=3)
    assert votes.counts[0].tolist() == [0, 2]
    assert votes.winner() == 1


def test_a_listener_outside_the_voters_is_voted_on_by_everyone_near():
    matrix = unit([1, 0], [0.9, 0.1])
    voters = voters_of("gender", np.array([0, 1]), ["female", "male"])
    votes = vote(similarities(matrix, unit([1, 0]), voters, np.array([-1])), voters, k=5)
    assert votes.counts[0].tolist() == [1, 1]


def test_nearer_lookalikes_weigh_more():
    matrix = unit([1, 0], [1, 0.05], [0.3, 1], [0.3, 1])
    voters = voters_of("age_group", np.array([-1, 0, 1, 1]), ["18-24", "25-34"])
    votes = vote(similarities(matrix, matrix[[0]], voters, np.array([0])), voters, k=3)
    assert votes.counts[0].tolist() == [1, 2]
    assert votes.winner() == 0
    assert votes.shares[0].sum() == pytest.approx(1.0)


def test_only_the_k_nearest_vote():
    matrix = unit([1, 0], [1, 0.1], [0, 1], [0.1, 1])
    voters = voters_of("gender", np.array([0, 0, 1, 1]), ["female", "male"])
    votes = vote(similarities(matrix, unit([1, 0.05]), voters), voters, k=2)
    assert votes.counts[0].tolist() == [2, 0]


def test_a_listener_without_behaviour_gets_no_vote():
    matrix = unit([1, 0], [0, 1])
    voters = voters_of("gender", np.array([0, 1]), ["female", "male"])
    votes = vote(similarities(matrix, np.zeros((1, 2), dtype=np.float32), voters), voters)
    assert votes.weight[0] == 0 and not votes.counts[0].any()
