"""Runs of days a brief names from the station's today rather than by date: this or next week, weekend or month,
and runs of several ("this weekend and next", "the next two weekends", "this and next month").

A week runs Monday to Sunday, a weekend Saturday and Sunday, a month from its first day to its last; one under way
is counted from today, never from days already past. The finders of core.campaigns.brief_facts use these.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

NUMBER = r"(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight)"
UNITS = re.compile(r"\b(?:(?P<this>this|next|coming)\s+(?P<unit>week|weekend|month)\s+and\s+(?:the\s+)?"
                   r"(?:next|following)(?:\s+(?:one|week|weekend|month))?|this\s+and\s+next\s+(?P<unit2>week|"
                   r"weekend|month)|(?:the\s+)?(?:next|coming)\s+" + NUMBER + r"\s+weekends)\b", re.IGNORECASE)
COUNTS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")


def units(text: str, base: date) -> list[tuple[int, int, date]]:
    """Runs of whole weeks, weekends or months from this one: "this weekend and next", "this and next month", "the
    next two weekends" (a weekend under way is the first)."""
    out = []
    for m in UNITS.finditer(text):
        unit, count = (m["unit"] or m["unit2"] or "weekend").casefold(), 2 if m["unit"] or m["unit2"] else _count(m)
        skip = int((m["this"] or "this").casefold() != "this")  # "next week and the following one"
        if count:
            out += [(m.start(), m.end(), unit_of(unit, base, skip)[0]),
                    (m.start(), m.end(), unit_of(unit, base, skip + count - 1)[1])]
    return out


def weekend_runs(text: str) -> list[tuple[int, int]]:
    """Where the text names a run of weekends: its days between them are no part of it."""
    return [m.span() for m in UNITS.finditer(text) if (m["unit"] or m["unit2"] or "weekend").casefold() == "weekend"]


def unit_of(unit: str, base: date, ahead: int) -> tuple[date, date]:
    """The first and last day of this week, weekend or month (`ahead` 0), or of the one `ahead` after it."""
    if unit == "month":
        first = date(base.year + (base.month - 1 + ahead) // 12, (base.month - 1 + ahead) % 12 + 1, 1)
        return max(first, base), month_end(first)
    if unit == "week":
        monday = base - timedelta(days=base.weekday()) + timedelta(weeks=ahead)
        return max(monday, base), monday + timedelta(days=6)
    saturday = base + timedelta(days=(5 - base.weekday()) % 7 if base.weekday() != 6 else -1) + timedelta(weeks=ahead)
    return max(saturday, base), saturday + timedelta(days=1)


def _count(m) -> int:
    word = m["n"].casefold()
    return int(word) if word.isdigit() else 1 if word in ("a", "an") else COUNTS.index(word)


def month_end(day: date) -> date:
    """The last day of the day's month."""
    return date(day.year + day.month // 12, day.month % 12 + 1, 1) - timedelta(days=1)
