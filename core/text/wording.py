"""How the service writes numbers and sentences, in one tested place: numbers, percentages, plurals, articles, lists,
days ago and dayparts. Every sentence the service writes is put together from these, so each reads as correct English
whatever the numbers (0, 1 or many)."""
from __future__ import annotations

import math
from datetime import date, datetime

from core.clock import station_today

IRREGULAR = {"person": "people", "child": "children", "is": "are", "was": "were", "has": "have", "this": "these",
             "that": "those", "does": "do"}
"""Plurals that no spelling rule gives (verbs are given in their singular form: "is" -> "are")."""

DAYPART_PHRASES = {"overnight": "overnight", "breakfast": "at breakfast", "midmorning": "in the mid-morning",
                   "afternoon": "in the afternoon", "drive": "at drive time", "evening": "in the evening"}
"""How a sentence says "during" each daypart of core.segmentation.behaviour.DAYPARTS."""


def percentage(part: float, whole: float) -> float:
    """part of whole as a percentage 0..100 with one decimal; 0.0 of nothing."""
    return round(100.0 * float(part) / float(whole), 1) if whole else 0.0


def percent(share: float) -> str:
    """A share 0..1 in words: 0.7 -> '70%' (whole percent, as sentences use it); a share that is neither none nor all
    never reads as 0% or 100%, which would say something false."""
    whole = round(100 * float(share))
    if whole == 0 and share > 0:
        return "under 1%"
    if whole == 100 and share < 1:
        return "over 99%"
    return f"{whole}%"


def number(value: float | None) -> str:
    """A count or an average as people read it: thousands separated, at most one decimal (12,480; 2.5; 3)."""
    rounded = round(float(value or 0), 1)
    return f"{rounded:,.0f}" if rounded.is_integer() else f"{rounded:,.1f}"


def is_one(count: float | None) -> bool:
    """Whether `count` reads as exactly one, and so takes the singular (1.04 reads "1"; 0 and 1.5 do not)."""
    return number(count) == "1"


def agree(count: float | None, word: str, many: str | None = None) -> str:
    """The form of `word` (a noun or a verb in its singular form) that goes with `count`: agree(2, "is") -> "are".
    `many` gives a plural that no rule finds ("matches" -> "match")."""
    return word if is_one(count) else many or _plural_of(word)


def plural(count: float | None, noun: str, many: str | None = None) -> str:
    """A count with its noun: plural(1, "listener") -> "1 listener", plural(12480, "listener") -> "12,480 listeners"."""
    return f"{number(count)} {agree(count, noun, many)}"


def _plural_of(phrase: str) -> str:
    """The regular plural of a noun phrase's last word (entry -> entries, match -> matches, fan -> fans)."""
    head, _, word = phrase.rpartition(" ")
    if word in IRREGULAR:
        many = IRREGULAR[word]
    elif word.endswith("y") and word[-2:-1] not in ("", *"aeiou"):
        many = word[:-1] + "ies"
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        many = word + "es"
    else:
        many = word + "s"
    return f"{head} {many}" if head else many


def article(phrase: str) -> str:
    """The phrase with "a" or "an" before it, by its first letter (an occasional engager, a super fan)."""
    return f"{'an' if phrase[:1].lower() in 'aeiou' else 'a'} {phrase}"


def join_words(items: list[str]) -> str:
    """Items as an English list: "A", "A and B", "A, B and C" (nothing for no items)."""
    items = [item for item in items if item]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def sentence(text: str) -> str:
    """Text as a sentence: a capital first letter (the rest kept as it is) and a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def day_words(day: date | str) -> str:
    """A date as pages and plans name it: "1 Dec 2026"."""
    day = date.fromisoformat(day[:10]) if isinstance(day, str) else day
    return f"{day.day} {day:%b %Y}"


def days_ago(days: float | None, short: bool = False) -> str:
    """Whole days back in words, the one wording of every page and sentence: "today" (also for a time still to
    come), "yesterday", "12 days ago" (`short`: "12 d ago"); "never" when there is no time. A part of a day does not
    count ("1.7" is "yesterday"): a moment's days are counted by `heard`, on the station's calendar."""
    if days is None or math.isinf(days):
        return "never"
    whole = int(days)
    if whole <= 0:
        return "today"
    if whole == 1:
        return "yesterday"
    return f"{whole} d ago" if short else f"{plural(whole, 'day')} ago"


def heard(when: str | datetime | None, tz: str | None, now: datetime | None = None, short: bool = False) -> str:
    """When something happened, in `days_ago`'s words, counting the days of the station's calendar (its zone `tz`,
    core.clock.zone_of), not 24-hour periods: a listener last heard at 23:50 is "yesterday" at 00:30 and at 08:00;
    "never" for no time."""
    if not when:
        return "never"
    moment = datetime.fromisoformat(when) if isinstance(when, str) else when
    return days_ago((station_today(tz, now) - station_today(tz, moment)).days, short)


def time_left(seconds: float) -> str:
    """A wait in the words a person says it: "a minute" up to 90 seconds, then whole minutes ("3 minutes"), then
    hours and a half ("1.5 hours"); an estimate, so never finer than that."""
    minutes = math.ceil(max(0.0, seconds) / 60)
    if minutes <= 1 or seconds <= 90:
        return "a minute"
    if minutes < 90:
        return plural(minutes, "minute")
    return plural(round(minutes / 30) / 2, "hour")


def daypart(key: str) -> str:
    """When a daypart is, as a sentence says it: "overnight", "at breakfast", "in the evening"."""
    return DAYPART_PHRASES.get(key) or f"at {key.replace('_', ' ')}"
