"""Churn learned from a station's own past (core.churn): features that never see past their cut-off, labels by the
horizon's exact end, probabilities calibrated on held-out data, the choice of what scores and its fallbacks."""
from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from core.churn import bgnbd, features
from core.churn.features import DAY, as_of, quiet_after
from core.churn.measures import auc
from core.churn.model import BGNBD, MODEL, RECENCY, Interactions, Scoring, backtest, choose, sample_of, samples

NOW = datetime(2026, 11, 1, tzinfo=UTC)
END = int(NOW.timestamp())


def habits(n: int, seed: int = 3, days: int = 240) -> Interactions:
    """Listeners who interact at their own rate and stop for good on a day of their own (a third never stop): the
    world BG/NBD describes, so that how quiet someone is follows from their habit and silence."""
    rng = np.random.default_rng(seed)
    rate = rng.gamma(0.8, 1 / 6, n)  # active days per day
    start = rng.integers(0, days - 10, n)
    stop = np.where(rng.random(n) < 0.33, days, start + rng.exponential(90, n).astype(int))
    rows, times = [], []
    for who in range(n):
        alive = np.arange(start[who], min(stop[who], days))
        active = alive[rng.random(len(alive)) < rate[who]]
        active = np.r_[start[who], active]
        rows.append(np.full(len(active), who))
        times.append(END - (days - active) * DAY + rng.integers(0, DAY, len(active)))
    return Interactions(np.concatenate(rows), np.concatenate(times), n)


def test_features_at_a_cut_off_never_see_a_later_interaction():
    events = habits(300)
    cutoff = END - 60 * DAY
    before = as_of(events.row, events.ts, events.n, cutoff)
    later = np.r_[events.ts, np.full(300, cutoff), np.full(300, cutoff + 5 * DAY)]
    after = as_of(np.r_[events.row, np.arange(300), np.arange(300)], later, events.n, cutoff)
    assert np.array_equal(before.rows, after.rows) and np.array_equal(before.matrix, after.matrix)


@pytest.mark.parametrize("at, quiet", [(29 * DAY + DAY - 1, False), (30 * DAY, True), (-1, True), (0, False)])
def test_quiet_means_no_interaction_from_the_cut_off_to_the_horizon_s_end(at, quiet):
    cutoff = END - 40 * DAY
    assert quiet_after(np.array([0]), np.array([cutoff + at]), 1, cutoff, 30)[0] == quiet


def test_each_cut_off_labels_only_listeners_heard_from_before_it():
    back = np.array([100, 45, 75])
    events = Interactions(np.array([0, 1, 0]), END - back * DAY, 2)
    found = samples(events, NOW, 30, 4)  # cut-offs 30, 60, 90 and 120 days back
    assert [s.features.rows.tolist() for s in found] == [[0, 1], [0], [0], []]
    assert [s.quiet.tolist() for s in found] == [[True, True], [True], [False], []]


def test_probabilities_are_calibrated_on_the_held_out_cut_off():
    report, _ = backtest(habits(4000), NOW)
    assert report.chosen in (MODEL, RECENCY, BGNBD) and report.labelled >= 500
    for band in report.reliability:
        if band["listeners"] >= 200:
            assert abs(band["predicted"] - band["observed"]) < 0.1, band
    assert report.metrics[report.chosen]["brier"] < report.quiet_share * (1 - report.quiet_share)


def test_what_scores_ranks_at_least_as_well_as_every_baseline_on_the_held_out_cut_off():
    report, scoring = backtest(habits(4000), NOW)
    best = max(m["auc"] for m in report.metrics.values())
    assert report.metrics[report.chosen]["auc"] == best and scoring.method == report.chosen


def test_the_model_scores_only_when_it_ranks_better_than_both_baselines():
    close = {MODEL: {"auc": 0.80}, RECENCY: {"auc": 0.80}, BGNBD: {"auc": 0.79}}
    assert choose(close, 1000)[0] == RECENCY and "did not rank" in choose(close, 1000)[1]
    assert choose({**close, BGNBD: {"auc": 0.81}}, 1000)[0] == BGNBD
    assert choose({**close, MODEL: {"auc": 0.81}}, 1000)[0] == MODEL


