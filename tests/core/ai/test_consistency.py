"""Actions that contradict the station's schedule are dropped before an answer is shown, whoever wrote them."""
from __future__ import annotations

import pytest

from core.ai.consistency import consistent, contradicts

SHOWS = {"The Drive": {"daypart": "drive"}, "Breakfast Club": {"daypart": "breakfast"},
         "Late Night Love": {"daypart": "overnight"}}


@pytest.mark.parametrize("action", ["Reach them on SMS overnight, around The Drive.",
                                    "Mention it in the evening during Breakfast Club.",
                                    "Run a competition at drive time on Late Night Love."])
def test_a_show_named_with_a_time_it_is_not_on_contradicts_the_schedule(action):
    assert contradicts(action, SHOWS)


@pytest.mark.parametrize("action", ["Reach them on SMS at drive time, around The Drive (weekdays 15:00-18:00).",
                                    "On air, mention it during Breakfast Club, the show most of them follow.",
                                    "Message them on WhatsApp in the evening.",
                                    "Thank them by name during Late Night Love overnight."])
def test_a_show_with_its_own_time_or_no_time_and_a_time_without_a_show_hold_together(action):
    assert not contradicts(action, SHOWS)


def test_contradicting_actions_are_dropped_and_counted():
    kept, dropped = consistent(["Reach them on SMS overnight, around The Drive.", "Message them in the evening."],
                               SHOWS)
    assert kept == ["Message them in the evening."] and dropped == 1
