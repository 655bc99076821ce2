"""The statistics of a campaign's results on counts worked out by hand: the interval is Agresti and Caffo's (one
success and one failure added to each arm), it leaves out 0 exactly when the p-value is under 0.05, the sample size
is that of a two-sample test of proportions, and the verdict says what the figures say."""
from __future__ import annotations

import math

import pytest

from core.audiences import lift as stats

Z95, Z80 = 1.959964, 0.841621


def test_an_arm_without_members_has_no_rate_and_no_lift():
    assert stats.arm(0, 0)["rate"] is None
    assert stats.lift(stats.arm(100, 10), stats.arm(0, 0)) is None


def test_the_lift_and_its_interval_are_agresti_and_caffos_by_hand():
    target, holdout = stats.arm(100, 30), stats.arm(100, 10)
    found = stats.lift(target, holdout)
    assert found["absolute"] == pytest.approx(0.2) and found["relative"] == pytest.approx(2.0)
    p1, p2 = 31 / 102, 11 / 102
    half = Z95 * math.sqrt(p1 * (1 - p1) / 102 + p2 * (1 - p2) / 102)
    assert found["interval"] == pytest.approx([p1 - p2 - half, p1 - p2 + half], abs=1e-5)
    assert found["significant"] and found["p_value"] < 0.001


def test_no_one_responding_in_the_holdout_leaves_the_relative_lift_unsaid():
    found = stats.lift(stats.arm(50, 5), stats.arm(10, 0))
    assert found["relative"] is None and found["absolute"] == pytest.approx(0.1)


@pytest.mark.parametrize("target", range(0, 41, 2))
def test_the_interval_leaves_out_zero_exactly_when_the_p_value_is_under_5_percent(target):
    for holdout in range(0, 21, 2):
        found = stats.lift(stats.arm(200, target), stats.arm(100, holdout))
        low, high = found["interval"]
        if abs(found["p_value"] - 0.05) > 1e-4:  # a tie at 0.05 may round either way
            assert (low > 0 or high < 0) == (found["p_value"] < 0.05) == found["significant"]


def test_the_sample_size_is_that_of_a_two_sample_test_of_proportions():
    effect = 2 * math.asin(math.sqrt(0.12)) - 2 * math.asin(math.sqrt(0.10))
    equal = stats.needed(0.10, 0.02, 0.5)
    assert equal["target"] == equal["holdout"] == math.ceil(2 * ((Z95 + Z80) / effect) ** 2)
    tenth = stats.needed(0.10, 0.02, 0.1)
    assert tenth["holdout"] == pytest.approx(tenth["target"] / 9, abs=1)
    assert tenth["holdout"] < equal["holdout"] < tenth["target"]  # a small holdout needs a larger audience in all
    assert stats.needed(0.10, 0.05, 0.5)["target"] < equal["target"]


def test_a_base_rate_near_one_still_leaves_room_for_the_hoped_lift():
    assert stats.needed(1.0, 0.02, 0.5)["target"] > 0


def test_a_clear_lift_is_said_in_points_with_its_range():
    found = {"absolute": 0.031, "interval": [0.012, 0.05], "significant": True}
    sizes = {"target": 10, "holdout": 10, "lift": 0.02}
    assert stats.verdict(found, sizes, stats.arm(9, 1), stats.arm(1, 0)) == \
        "3.1 points more responded than the holdout, between 1.2 and 5.0."
    fewer = {"absolute": -0.02, "interval": [-0.035, -0.005], "significant": True}
    assert stats.verdict(fewer, sizes, stats.arm(9, 1), stats.arm(1, 0)) == \
        "2.0 points fewer responded than the holdout, between 0.5 and 3.5."


def test_too_few_listeners_is_too_early_to_tell_with_how_many_are_needed():
    unclear = {"absolute": 0.01, "interval": [-0.02, 0.04], "significant": False}
    equal = {"target": 2377, "holdout": 2377, "lift": 0.02}
    assert stats.verdict(unclear, equal, stats.arm(2000, 1), stats.arm(2000, 1)) == \
        "Too early to tell: about 2,400 listeners per arm are needed to see 2 points."
    tenth = {"target": 19173, "holdout": 2131, "lift": 0.01}
    assert stats.verdict(unclear, tenth, stats.arm(9000, 1), stats.arm(1000, 1)) == \
        ("Too early to tell: about 2,200 listeners in the holdout and 20,000 in the target are needed to see 1 "
         "point.")


def test_enough_listeners_and_no_clear_difference_says_so_with_the_range():
    unclear = {"absolute": 0.001, "interval": [-0.004, 0.006], "significant": False}
    sizes = {"target": 100, "holdout": 100, "lift": 0.02}
    assert stats.verdict(unclear, sizes, stats.arm(5000, 1), stats.arm(5000, 1)) == \
        "No clear difference: the target responded between −0.4 points and +0.6 points against the holdout, too " \
        "close to none to call."


@pytest.mark.parametrize(("count", "said"), [(12, "12"), (99, "99"), (2377, "2,400"), (2400, "2,400"),
                                             (19173, "20,000"), (100, "100"), (101, "110")])
def test_a_count_needed_is_rounded_up_to_two_figures(count, said):
    assert stats.about(count) == said
