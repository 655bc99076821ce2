"""Dates a brief gives that read more than one way, that cannot be read, or that lie wholly in the past: each is a
question with its readings, for the producer to pick on the page (or an API client to answer by sending explicit
dates), never a window chosen in silence.

A question is {"field": "dates", "words", "question", "readings": [{"start", "end", "words"}]}. Readings come from
the calendar alone: numeric dates in both orders a brief may use (31/12 is only day-first, so a range from it is
day-first throughout; 01/02 is 1 February or 2 January), a run that goes backwards within one month ("5 to 2
November": 2 to 5 November, or 5 October to 2 November), next year's run for one named without a year that has
already ended. The finders of core.campaigns.brief_facts hand their questions here; `refused_past` is applied to
what any provider read.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from core.errors import ValidationFailed
from core.text.wording import day_words

RECENT_DAYS = 60
"""A run named without a year whose last day passed at most this many days ago is that run (which has ended, so it is
refused with next year's as its reading), not next year's: "1-10 November" written on 28 November means this
November."""
LONGEST = 366
NUMERIC = re.compile(r"(?<![\w/.-])(?P<a>\d{4}|\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?:(?P=sep)(?P<c>\d{4}|\d{2}))?"
                     r"(?![\w/]|[.-]\d)")
TO = re.compile(r"\s*(?:-|–|to|until|till|through|and)\s*")
CUE = re.compile(r"\b(?:on|from|until|till|by|starting|start|between|before|after|dates?|runs?|running)(?:\s+the)?"
                 r"\W*$", re.IGNORECASE)
"""Words before a day written as figures that make it a date: alone, "24/7", "50/50" or "our 21st birthday" is
none."""
LEFT_OVER = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b|(?<![\w/])\d{1,2}/\d{1,2}(?![\w/])", re.IGNORECASE)
"""What still looks like a date once every finder has read what it could: "the 31st", "12/13"."""


ASK_AGAIN = "Give the dates as a day and a month (\"5 to 12 December\")."


def question(words: str, readings: list[dict], why: str, again: str = ASK_AGAIN) -> dict:
    """A question about the campaign's dates, asked in words, with its readings (none when there is nothing to pick:
    then `again` says what to give instead)."""
    ask = "Which do you mean?" if len(readings) > 1 else "Is this what you mean?" if readings else again
    return {"field": "dates", "words": words, "question": f"{why} {ask}", "readings": readings}


def reading(start: date, end: date) -> dict:
    """One reading of the dates: its first and last day."""
    said = day_words(start) if start == end else f"{day_words(start)} to {day_words(end)}"
    return {"start": start.isoformat(), "end": end.isoformat(), "words": said}


def next_or_lately(day: int, month: int, base: date) -> date | None:
    """The day and month in the first year that puts it after RECENT_DAYS ago."""
    for year in (base.year - 1, base.year, base.year + 1):
        found = _day(year, month, day)
        if found and found >= base - timedelta(days=RECENT_DAYS):
            return found
    return None


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _run(ends: list[tuple[int, int, int | None]], base: date) -> tuple[date, date] | None:
    """The run from (day, month, year or None) to another; without a year, the one whose end is next or passed
    lately, starting the year before when its start falls after its end (31 December to 1 February)."""
    (d1, m1, y1), (d2, m2, y2) = ends[0], ends[-1]
    year = y2 or y1
    end = _day(year, m2, d2) if year else next_or_lately(d2, m2, base)
    if end is None:
        return None
    start = _day(y1 or end.year, m1, d1)
    if start and start > end and not y1:
        start = _day(end.year - 1, m1, d1)
    if not start or start > end or (end - start).days > LONGEST:
        return None
    return start, end


def _orders(parts: tuple) -> list[tuple[int, int, int | None]] | list[None]:
    """(day, month, year) of a date written as figures, day-first then month-first; year-first when it leads."""
    a, b, c = int(parts[0]), int(parts[1]), parts[2]
    if len(parts[0]) == 4:
        return [(int(c), b, a)] if c and len(c) <= 2 else [None]
    year = (int(c) + 2000 if len(c) == 2 else int(c)) if c else None
    return [(a, b, year), (b, a, year)]


def numeric(text: str, base: date) -> list[tuple]:
    """Dates written as figures ("31/12 to 01/02", "on 05/12", "2026-12-05"): (start, end, day) for each end of the
    one reading they have, or (start, end, question) when they have several or none."""
    found = [m for m in NUMERIC.finditer(text) if m["c"] or m["sep"] == "/"]
    out, i = [], 0
    while i < len(found):
        m = found[i]
        paired = i + 1 < len(found) and TO.fullmatch(text[m.end():found[i + 1].start()])
        group = found[i:i + 2] if paired else [m]
        i += len(group)
        if paired or m["c"] or CUE.search(text[max(0, m.start() - 16):m.start()]):
            out += _numeric_run(text, group, base)
    return out


def _numeric_run(text: str, group: list, base: date) -> list[tuple]:
    """The spans of one numeric date or range, read in each order that makes calendar dates of every end."""
    start, end = group[0].start(), group[-1].end()
    orders = [_orders((m["a"], m["b"], m["c"])) for m in group]
    runs = []
    for k in range(2):
        ends = [o[min(k, len(o) - 1)] for o in orders]
        run = None if None in ends else _run(ends, base)
        if run and run not in runs:
            runs.append(run)
    if len(runs) == 1:
        return [(start, end, runs[0][0]), (start, end, runs[0][1])]
    words = text[start:end]
    why = (f"\"{words}\" reads as a day then a month, or as a month then a day." if runs else
           f"\"{words}\" could not be read as calendar dates.")
    return [(start, end, question(words, [reading(*r) for r in runs], why))]


def backwards(words: str, day_from: date, day_to: date) -> dict:
    """A run within one month whose first day falls after its last ("5 to 2 November"): the days swapped, or the
    first day in the month before."""
    swapped = (day_to, day_from)
    before = _day((day_to.replace(day=1) - timedelta(days=1)).year, (day_to.replace(day=1) - timedelta(days=1)).month,
                  day_from.day)
    runs = [swapped] + ([(before, day_to)] if before else [])
    return question(words, [reading(*r) for r in runs], f"\"{words}\" ends before it starts.")


def left_over(text: str, words_of) -> dict | None:
    """What still looks like a date after every finder has read the text ("from the 31st to the 3rd"), from the first
    such words after a date's cue to the last: a question without readings (None when nothing does)."""
    found = list(LEFT_OVER.finditer(text))
    cued = [i for i, m in enumerate(found) if CUE.search(text[max(0, m.start() - 16):m.start()])]
    if not cued:
        return None
    words = words_of(found[cued[0]].start(), found[-1].end())
    return question(words, [], f"\"{words}\" looks like dates that could not be read.")


