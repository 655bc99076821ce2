"""The local provider's segment insights, from facts given here (no database): actions whose channel, time and show
hold together, and how a segment moved since a week before."""
from __future__ import annotations

import re

from core.ai.local_insights import write_insights

DRIVE = {"days": [1, 2, 3, 4, 5], "start": "15:00", "end": "18:00", "daypart": "drive"}


def facts(top_daypart: str, week_before: int | None = 2879, airs: dict | None = DRIVE) -> dict:
    habits = {"top_channel": {"name": "SMS", "share": 61.0}, "top_daypart": {"value": top_daypart, "share": 40.0},
              "top_show": {"name": "The Drive", "share": 55.0, **({"airs": airs} if airs else {})}}
    segment = {"segment": "at_risk", "label": "At risk", "definition": "Was active, now declining", "count": 2999,
               "percentage": 15.0, "habits": habits, "distinctive": [], "churn": None, "week_before": week_before,
               "movements": {"joined": 0, "left": 0, "joined_from": {}, "left_to": {}}}
    return {"station": "Demo FM", "total_listeners": 20_000, "headline": "", "segments": [segment]}


def actions(top_daypart: str, **more) -> list[str]:
    return write_insights(facts(top_daypart, **more))["segments"][0]["actions"]


def test_a_show_is_never_paired_with_a_time_it_is_not_on():
    said = actions("overnight")
    assert not any("The Drive" in a and "overnight" in a for a in said)
    assert "Message them on SMS (61% of them use it most) overnight, when most of them are active." in said
    assert "On air, mention it during The Drive (weekdays 15:00-18:00), the show most of them follow." in said


def test_a_show_on_at_the_time_they_are_active_is_one_action_with_its_channel():
    said = [a for a in actions("drive") if "The Drive" in a]
    assert said == ["Reach them on SMS (61% of them use it most) at drive time, around The Drive (weekdays "
                    "15:00-18:00)."]


def test_a_show_whose_air_time_is_unknown_is_named_without_a_time():
    said = actions("drive", airs=None)
    assert "On air, mention it during The Drive, the show most of them follow." in said
    assert not any(re.search(r"The Drive.*drive time|drive time.*The Drive", a) for a in said)


def test_the_meaning_says_how_the_segment_moved_since_a_week_before():
    assert "Up 120 since a week before (from 2,879)." in write_insights(facts("drive"))["segments"][0]["meaning"]
    down = write_insights(facts("drive", week_before=3100))["segments"][0]["meaning"]
    assert "Down 101 since a week before (from 3,100)." in down
    assert "week before" not in write_insights(facts("drive", week_before=None))["segments"][0]["meaning"]
