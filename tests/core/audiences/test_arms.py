"""An audience's arms (core.audiences.arms), on listeners made up in memory: the holdout is about the percent asked
for, the same whenever it is asked, independent of who else is in the audience, and different between audiences."""
from __future__ import annotations

import math

import pytest

from core.audiences.arms import HOLDOUT, TARGET, arms_of, contactable, split

LISTENERS = [f"2782{n:07d}" for n in range(400)]


def held(audience_id: str, percent: int, originators=LISTENERS) -> set[str]:
    return {o for o, arm in zip(originators, arms_of(audience_id, percent, originators)) if arm == HOLDOUT}


@pytest.mark.parametrize("percent", [5, 10, 25, 50])
@pytest.mark.parametrize("audience_id", ["k3Jd9_aQx0P", "Zz-81mQwerT", "a"])
def test_the_holdout_is_about_the_percent_asked_for(audience_id, percent):
    n, p = len(LISTENERS), percent / 100
    bound = 4 * math.sqrt(n * p * (1 - p))  # four standard deviations of the binomial: wrong once in ~16,000
    assert abs(len(held(audience_id, percent)) - n * p) <= bound


def test_no_holdout_at_0_percent():
    assert held("k3Jd9_aQx0P", 0) == set() and held("k3Jd9_aQx0P", None) == set()


def test_a_listener_s_arm_does_not_depend_on_who_else_is_in_the_audience():
    alone = {o: arms_of("k3Jd9_aQx0P", 10, [o])[0] for o in LISTENERS[:50]}
    backwards = LISTENERS[::-1]
    together = dict(zip(backwards, arms_of("k3Jd9_aQx0P", 10, backwards)))
    assert all(together[o] == arm for o, arm in alone.items())


def test_the_same_audience_splits_the_same_way_every_time():
    assert held("k3Jd9_aQx0P", 10) == held("k3Jd9_aQx0P", 10)


def test_a_larger_percent_holds_out_everyone_a_smaller_one_did():
    assert held("k3Jd9_aQx0P", 10) <= held("k3Jd9_aQx0P", 20)


def test_two_audiences_hold_out_different_listeners():
    assert held("k3Jd9_aQx0P", 50) != held("Zz-81mQwerT", 50)


def test_split_counts_each_arm_and_marks_each_member():
    audience = {"audience_id": "k3Jd9_aQx0P", "holdout_percent": 30}
    made = split(audience, [{"originator": o, "score": 1.0} for o in LISTENERS])
    marked = {m["originator"] for m in made["members"] if m["arm"] == HOLDOUT}
    assert marked == held("k3Jd9_aQx0P", 30) and {m["arm"] for m in made["members"]} == {TARGET, HOLDOUT}
    assert (made["holdout_count"], made["target_count"]) == (len(marked), len(LISTENERS) - len(marked))


def test_what_leaves_the_service_is_the_target_arm_in_order_with_the_number_held_out():
    audience = {"audience_id": "k3Jd9_aQx0P", "holdout_percent": 30}
    sent, held_out = contactable(audience, LISTENERS)
    assert sent == [o for o in LISTENERS if o not in held("k3Jd9_aQx0P", 30)]
    assert held_out == len(held("k3Jd9_aQx0P", 30))


def test_an_audience_stored_before_holdouts_has_everyone_in_the_target():
    made = split({"audience_id": "old"}, [{"originator": o} for o in LISTENERS[:10]])
    assert (made["holdout_percent"], made["holdout_count"], made["target_count"]) == (0, 0, 10)