def refused_past(dates: dict | None, questions: list[dict], today: date) -> tuple[dict | None, list[dict]]:
    """The dates, or None and a question when they lie wholly before the station's today, or start before it (from
    today, or as written: _partly_past); every reading of the
    questions that lies wholly in the past is moved to next year (when no year was written) or left out."""
    asked = [_ahead(q, today) for q in questions]
    if dates is None or dates.get("given") or date.fromisoformat(dates["start"]) >= today:
        return dates, asked
    start, end = date.fromisoformat(dates["start"]), date.fromisoformat(dates["end"])
    if end >= today:
        return None, [*asked, _partly_past(dates.get("words") or "", start, end, today)]
    why = (f"{reading(start, end)['words']} is wholly in the past (today is {day_words(today)} at the station): "
           "a plan cannot air in it.")
    again = "Give dates from today on."
    return None, [*asked, question(dates.get("words") or "", _next_year(dates, today), why, again)]


def _partly_past(words: str, start: date, end: date, today: date) -> dict:
    """A run that started before the station's today: from today, or as written (its past days cannot air)."""
    why = (f"{reading(start, end)['words']} started before today ({day_words(today)} at the station): a plan can "
           "only air from today.")
    return question(words, [reading(today, end), reading(start, end)], why)


def _ahead(asked: dict, today: date) -> dict:
    if asked["field"] != "dates":
        return asked
    readings = []
    for r in asked["readings"]:
        moved = [r] if date.fromisoformat(r["end"]) >= today else _next_year({**r, "words": asked["words"]}, today)
        readings += [m for m in moved if m not in readings]
    return {**asked, "readings": readings} if readings != asked["readings"] else asked


def _next_year(dates: dict, today: date) -> list[dict]:
    """The same days a year on, when the brief wrote no year and a year on they lie ahead."""
    if re.search(r"\b\d{4}\b|\d{1,2}[/.-]\d{1,2}[/.-]\d{2}\b", dates.get("words") or ""):
        return []
    start, end = (date.fromisoformat(dates[k]) for k in ("start", "end"))
    later = [_on_later(start), _on_later(end)]
    return [reading(*later)] if None not in later and later[1] >= today else []


def _on_later(day: date) -> date | None:
    return _day(day.year + 1, day.month, day.day) or _day(day.year + 1, day.month, day.day - 1)


def given_dates(given: dict, today: date, loc: tuple = ("body", "dates")) -> dict:
    """Dates a client sends to answer a question (or to replace the brief's): {"start", "end", "words", "given"};
    422 naming `dates` when they are no calendar dates, run backwards, last over LONGEST days or lie wholly in the
    past (the station's today)."""
    try:
        start, end = (date.fromisoformat(str(given[k])[:10]) for k in ("start", "end"))
    except (KeyError, TypeError, ValueError):
        raise ValidationFailed.one(list(loc), "Give the first and last day as YYYY-MM-DD.") from None
    problem = ("The first day falls after the last." if start > end else
               f"A run lasts at most {LONGEST} days." if (end - start).days > LONGEST else
               f"{reading(start, end)['words']} is wholly in the past (today is {day_words(today)} at the station): "
               "a plan cannot air in it." if end < today else None)
    if problem:
        raise ValidationFailed.one(list(loc), problem)
    return {**reading(start, end), "given": True}


def answered(parsed: dict, dates: dict) -> dict:
    """The brief's reading with the dates a client gave in place of its own, and its questions about dates
    answered."""
    criteria = [c for c in parsed["criteria"] if c["field"] != "dates"] + [
        {"field": "dates", "values": [dates["start"], dates["end"]], "words": dates["words"]}]
    return {**parsed, "dates": dates, "criteria": criteria,
            "questions": [q for q in parsed.get("questions", []) if q["field"] != "dates"]}
