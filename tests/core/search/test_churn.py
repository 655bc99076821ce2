"""Churn risk rule by rule, on interaction times built in memory (no database): silence against the listener's own
habit, level cut-offs (high from 70, medium from 40), plain-English signals, and one answer whichever path scores."""
from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from core.search.churn import churn_inputs, churn_levels, churn_risk, churn_scores, explain, risk_level

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
DAY = 86400


def times(every: float = 4.0, silent: float = 2.0, count: int = 45) -> np.ndarray:
    """Epoch seconds of a listener who interacted every `every` days, the last time `silent` days before NOW."""
    last = NOW.timestamp() - silent * DAY
    return np.rint(last - np.arange(count) * every * DAY).astype(np.int64)


def regular(recency_days: np.ndarray) -> dict:
    """Model inputs of many copies of one regular listener (every 4 days for half a year) at these recencies."""
    n = len(recency_days)
    return {"recency_days": recency_days, "span_days": np.full(n, 176.0), "active_days": np.full(n, 45),
            "n_30": np.full(n, 7), "n_prev30": np.full(n, 8), "active_weeks_90": np.full(n, 12)}


def sentence_of(risk: dict, name: str) -> str:
    return next(s["sentence"] for s in risk["signals"] if s["name"] == name)


def test_listener_who_writes_every_4_days_and_is_silent_27_days_is_high_risk():
    risk = churn_risk(times(every=4, silent=27), NOW)
    assert risk["level"] == "high"
    assert risk["score"] >= 70


def test_the_same_listener_silent_2_days_is_low_risk():
    risk = churn_risk(times(every=4, silent=2), NOW)
    assert risk["level"] == "low"
    assert risk["score"] < 40


def test_a_listener_with_no_interactions_at_all_scores_100():
    risk = churn_risk(np.array([], dtype=np.int64), NOW)
    assert (risk["score"], risk["level"]) == (100, "high")


def test_silence_is_judged_against_the_listeners_own_habit():
    daily = churn_risk(times(every=1, silent=20, count=120), NOW)
    monthly = churn_risk(times(every=20, silent=20, count=10), NOW)
    assert daily["score"] > monthly["score"]


def test_a_longer_silence_never_lowers_the_score():
    scores = churn_scores(regular(np.linspace(0.0, 120.0, 1201)))
    assert np.all(np.diff(scores) >= 0)


def test_fewer_interactions_than_the_month_before_raise_the_score():
    steady, falling = regular(np.array([10.0])), regular(np.array([10.0]))
    falling["n_30"], falling["n_prev30"] = np.array([1]), np.array([12])
    assert churn_scores(falling)[0] > churn_scores(steady)[0]


def test_interactions_after_now_are_not_seen():
    later = np.append(times(every=4, silent=27), int(NOW.timestamp()) + 5 * DAY)
    assert churn_risk(later, NOW) == churn_risk(times(every=4, silent=27), NOW)


@pytest.mark.parametrize("score, level", [(100, "high"), (70, "high"), (69, "medium"), (40, "medium"), (39, "low"),
                                          (0, "low")])
def test_high_from_70_medium_from_40_low_below(score, level):
    assert risk_level(score) == level


@pytest.mark.parametrize("cut_off, level, below", [(70, "high", "medium"), (40, "medium", "low")])
def test_the_first_score_at_a_cut_off_on_a_growing_silence_takes_that_level_and_one_below_does_not(cut_off, level,
                                                                                                    below):
    inputs = regular(np.arange(0.0, 90.0, 0.01))
    inputs["n_30"], inputs["n_prev30"] = np.zeros(9000, dtype=int), np.full(9000, 8)
    first = int(np.argmax(churn_scores(inputs) >= cut_off))
    assert (explain(inputs, first)["score"], explain(inputs, first)["level"]) == (cut_off, level)
    assert (explain(inputs, first - 1)["score"], explain(inputs, first - 1)["level"]) == (cut_off - 1, below)


def test_score_is_the_sum_of_the_signal_points_and_the_weights_make_100():
    risk = churn_risk(times(every=4, silent=27), NOW)
    assert sum(s["weight"] for s in risk["signals"]) == 100
    assert abs(sum(s["points"] for s in risk["signals"]) - risk["score"]) < 1
    assert [s["points"] for s in risk["signals"]] == sorted((s["points"] for s in risk["signals"]), reverse=True)


def test_every_signal_has_a_name_value_weight_and_sentence():
    for signal in churn_risk(times(every=4, silent=27), NOW)["signals"]:
        assert {"name", "value", "weight", "sentence"} <= set(signal)
        assert not signal["sentence"][0].islower() and signal["sentence"].endswith(".")


def test_sentence_says_the_silence_against_the_usual_gap():
    risk = churn_risk(times(every=4, silent=27), NOW)
    assert sentence_of(risk, "silence_beyond_habit") == \
        "27 days since the last interaction; this listener usually interacts every 4 days."
    assert sentence_of(risk, "days_since_last") == "Last heard from 27 days ago."


def test_sentences_are_singular_for_one():
    risk = churn_risk(times(every=1, silent=1, count=2), NOW)
    assert sentence_of(risk, "silence_beyond_habit").startswith("1 day since the last interaction;")
    assert "almost every day" in sentence_of(risk, "silence_beyond_habit")
    assert sentence_of(risk, "days_since_last") == "Last heard from 1 day ago."
    assert sentence_of(risk, "frequency_trend") == \
        "2 interactions in the last 30 days, up from 0 in the 30 days before."
    assert sentence_of(risk, "active_weeks") == "Active in 1 week of the last 90 days."


def test_trend_sentence_says_down_from_and_plural_counts():
    risk = churn_risk(times(every=4, silent=27), NOW)
    assert sentence_of(risk, "frequency_trend") == \
        "1 interaction in the last 30 days, down from 8 in the 30 days before."


def test_one_day_of_history_has_no_habit_to_compare_with():
    risk = churn_risk(np.array([int(NOW.timestamp()) - 3 * DAY]), NOW)
    assert "no habit yet" in sentence_of(risk, "silence_beyond_habit")
    assert risk["level"] == "low"


def test_same_interactions_in_any_order_give_the_same_answer():
    ts = times(every=3, silent=9, count=30)
    shuffled = np.random.default_rng(1).permutation(ts)
    assert churn_risk(ts, NOW) == churn_risk(shuffled, NOW) == churn_risk(ts.copy(), NOW)


def test_a_whole_station_scored_at_once_agrees_with_each_listener_scored_alone():
    rng = np.random.default_rng(7)
    n = 60
    row = rng.integers(0, n, 3000)
    ts = (NOW.timestamp() - rng.exponential(40.0, 3000) * DAY * rng.integers(1, 4, n)[row]).astype(np.int64)
    inputs = churn_inputs(row, ts, n + 2, NOW, "Africa/Johannesburg")
    scores, levels = churn_scores(inputs), churn_levels(churn_scores(inputs))
    for i in range(n + 2):
        alone = churn_risk(ts[row == i], NOW, "Africa/Johannesburg")
        assert (alone["score"], alone["level"]) == (int(scores[i]), ("low", "medium", "high")[levels[i]])
        assert explain(inputs, i) == alone
    assert scores.min() >= 0 and scores.max() <= 100
