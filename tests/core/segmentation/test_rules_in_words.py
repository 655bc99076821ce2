"""The segment rules and the RFM scores in words, as the dashboard's help and glossary show them: built from the
thresholds and score tables the rules use, so that they say what the rules do."""
from __future__ import annotations

import numpy as np
import pytest

from core.segmentation.rules import (
    DEFAULT_THRESHOLDS,
    SCORES,
    SEGMENTS,
    assign,
    rfm_scores,
    rules_in_words,
    thresholds_for,
)

OCCASIONAL = {"since_first_days": 200.0, "recency_days": 10.0, "n_total": 12, "n_30": 3, "n_prev30": 2, "n_90": 12,
              "channels_30": 1, "competition_share": 0.1, "top_show_share_90": 0.3, "active_weeks_90": 3}


def moved(value):
    """Another value of a threshold's own type."""
    return value + 3 if isinstance(value, int) else round(value - 0.05, 2)


def test_every_segment_is_explained_in_one_sentence():
    words = rules_in_words()
    assert set(words) == set(SEGMENTS)
    assert all(text.endswith(".") and "\n" not in text and text.count(". ") == 0 for text in words.values())


@pytest.mark.parametrize("name", DEFAULT_THRESHOLDS)
def test_every_threshold_of_the_rules_shows_in_their_words(name):
    changed = thresholds_for({name: moved(DEFAULT_THRESHOLDS[name])})
    assert rules_in_words(changed) != rules_in_words(DEFAULT_THRESHOLDS)


def test_a_station_with_its_own_dormant_rule_reads_it_and_is_segmented_by_it():
    thresholds = thresholds_for({"dormant_days": 60})
    inputs = {k: np.array([v]) for k, v in {**OCCASIONAL, "recency_days": 61.0}.items()}
    assert "more than 60 days" in rules_in_words(thresholds)["dormant"]
    assert SEGMENTS[assign(inputs, thresholds)[0]] == "dormant"


def test_the_score_words_give_the_points_the_scores_give():
    columns = {"recency_days": np.array([7.0, 8.0]), "n_30": np.array([20, 19]), "active_weeks_90": np.array([10, 9])}
    recency, frequency, engagement = rfm_scores(columns)
    assert list(recency) == [5, 4] and "5 within 7 days, 4 within 14" in SCORES["recency"]
    assert list(frequency) == [5, 4] and "5 for 20 times or more, 4 for 10" in SCORES["frequency"]
    assert list(engagement) == [5, 4] and "5 for 10 weeks or more, 4 for 7" in SCORES["engagement"]