@pytest.mark.parametrize("labelled, method", [(499, RECENCY), (500, MODEL)])
def test_a_station_with_fewer_than_500_listeners_to_check_is_scored_by_recency_and_says_so(labelled, method):
    found, reason = choose({MODEL: {"auc": 0.9}, RECENCY: {"auc": 0.7}, BGNBD: {"auc": 0.7}}, labelled)
    assert found == method and (("Only 499" in reason) == (labelled == 499))


def test_a_small_station_is_backtested_by_recency_alone():
    report, scoring = backtest(habits(300), NOW)
    assert report.chosen == scoring.method == RECENCY and report.labelled < 500
    assert report.metrics[MODEL]["auc"] is None and report.metrics[RECENCY]["auc"] is not None


def test_bgnbd_recovers_the_habits_it_was_drawn_from_and_expects_less_of_the_long_silent():
    rng = np.random.default_rng(5)
    n, r, alpha, a, b, big_t = 4000, 0.8, 6.0, 0.8, 2.5, 200.0
    rate, p = rng.gamma(r, 1 / alpha, n), rng.beta(a, b, n)
    x, t_x = np.zeros(n), np.zeros(n)
    for i in range(n):
        t, alive = 0.0, True
        while alive:
            t += rng.exponential(1 / rate[i])
            if t > big_t:
                break
            x[i], t_x[i] = x[i] + 1, t
            alive = rng.random() >= p[i]
    found = bgnbd.fit(x, t_x, np.full(n, big_t))
    assert found[0] == pytest.approx(r, rel=0.3) and found[2] / (found[2] + found[3]) == pytest.approx(
        a / (a + b), abs=0.08)
    expected = bgnbd.expected_active_days(found, 30, np.array([5.0, 5.0]), np.array([190.0, 60.0]),
                                          np.array([200.0, 200.0]))
    assert expected[0] > expected[1] > 0


def test_a_station_younger_than_the_horizon_scores_each_listener_by_their_own_pace():
    young = Interactions(np.array([0, 0, 0, 1]), END - np.array([20, 12, 2, 15]) * DAY, 2)
    report, scoring = backtest(young, NOW)
    assert report.labelled == 0 and "own pace" in report.reason
    chance = scoring.probability(young.at(END + 1))
    assert 0 < chance[0] < chance[1] < 1  # active three times, lately, against once, a fortnight ago


def test_the_share_on_a_listeners_main_show_is_alike_by_table_and_by_sorting(monkeypatch):
    rng = np.random.default_rng(5)
    row = np.sort(rng.integers(0, 40, 3_000))
    slots, before = rng.integers(-1, 12, 3_000), rng.random(3_000) < 0.8
    tabled = features._loyalty(row[before], slots, before, 45)
    monkeypatch.setattr(features, "MOST_COUNTED", 0)
    expected = [max([np.sum((row[before] == r) & (slots[before] == s)) for s in range(12)], default=0)
                / max(np.sum(row[before] == r), 1) for r in range(45)]
    assert np.allclose(tabled, expected) and np.allclose(features._loyalty(row[before], slots, before, 45), expected)


def test_a_sample_holds_every_interaction_of_its_listeners_in_order_and_none_of_the_others():
    events = habits(400)
    silent = events.row  # of 402 listeners, 400 and 401 were never heard from: not drawn
    sample = Interactions.of(silent, events.ts, 402, at_most=150)
    assert sample.n == 150 and sample.heard == 400 and len(np.unique(sample.row)) == 150
    keep, _, _ = sample_of(silent, 402, 150)
    chosen = np.unique(events.row[keep])
    assert np.array_equal(np.sort(sample.ts), np.sort(events.ts[np.isin(events.row, chosen)]))
    again = Interactions.of(silent, events.ts, 402, at_most=150)
    assert np.array_equal(again.row, sample.row) and np.array_equal(again.ts, sample.ts)  # the same listeners
    for who in range(150):  # each listener's interactions, in time order, under their new row
        assert np.array_equal(sample.ts[sample.row == who], events.ts[events.row == chosen[who]])


