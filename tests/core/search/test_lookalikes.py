"""Look-alikes on stations built in memory (no database): what "alike" means, scores that never fall as similarity
rises, the 0.75 promise kept on listeners held out of the fit, a station too small to measure, and what a look-alike
is said to share."""
from __future__ import annotations

import numpy as np
import pytest

from core.search.behaviour_vectors import active, behaviour_rows
from core.search.lookalike_calibration import alike, fitted, measured, seeds_of, traits_of
from core.search.lookalikes import Behaviour, ranked, shared
from tests.memory import event, snapshot_of

SHOWS, CHANNELS, CAMPAIGNS = (1, 2, 3, 4, 5, 6), (1, 2, 3, 4), ("competition", "song_request", "shoutout", "poll")
TAGS = ("gospel", "jazz", "soccer", "news", "comedy", "kwaito")
KINDS = [(1, 1, "competition", ("gospel",)), (2, 2, "song_request", ("jazz", "kwaito")), (3, 3, "shoutout", ()),
         (4, 1, "poll", ("news",)), (5, 4, "song_request", ("soccer", "comedy")), (6, 2, "competition", ())]
"""Kinds of listener the built station mixes: their show, channel, campaign type and tags."""


def person(originator: str, habits: list[tuple], **declared) -> dict:
    """A listener with one interaction per (timeslot, channel, campaign) of `habits`, a day apart."""
    return {"originator": originator, **declared,
            "events": [event(1 + i, channel=c, campaign=k, timeslot=t) for i, (t, c, k) in enumerate(habits)]}


def built_station(per_kind: int = 50, seed: int = 3):
    """Listeners of each KIND, who keep to their kind's habits seven times in ten and carry its tags eight times in
    ten (and another tag now and then)."""
    rng = np.random.default_rng(seed)

    def mostly(value, values):
        return value if rng.random() < 0.7 else values[int(rng.integers(len(values)))]

    people = []
    for k, (show, channel, campaign, tags) in enumerate(KINDS):
        for i in range(per_kind):
            habits = [(mostly(show, SHOWS), mostly(channel, CHANNELS), mostly(campaign, CAMPAIGNS))
                      for _ in range(int(rng.integers(3, 12)))]
            liked = {t for t in tags if rng.random() < 0.8} | ({TAGS[int(rng.integers(6))]} if rng.random() < 0.3
                                                                 else set())
            people.append(person(f"2782{k}{i:06d}", habits, tags=sorted(liked)))
    return snapshot_of(people, timeslots=SHOWS)


def behaviour_of(snap) -> Behaviour:
    return Behaviour(behaviour_rows(snap), active(snap), traits_of(snap))


def test_a_look_alike_holds_the_listener_s_main_show_channel_and_campaign_type_and_half_their_tags():
    seed = [(1, 1, "competition")] * 3 + [(2, 2, "song_request")]
    snap = snapshot_of([person("27820000000", seed, tags=["gospel", "jazz"]),
                        person("27820000001", [(1, 1, "competition"), (3, 3, "poll")] * 2, tags=["gospel"]),
                        person("27820000002", [(2, 1, "competition")], tags=["gospel", "jazz"]),
                        person("27820000003", [(1, 1, "competition")], tags=["soccer"]),
                        person("27820000004", [(1, 1, "song_request")], tags=["gospel", "jazz"]),
                        person("27820000005", [(1, 2, "competition")], tags=["jazz"])], timeslots=(1, 2, 3))
    assert alike(traits_of(snap), 0, np.arange(1, 6)).tolist() == [True, False, False, False, False]


def test_a_listener_without_tags_or_interests_is_matched_on_behaviour_alone():
    snap = snapshot_of([person("27820000000", [(1, 1, "competition")]),
                        person("27820000001", [(1, 1, "competition")], tags=["soccer"])], timeslots=(1,))
    assert alike(traits_of(snap), 0, np.array([1])).tolist() == [True]


def test_scores_never_fall_as_similarity_rises():
    behaviour = behaviour_of(built_station())
    rows = np.flatnonzero(behaviour.active)
    calibration = fitted(behaviour.matrix, behaviour.traits, rows, seeds_of(rows, 150))
    scores = calibration.confidences(np.linspace(0, 1, 201))
    assert calibration.trusted and np.all(np.diff(scores) >= 0) and np.all(np.diff(calibration.accuracy) >= 0)


def test_on_listeners_held_out_of_the_fit_three_in_four_scoring_0_75_are_alike():
    behaviour = behaviour_of(built_station())
    rows = np.flatnonzero(behaviour.active)
    seeds = seeds_of(rows, 150)
    calibration = fitted(behaviour.matrix, behaviour.traits, rows, seeds)
    held_out = np.setdiff1d(rows, seeds)
    right, answered = [], 0
    for seed in held_out.tolist():
        mask = behaviour.active.copy()
        mask[seed] = False
        found = ranked(behaviour, seed, mask, calibration, 0.75, 20)[0]
        right.append(alike(behaviour.traits, seed, found))
        answered += bool(len(found))
    assert len(held_out) >= 100 and answered >= len(held_out) / 2
    assert np.concatenate(right).mean() >= 0.75


def test_a_station_too_small_to_measure_claims_nothing():
    behaviour = behaviour_of(built_station(per_kind=2))
    rows = np.flatnonzero(behaviour.active)
    assert not fitted(behaviour.matrix, behaviour.traits, rows, seeds_of(rows)).trusted


def test_the_listener_is_never_among_their_own_measured_look_alikes():
    behaviour = behaviour_of(built_station(per_kind=5))
    rows = np.flatnonzero(behaviour.active)
    seeds = rows[:3]
    sims, _ = measured(behaviour.matrix, behaviour.traits, rows, seeds, top=29, random=0)
    assert [len(s) for s in sims] == [29, 29, 29]  # everyone else, never the seed (a similarity of 1 would be it)
    assert all(np.sum(np.isclose(s, 1.0)) < len(s) for s in sims)


def test_the_best_first_within_the_mask_and_at_least_min_score():
    behaviour = behaviour_of(built_station(per_kind=5))
    mask = behaviour.active.copy()
    mask[0] = False
    mask[1:5] = False
    found, scores, similarity, best = ranked(behaviour, 0, mask, None, 0.6, 10)
    assert not set(found.tolist()) & {0, 1, 2, 3, 4}
    assert np.all(np.diff(similarity) <= 0) and np.all(scores >= 0.6) and best == pytest.approx(scores.max(), abs=1e-4)


def test_a_look_alike_is_said_to_share_the_main_traits_both_hold():
    snap = snapshot_of([person("27820000000", [(1, 1, "competition")], tags=["gospel", "jazz"]),
                        person("27820000001", [(1, 2, "competition")], tags=["jazz"])], timeslots=(1,))
    names = {"timeslot": [("shows", "Gospel Sunday")], "channel": [("channels", "SMS"), ("channels", "WhatsApp")],
             "campaign": [("takes part in", "competition")],
             "liked": [("tags", "gospel"), ("tags", "jazz")]}
    assert shared(traits_of(snap), 0, 1, names) == [{"trait": "shows", "values": ["Gospel Sunday"]},
                                                    {"trait": "takes part in", "values": ["competition"]},
                                                    {"trait": "tags", "values": ["jazz"]}]
