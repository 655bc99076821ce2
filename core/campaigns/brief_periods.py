"""Dates a brief names by their end alone, by a period that has no fixed days, or by half a range: finders of
core.campaigns.brief_facts that read what they can and ask about the rest, never filling a gap with a guess.

- An end with no start ("till end of Jan", "until 15 January") runs from the station's today; a bare month after
  "till", "until" or "through" ("through February") is a question: the whole month, or from today to its end.
- A part of a month ("mid-Jan", "end of January", "early Feb") or a period that the calendar does not fix (a noun
  for a stretch of days with a word that qualifies it: "the long weekend", "festive season", "payday weekend in
  Jan", "the Dec hols") is a question without readings; when the brief also gives dates, those win and it is not
  asked (core.campaigns.brief_facts).
- A day number left beside a date that was read ("ka-11 kuya ku-24 December": only "24 December" reads) is half a
  range: a question with the range and the day alone.
"""
from __future__ import annotations

import re
from datetime import date

import dateparser

from core.campaigns import brief_calendar as calendar
from core.campaigns import brief_questions as asking
from core.search.words import MONTHS

MONTH = r"(?P<month>[A-Z][a-z]{2,8})\.?(?:\s+(?P<year>\d{4}))?"
UNTIL = re.compile(r"\b(?P<cue>till|until|til|through|thru|up to)\s+(?:the\s+)?(?:(?P<end>end)\s+of\s+)?"
                   r"(?:(?P<day>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+)?" + MONTH + r"\b(?!\s*\d)", re.IGNORECASE)
PART = re.compile(r"\b(?P<part>early|mid|middle\s+of|late|end\s+of|beginning\s+of|start\s+of)[\s-]+(?:the\s+)?"
                  + MONTH.replace("<month>", "<pm>").replace("<year>", "<py>"), re.IGNORECASE)
PERIOD_NOUNS = r"weekends?|season|holidays|holiday|hols|break|vacation|vac|payday|month[- ]end"
"""Nouns for a stretch of days that the calendar fixes only with a date or a holiday's name."""
PERIOD = re.compile(r"\b(?P<q>[A-Za-z][\w'-]*)\s+(?P<noun>" + PERIOD_NOUNS + r")\b(?:\s+(?:in|of)\s+"
                    + MONTH.replace("<month>", "<pm>").replace("<year>", "<py>") + r")?", re.IGNORECASE)
NOT_QUALIFYING = {"this", "next", "coming", "every", "each", "the", "a", "an", "on", "at", "over", "per", "and", "or",
                  "of", "one", "that", "whole", "following", "two", "three", "four", "weekday", "our", "their"}
"""Words before a period noun that fix it from today ("this weekend": core.campaigns.brief_calendar) or qualify it
not at all ("a break"): the period is then not vague."""
LEFT_DAY = re.compile(r"(?:^|[\s-])(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:\s+[^\W\d]+-?){0,2}\s*$")


def until(text: str, settings: dict) -> list[tuple]:
    """Runs named by their end: from today to the end of the month or the day; a bare month a question."""
    base, out = settings["RELATIVE_BASE"].date(), []
    for m in UNTIL.finditer(text):
        if m["month"].casefold() not in MONTHS:
            continue
        first = _first_of(m["month"], m["year"], settings)
        if first is None:
            continue
        last = calendar.month_end(first)
        if m["day"]:
            last = _day(first, int(m["day"]))
        if m["end"] or m["day"]:
            out += [(m.start(), m.end(), base), (m.start(), m.end(), last)] if last and last >= base else []
            continue
        readings = [asking.reading(max(first, base), last), asking.reading(base, last)]
        out.append((m.start(), m.end(), asking.question(
            m.group(), list({r["start"]: r for r in readings}.values()),
            f"\"{m.group()}\" may be all of {m['month']}, or from today to its end.")))
    return out


def vague(text: str, settings: dict) -> list[tuple]:
    """Parts of months and periods the calendar does not fix: questions without readings."""
    out = []
    for m in PART.finditer(text):
        if m["pm"].casefold() in MONTHS:
            out.append((m.start(), m.end(), _vague(m.group())))
    for m in PERIOD.finditer(text):
        if m["q"].casefold() not in NOT_QUALIFYING and not any(a <= m.start() < b for a, b, _ in out):
            out.append((m.start(), m.end(), _vague(m.group())))
    return out


def _vague(words: str) -> dict:
    return {**asking.question(words, [], f"\"{words}\" names a period, not its days.", asking.ASK_AGAIN),
            "vague": True}


def unvague(questions: list[dict], dated: bool) -> list[dict]:
    """The questions, without those about vague periods when the brief also gives dates (they win)."""
    return [{k: v for k, v in q.items() if k != "vague"} for q in questions if not (dated and q.get("vague"))]


def half_ranges(text: str, brief: str, found: list[tuple]) -> list[dict]:
    """Questions for single days read with a day number left just before them (the brief's text with what was read
    blanked): half of a range, unless a date's cue stands between them ("3 shows on 12 December")."""
    out = []
    for start, end, day in found:
        if sum(1 for a, b, _ in found if (a, b) == (start, end)) > 1:
            continue  # a run: both its ends were read
        left = LEFT_DAY.search(text[max(0, start - 24):start])
        gap = left and text[max(0, start - 24) + left.end("d"):start]
        if left and 1 <= int(left["d"]) < day.day and not asking.CUE.search(gap + brief[start:end].split()[0]):
            words = (brief[max(0, start - 24) + left.start("d"):end]).strip()
            runs = [(day.replace(day=int(left["d"])), day), (day, day)]
            out.append(asking.question(words, [asking.reading(*r) for r in runs],
                                       f"\"{words}\" reads as a range of which only its last day could be read."))
    return out


def _first_of(month: str, year: str | None, settings: dict) -> date | None:
    found = dateparser.parse(f"1 {month} {year or ''}".strip(), languages=["en", "af"], settings=settings)
    if found is None:
        return None
    first, base = found.date(), settings["RELATIVE_BASE"].date()
    if not year and (first.year, first.month) == (base.year + 1, base.month):
        first = first.replace(year=base.year)  # "till end of November" said in November
    return first


def _day(first: date, day: int) -> date | None:
    try:
        return first.replace(day=day)
    except ValueError:
        return None
