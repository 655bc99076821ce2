"""Actions checked against the station's schedule before an answer is shown: an action that names a show together
with a time of day the show is not on ("SMS overnight, around The Drive") contradicts the data and is dropped, from
whichever provider wrote it."""
from __future__ import annotations

import re

from core.text.wording import DAYPART_PHRASES

DAYPART_WORDS = {key: re.compile(rf"\b{re.escape(phrase.split()[-1])}\b", re.IGNORECASE)
                 for key, phrase in DAYPART_PHRASES.items()}
"""Each daypart by the last word of its phrase ("overnight", "breakfast", "mid-morning", "afternoon", "evening"), as
an action would say it; drive's phrase ends in "time", too common a word, so drive is found by "drive time"."""
DAYPART_WORDS["drive"] = re.compile(r"\bdrive[- ]time\b", re.IGNORECASE)


def contradicts(action: str, shows: dict[str, dict]) -> bool:
    """True when the action names a show and a daypart, and the show does not air in that daypart."""
    named = [title for title in shows if title and title.casefold() in action.casefold()]
    if not named:
        return False
    said = {key for key, pattern in DAYPART_WORDS.items() if pattern.search(_without(action, named))}
    return bool(said) and not any(shows[title].get("daypart") in said for title in named)


def consistent(actions: list[str], shows: dict[str, dict]) -> tuple[list[str], int]:
    """The actions that hold together with the schedule, and how many were dropped."""
    kept = [a for a in actions if not contradicts(a, shows)]
    return kept, len(actions) - len(kept)


def _without(action: str, titles: list[str]) -> str:
    """The action without the shows' titles, whose own words ("The Drive", "Breakfast Club") name no time."""
    for title in titles:
        action = re.sub(re.escape(title), " ", action, flags=re.IGNORECASE)
    return action
