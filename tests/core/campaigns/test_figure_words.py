"""Each figure a plan cites, in the words a producer forwards to an advertiser: the station's names, never keys."""
from __future__ import annotations

import pytest

from core.campaigns.audience_profile import figure_words

PROFILE = {"size": 120, "reachable": 80, "sample": {"size": 50},
           "segments": [{"value": "occasional_engager", "label": "Occasional engagers", "count": 23}],
           "channels": [{"value": "1", "label": "SMS", "count": 28}],
           "shows": [{"value": "6", "label": "The Drive with Thabo", "count": 85}],
           "dayparts": [{"value": "drive", "label": "drive time", "count": 40}],
           "themes": [{"value": "family", "label": "family", "count": 9}]}


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("segment.occasional_engager", 23, "Occasional engagers: 23 of the audience"),
    ("channel.1", 28, "SMS: 28 of the audience"),
    ("show.6", 85, "The Drive with Thabo: 85 of the audience"),
    ("daypart.drive", 40, "Drive time: 40 of the audience"),
    ("sample.theme.family", 9, "Family in the messages of 9 of the 50 sampled"),
    ("size", 120, "120 listeners match the brief"),
    ("size", 1, "1 listener matches the brief"),
    ("reachable", 80, "80 of them can be messaged directly (opted in, with permission)"),
    ("weekday_share", 62.5, "62.5% of them are mostly active on weekdays"),
    ("sample.churn.high", 7, "7 of the 50 sampled are at high risk of going quiet"),
])
def test_a_figure_is_said_with_the_station_s_names(name, value, expected):
    assert figure_words(name, value, PROFILE) == expected


def test_a_figure_whose_entry_is_not_in_the_profile_still_reads_as_words():
    assert figure_words("interest.music_lover", 4, PROFILE) == "Music lover: 4 of the audience"
