"""Calibration of raw scores into honest confidences (no database): monotone, the accuracy of the score's bin, never
certain, and held under the promotion threshold when too few guesses could be checked."""
from __future__ import annotations

import numpy as np
import pytest

from core.calibration import CAP, MIN_SAMPLES, PER_BIN, calibrate, isotonic, still_stands


def guesses(n: int, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """n guesses whose chance of being right is their score."""
    rng = np.random.default_rng(seed)
    scores = rng.random(n)
    return scores, rng.random(n) < scores


def test_calibration_is_monotone_in_the_score():
    scores, correct = guesses(3000)
    calibration = calibrate(scores, correct)
    assert np.all(np.diff(calibration.accuracy) >= 0)
    confidences = [calibration.confidence(s) for s in np.linspace(0, 1, 101)]
    assert confidences == sorted(confidences)


def test_a_confidence_is_how_often_guesses_with_that_score_were_right():
    scores, correct = guesses(5000)
    calibration = calibrate(scores, correct)
    assert calibration.confidence(0.9) == pytest.approx(0.9, abs=0.08)
    assert calibration.confidence(0.3) == pytest.approx(0.3, abs=0.08)


def test_a_score_that_always_comes_true_is_still_not_certain():
    calibration = calibrate(np.full(500, 0.8), np.ones(500, dtype=bool))
    assert 0.99 <= calibration.confidence(0.8) < 1.0


def test_each_bin_holds_at_least_per_bin_guesses():
    scores, correct = guesses(1050)
    calibration = calibrate(scores, correct)
    assert len(calibration.accuracy) == 1050 // PER_BIN


def test_too_few_checked_guesses_stay_under_the_promotion_threshold():
    calibration = calibrate(np.full(MIN_SAMPLES - 1, 0.9), np.ones(MIN_SAMPLES - 1, dtype=bool))
    assert not calibration.trusted
    assert calibration.confidence(0.95) <= CAP < 0.7


def test_nothing_checked_holds_the_raw_score_under_the_cap():
    calibration = calibrate(np.array([]), np.array([]))
    assert calibration.confidence(0.9) == CAP
    assert calibration.confidence(0.3) == 0.3


def test_pool_adjacent_violators_averages_what_goes_down():
    assert isotonic(np.array([0.2, 0.6, 0.4, 0.8]), np.array([1, 1, 1, 1])).tolist() == pytest.approx(
        [0.2, 0.5, 0.5, 0.8])
    assert isotonic(np.array([0.9, 0.1]), np.array([3, 1])).tolist() == pytest.approx([0.7, 0.7])


@pytest.mark.parametrize("fitted_on, moved, stands", [(1_000, 10, True), (1_000, 11, False), (50, 1, True),
                                                      (50, 2, False), (0, 1, True), (0, 2, False)])
def test_a_fit_stands_while_at_most_one_in_a_hundred_of_what_it_was_made_on_moved_or_one(fitted_on, moved, stands):
    assert still_stands(fitted_on, moved) is stands
