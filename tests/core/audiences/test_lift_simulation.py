"""Honest by construction: campaigns with a known lift planted (none, too) are drawn many times, counted as the
results count them, and the 95% interval holds the planted lift in about 95% of runs; with nothing planted the lift
is called significant in about 5%. Seeded, so that a run is the same every time; the bounds are about four standard
errors of 2,000 runs wide."""
from __future__ import annotations

import pytest

from core.audiences.simulation import Scenario, coverage

RUNS = 2000


@pytest.mark.parametrize("scenario", [Scenario(members=1000, holdout_share=0.1, base_rate=0.10, planted=0.0),
                                      Scenario(members=1000, holdout_share=0.1, base_rate=0.10, planted=0.05),
                                      Scenario(members=2000, holdout_share=0.5, base_rate=0.05, planted=0.02)])
def test_the_95_percent_interval_holds_the_planted_lift_in_about_95_percent_of_runs(scenario):
    found = coverage(scenario, RUNS, seed=7)["agresti-caffo"]
    assert found["runs"] == RUNS
    assert 0.93 <= found["covered"] <= 0.975


def test_no_lift_is_called_significant_in_about_5_percent_of_runs():
    found = coverage(Scenario(members=3000, holdout_share=0.2, base_rate=0.08, planted=0.0), RUNS, seed=11)
    assert 0.025 <= found["agresti-caffo"]["significant"] <= 0.07


def test_a_planted_lift_is_found_more_often_the_larger_it_is():
    small, large = (coverage(Scenario(members=4000, holdout_share=0.5, base_rate=0.1, planted=lift), 400,
                             seed=3)["agresti-caffo"]["significant"] for lift in (0.01, 0.04))
    assert small < 0.5 < large