def test_a_station_of_no_more_listeners_than_the_sample_learns_from_all_of_them():
    events = habits(200)
    whole = Interactions.of(events.row, events.ts, 200, at_most=200)
    assert whole.heard is None and whole.n == 200 and np.array_equal(whole.ts, events.ts)


def test_a_backtest_on_a_sample_says_so_and_ranks_all_listeners_nearly_as_learning_from_all_does():
    events = habits(6000, seed=11)
    cutoff = END - 30 * DAY
    known = events.ts <= cutoff
    quiet = quiet_after(events.row, events.ts, events.n, cutoff, 30)
    heard = events.at(cutoff + 1)
    aucs = {}
    for at_most in (None, 2500):
        learned = Interactions.of(events.row[known], events.ts[known], events.n, at_most=at_most)
        report, scoring = backtest(learned, datetime.fromtimestamp(cutoff, UTC))
        assert report.sampled_from == (None if at_most is None else len(np.unique(events.row[known])))
        aucs[at_most] = auc(scoring.risk(heard), quiet[heard.rows])
    assert aucs[2500] == pytest.approx(aucs[None], abs=0.01)


@pytest.mark.parametrize("a", [0.7, 1.6])
def test_bgnbd_expects_the_active_days_a_simulation_of_its_own_world_counts_below_a_of_1_too(a):
    """Listeners silent since their first day (x = 0) for T days: the days they are active in the next t, simulated
    (each one's rate and chance of stopping after an active day drawn from the fitted Gammas and Betas, weighed by
    the chance of their silence so far) and from the formula. CDNOW's fit has a = 0.73."""
    rng = np.random.default_rng(11)
    r, alpha, b, big_t, t, m = 0.25, 30.0, 2.2, 60.0, 90.0, 2_000_000
    rate, p = rng.gamma(r, 1 / alpha, m), rng.beta(a, b, m)
    silent_so_far = np.exp(-rate * big_t)
    active = np.minimum(rng.poisson(rate * t), rng.geometric(p))  # no more than the day they stop on
    simulated = float((silent_so_far * active).sum() / silent_so_far.sum())
    formula = bgnbd.expected_active_days(np.array([r, alpha, a, b]), t, np.zeros(1), np.zeros(1), np.full(1, big_t))
    assert formula[0] == pytest.approx(simulated, rel=0.01)


def test_a_station_younger_than_two_horizons_is_scored_by_recency_and_says_nothing_could_be_learned():
    rng = np.random.default_rng(0)
    rows = np.repeat(np.arange(800), 3)
    young = Interactions(rows, END - rng.integers(1, 50, len(rows)) * DAY, 800)  # all within 50 days
    report, scoring = backtest(young, NOW)
    assert report.labelled >= 500 and report.chosen == scoring.method == RECENCY
    assert report.metrics[MODEL]["auc"] is None and "nothing could be learned" in report.reason
    older = Interactions(np.r_[rows, 0], np.r_[young.ts, END - 70 * DAY], 800)  # one listener heard from 70 days ago
    assert "nothing could be learned" not in backtest(older, NOW)[0].reason


def test_probabilities_keep_the_order_of_the_risk_where_the_calibration_is_flat():
    scoring = Scoring(RECENCY, knots=((0.0, 10.0, 20.0, 40.0), (0.1, 0.5, 0.5, 0.9)))
    days = np.array([11.0, 12.0, 19.0, 30.0])
    chance = scoring.probability(features.AsOf(np.arange(4), np.zeros((4, 1)), days, *[np.zeros(4)] * 4))
    assert (np.diff(chance) > 0).all()
    assert np.abs(chance - np.interp(days, (0, 10, 20, 40), (0.1, 0.5, 0.5, 0.9))).max() <= 0.001
