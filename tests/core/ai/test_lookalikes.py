"""Look-alikes' votes on feature rows built in memory (no database): a listener never votes for themself, nearer
look-alikes weigh more, and only the k nearest vote (the rows: tests/core/search/test_behaviour_vectors.py)."""
from __future__ import annotations

import numpy as np
import pytest

from core.ai.lookalikes import similarities, vote, voters_of


def unit(*vectors) -> np.ndarray:
    matrix = np.array(vectors, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


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
