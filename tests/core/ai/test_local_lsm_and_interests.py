"""The LSM estimate and interests (no database): income brackets read as monthly rand, levels rise with income and
schooling, an LSM never reaches the promotion threshold, and interests are the listener's shows, ways of taking part
and message themes, strongest first."""
from __future__ import annotations

import numpy as np
import pytest

from core.ai.interests import LIMIT, interests
from core.ai.lsm import estimate, income_of, level_of
from core.listeners.events import History

TITLES = {1: "Amapiano Nights", 2: "Gospel Sunday", 3: "Sports Saturday"}


@pytest.mark.parametrize(("bracket", "rand"), [("Under R5k", 2500), ("R5k-R10k", 7500), ("R10k-R20k", 15000),
                                               ("R40k+", 50000), ("R 3,000 - R 6,000", 4500), ("no idea", None)])
def test_income_brackets_read_as_a_typical_monthly_income(bracket, rand):
    assert income_of(bracket) == rand


def test_lsm_rises_with_income_and_schooling():
    assert level_of("Under R5k", None, None) < level_of("R5k-R10k", None, None) < level_of("R40k+", None, None)
    assert level_of("R10k-R20k", "No matric", "Unemployed") < level_of("R10k-R20k", "Degree", "Employed")
    assert level_of(None, "Postgraduate", None) > level_of(None, "Matric", None)
    assert level_of(None, None, None) is None
    assert 1 <= level_of("R40k+", "Postgraduate", "Self-employed") <= 10


def test_an_lsm_from_declared_answers_stays_under_the_promotion_threshold_and_says_why():
    answer = estimate(None, np.zeros(3), -1, {"income_bracket": "R10k-R20k", "education": "Degree"})
    assert answer["value"] == "LSM 9"
    assert answer["confidence"] < 0.7
    assert "cannot be checked" in answer["evidence"]


def history(slots: list[int], campaigns: list[str], messages: list[str | None]) -> History:
    n = len(slots)
    return History(ms=np.arange(n, dtype=np.int64), channel=np.ones(n, dtype=np.int16), campaign=campaigns,
                   timeslot=np.array(slots, dtype=np.int32), message=messages)


def test_interests_are_shows_ways_of_taking_part_and_themes_strongest_first_each_with_two_behind_it():
    found = interests(history([1, 1, 1, 2, -1, -1], ["competition"] * 4 + ["song_request"] * 2, [None] * 6),
                      TITLES, ["Please play Mnike!", "Can I request Water?", "FESTIVE Thandi Durban"])
    assert [(i["value"], i["confidence"]) for i in found] == [
        ("Amapiano Nights", 0.75), ("competitions", 0.67), ("music", 0.67), ("song requests", 0.33)]
    assert found[0]["evidence"] == "75% of this listener's 4 interactions during shows were during Amapiano Nights."


def test_an_interest_needs_more_than_one_interaction_behind_it():
    found = interests(history([3], ["poll"], [None]), TITLES, [])
    assert found == []


def test_at_most_six_interests():
    slots = [s for s in (1, 2, 3) for _ in range(4)]
    campaigns = ["competition", "song_request", "shoutout", "poll"] * 3
    messages = ["Play my song for my mom at church, traffic on the N3 is bad, load shedding again"] * 4
    assert len(interests(history(slots, campaigns, [None] * 12), TITLES, messages)) == LIMIT
