"""segments.md rule by rule, at each boundary, on the pure rule function."""
from __future__ import annotations

import math

import numpy as np
import pytest

from core.segmentation.rules import DEFAULT_THRESHOLDS, SEGMENTS, assign, rfm_scores, thresholds_for

OCCASIONAL = {"since_first_days": 200.0, "recency_days": 10.0, "n_total": 12, "n_30": 3, "n_prev30": 2, "n_90": 12,
              "channels_30": 1, "competition_share": 0.1, "top_show_share_90": 0.3, "active_weeks_90": 3}


def segment_of(thresholds=None, **overrides) -> str:
    """The segment of one listener whose inputs are OCCASIONAL with overrides."""
    inputs = {k: np.array([v]) for k, v in {**OCCASIONAL, **overrides}.items()}
    return SEGMENTS[assign(inputs, thresholds or DEFAULT_THRESHOLDS)[0]]


def test_baseline_listener_is_an_occasional_engager():
    assert segment_of() == "occasional_engager"


@pytest.mark.parametrize("days, expected", [(7.0, "new_listener"), (7.0001, "occasional_engager")])
def test_first_interaction_within_7_days_is_a_new_listener(days, expected):
    assert segment_of(since_first_days=days, recency_days=1.0) == expected


def test_new_listener_wins_over_every_later_rule():
    assert segment_of(since_first_days=2.0, recency_days=1.0, competition_share=1.0) == "new_listener"


def test_no_interactions_at_all_is_dormant():
    assert segment_of(n_total=0, since_first_days=math.inf, recency_days=math.inf, n_30=0, n_90=0,
                      competition_share=0.0) == "dormant"


@pytest.mark.parametrize("recency, expected", [(90.0, "at_risk"), (90.01, "dormant")])
def test_more_than_90_days_since_last_is_dormant(recency, expected):
    assert segment_of(recency_days=recency, n_30=0) == expected


def test_dormant_wins_over_competition_chaser():
    assert segment_of(recency_days=120.0, competition_share=0.9) == "dormant"


@pytest.mark.parametrize("share, expected", [(0.70, "competition_chaser"), (0.69, "occasional_engager")])
def test_competition_share_of_70_percent_or_more_is_a_chaser(share, expected):
    assert segment_of(competition_share=share) == expected


def test_competition_chaser_wins_over_at_risk():
    assert segment_of(competition_share=0.8, recency_days=45.0) == "competition_chaser"


@pytest.mark.parametrize("recency, expected", [(30.0, "occasional_engager"), (30.01, "at_risk")])
def test_more_than_30_days_since_last_is_at_risk(recency, expected):
    assert segment_of(recency_days=recency, n_30=0) == expected


@pytest.mark.parametrize("n_prev30, n_30, expected", [
    (4, 2, "at_risk"), (4, 3, "occasional_engager"), (3, 0, "occasional_engager"), (10, 5, "at_risk"),
    (10, 6, "occasional_engager")])
def test_halving_from_at_least_4_the_month_before_is_at_risk(n_prev30, n_30, expected):
    assert segment_of(n_prev30=n_prev30, n_30=n_30) == expected


SUPER = {"recency_days": 2.0, "n_30": 12, "channels_30": 2, "n_prev30": 8}


@pytest.mark.parametrize("override, expected", [
    ({}, "super_fan"),
    ({"recency_days": 7.0}, "super_fan"), ({"recency_days": 7.01}, "occasional_engager"),
    ({"n_30": 10}, "super_fan"), ({"n_30": 9}, "occasional_engager"),
    ({"channels_30": 1}, "occasional_engager"),
    ({"n_prev30": 12}, "super_fan"), ({"n_prev30": 13}, "occasional_engager"),
])
def test_super_fan_needs_recent_frequent_multichannel_and_growing(override, expected):
    assert segment_of(**{**SUPER, **override}) == expected


LOYAL = {"n_90": 6, "top_show_share_90": 0.8, "active_weeks_90": 5}


@pytest.mark.parametrize("override, expected", [
    ({}, "show_loyalist"),
    ({"n_90": 4}, "show_loyalist"), ({"n_90": 3}, "occasional_engager"),
    ({"top_show_share_90": 0.60}, "show_loyalist"), ({"top_show_share_90": 0.59}, "occasional_engager"),
    ({"active_weeks_90": 4}, "show_loyalist"), ({"active_weeks_90": 3}, "occasional_engager"),
])
def test_show_loyalist_needs_4_interactions_60_percent_one_show_and_4_weeks(override, expected):
    assert segment_of(**{**LOYAL, **override}) == expected


def test_super_fan_wins_over_show_loyalist():
    assert segment_of(**SUPER, **LOYAL) == "super_fan"


def test_company_threshold_override_changes_the_boundary():
    strict = thresholds_for({"competition_share": 0.9})
    assert segment_of(strict, competition_share=0.8) == "occasional_engager"
    assert segment_of(competition_share=0.8) == "competition_chaser"


@pytest.mark.parametrize("recency, score", [(7, 5), (7.5, 4), (14, 4), (30, 3), (31, 2), (60, 2), (60.5, 1)])
def test_recency_score_bands(recency, score):
    r, _, _ = rfm_scores({"recency_days": np.array([recency]), "n_30": np.array([0]),
                          "active_weeks_90": np.array([0])})
    assert r[0] == score


@pytest.mark.parametrize("n30, score", [(20, 5), (19, 4), (10, 4), (9, 3), (5, 3), (4, 2), (2, 2), (1, 1), (0, 1)])
def test_frequency_score_bands(n30, score):
    _, f, _ = rfm_scores({"recency_days": np.array([1.0]), "n_30": np.array([n30]), "active_weeks_90": np.array([0])})
    assert f[0] == score


@pytest.mark.parametrize("weeks, score", [(10, 5), (9, 4), (7, 4), (6, 3), (4, 3), (3, 2), (2, 2), (1, 1)])
def test_engagement_score_bands(weeks, score):
    _, _, e = rfm_scores({"recency_days": np.array([1.0]), "n_30": np.array([0]),
                          "active_weeks_90": np.array([weeks])})
    assert e[0] == score


def test_never_seen_listener_scores_recency_1():
    r, _, _ = rfm_scores({"recency_days": np.array([math.inf]), "n_30": np.array([0]),
                          "active_weeks_90": np.array([0])})
    assert r[0] == 1
