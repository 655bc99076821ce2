"""Dates of a brief: when the campaign is, as opposed to whom it is for.

Dates are read by dateparser in the station's time zone, relative to the clock's today. The stretches that name
dates are looked for first (a range within one month, a public holiday of the station's country by its name from
the `holidays` package, a day and month, a whole month, a relative day), each parsed by dateparser; then dateparser's
own search over the rest, whose matches are kept only when they name a month, a numeric date, a relative day or a
weekday after "on"/"this"/"next" (alone it reads "We" as Wednesday and "25-34" as a date). A duration ("for two
weeks", "the next ten days") sets the end from the start, or from today after "next"; alone it names no dates. Runs
of weeks, weekends or months ("this weekend and next", "the next two weekends", "this and next month") span them all;
a run of weekends says so (`weekdays` [6, 7]). Ends alone, vague periods, half ranges: core.campaigns.brief_periods.
Dates that read two ways or cannot be read are questions (core.campaigns.brief_questions), never a window: the
answer then has no dates. Its budget and goal are read by core.campaigns.brief_budget.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import dateparser
import holidays as holiday_calendars
from dateparser.search import search_dates

from core.campaigns import brief_calendar as calendar
from core.campaigns import brief_periods as periods
from core.campaigns import brief_questions as asking
from core.campaigns.brief_budget import MONEY
from core.clock import zone_of
from core.search.words import MONTHS

LANGUAGES = ["en", "af"]
"""Languages dateparser reads dates in: English, and Afrikaans ("12 Desember") that briefs here are also written in."""
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ORDINAL, TO = r"(?:st|nd|rd|th)?", r"\s*(?:-|–|to|until|till|through|and)\s*(?:the\s+)?"
RANGE = re.compile(r"\b(?P<d1>\d{1,2})" + ORDINAL + TO + r"(?P<d2>\d{1,2})" + ORDINAL + r"\s+"
                   r"(?P<month>[A-Za-z]{3,9})\b(?:\s+(?P<year>\d{4}))?")
SPAN = re.compile(r"\b(?P<d1>\d{1,2})" + ORDINAL + r"\s+(?P<m1>[A-Za-z]{3,9})\.?(?:\s+(?P<y1>\d{4}))?" + TO
                  + r"(?P<d2>\d{1,2})" + ORDINAL + r"\s+(?P<m2>[A-Za-z]{3,9})\b(?:\s+(?P<y2>\d{4}))?"
                  r"|\b(?P<m3>[A-Z][a-z]{2,8})\.?\s+(?P<d3>\d{1,2})" + ORDINAL + TO
                  + r"(?:(?P<m4>[A-Z][a-z]{2,8})\.?\s+)?(?P<d4>\d{1,2})" + ORDINAL + r"\b(?:,?\s+(?P<y4>\d{4}))?")
"""A range from one day and month to another: "20 November to 30 November", "20 Nov - 5 Dec", "November 20-30"."""
NUMBER = calendar.NUMBER
DURATION = re.compile(r"\b(?:(?:(?:for|over)\s+|(?=the\s+(?:next|coming)\s))(?:the\s+(?:next|coming)\s+)?" + NUMBER
                      + r"\s+(?P<unit>days?|weeks?|months?)|" + NUMBER.replace("<n>", "<n2>")
                      + r"[- ](?P<unit2>day|week|month)\s+(?:flight|campaign|run|burst|promotion|schedule))\b",
                      re.IGNORECASE)
NEXT = re.compile(r"\b(?:next|coming)\b", re.IGNORECASE)
DAY = re.compile(r"\b(?:(?:on|this|next|coming)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?"
                 r"(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<month>[A-Za-z]{3,9})\b(?:,?\s+(?P<year>\d{4}))?"
                 r"|\b(?P<month2>[A-Z][a-z]{2,8})\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(?P<year2>\d{4}))?",
                 re.IGNORECASE)
WHOLE_MONTH = re.compile(r"\b(?:in|during|throughout|for|all of)\s+(?P<month>[A-Za-z]{3,9})\b(?:\s+(?P<year>\d{4}))?"
                         r"(?!\s*\d)")
MONTH_ONLY = re.compile(r"(?:[A-Za-z]+\s+)?(?P<month>[A-Z][a-z]{2,8})(?:\s+(?P<year>\d{4}))?")
RELATIVE = re.compile(r"\b(?:tomorrow|today|tonight|(?:next|this|coming)\s+(?:week|weekend|month|year|"
                      + "|".join(WEEKDAYS) + r"))\b", re.IGNORECASE)
NUMERIC_DATE = re.compile(r"\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b")


def find_dates(brief: str, now: datetime, tz: str | None, taken: list, country: str = "ZA") -> dict | None:
    """{"start", "end" (ISO dates), "words"} of the campaign's dates, None when the brief names none (or asks)."""
    return read_dates(brief, now, tz, taken, country)[0]


def read_dates(brief: str, now: datetime, tz: str | None, taken: list, country: str = "ZA") -> tuple:
    """The campaign's dates ({"start", "end", "words"} or None) and the questions they raise: dates that read two
    ways, or plainly are dates but cannot be read, leave the dates None and ask (core.campaigns.brief_questions)."""
    text = _blank(brief, taken + [(m.start(), m.end()) for m in MONEY.finditer(brief)])
    zone = zone_of(tz)
    today = datetime.combine(now.astimezone(zone).date(), datetime.min.time())
    settings = {"TIMEZONE": zone.key, "RELATIVE_BASE": today, "PREFER_DATES_FROM": "future",
                "RETURN_AS_TIMEZONE_AWARE": False}
    found, questions = [], []
    durations = [(m.start(), m.end(), f"in {m['n'] or m['n2']} {m['unit'] or m['unit2']}", m.group())
                 for m in DURATION.finditer(text)]
    text = _blank(text, [d[:2] for d in durations])
    weekends = calendar.weekend_runs(text)
    opened = []  # the spans of ends named alone ("till end of Jan"), which run from today
    for finder in (_numeric, _ranges, _holidays_of(country), _units, periods.until, _days, _relative, periods.vague,
                   _months, _searched):
        spans = finder(text, settings)
        found += [s for s in spans if isinstance(s[2], date)]
        opened += [s[:2] for s in spans if isinstance(s[2], date) and finder is periods.until]
        questions += [s[2] for s in spans if isinstance(s[2], dict)]
        text = _blank(text, [(a, b) for a, b, _ in spans])
    questions = periods.unvague(questions, bool(found)) + periods.half_ranges(text, brief, found)
    if not found and not questions:
        questions = [q for q in [asking.left_over(text, lambda a, b: brief[a:b].strip())] if q]
    durations = [d for d in durations if found or NEXT.search(d[3])]  # "for three months" from when? unknown
    if questions or (not found and not durations):
        return None, questions
    starts = [d for a, b, d in found if (a, b) not in opened]
    start = min(starts) if starts else today.date()
    end = max(d for _, _, d in found) if found else start
    if durations and start == end:
        from_start = {**settings, "RELATIVE_BASE": datetime.combine(start, datetime.min.time())}
        end = _parse(durations[0][2], from_start) or end
    spans = sorted([(a, b) for a, b, _ in found] + [d[:2] for d in durations[:1]])
    dates = {"start": start.isoformat(), "end": end.isoformat(), "words": _words(brief, spans)}
    if found and not durations and all((a, b) in weekends for a, b, _ in found) and (end - start).days > 1:
        dates["weekdays"] = [6, 7]  # "this weekend and next": on air at the weekends alone
    return dates, []


def _blank(text: str, spans: list) -> str:
    """The text with these spans replaced by spaces (positions kept)."""
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def _parse(text: str, settings: dict) -> date | None:
    """dateparser's date of the text."""
    return _on_the_day(dateparser.parse(text, languages=LANGUAGES, settings=settings), text, settings)


def _on_the_day(found: datetime | None, text: str, settings: dict) -> date | None:
    """"20 November" said on 20 November is today, not next year (dateparser prefers the future and counts today
    as past)."""
    if found is None:
        return None
    day, base = found.date(), settings["RELATIVE_BASE"].date()
    if abs(day.year - base.year) > 5:
        return None  # dateparser read a day as a year ("12 Desember" -> 2112)
    if day.year == base.year + 1 and day.replace(year=base.year) == base and str(day.year) not in text:
        return base
    return day


def _ranges(text: str, settings: dict) -> list[tuple[int, int, date]]:
    """Both ends of ranges: "1-14 December", "from 20 to 30 November 2026", "20 November to 30 November", "Nov 20 to
    Dec 5". Without a year, the run is the one whose end is next or passed lately (RECENT_DAYS), so a run that has
    started (or just ended) stays this year's, whole."""
    out = []
    for m in SPAN.finditer(text):
        ends = ((m["d1"], m["m1"], m["y1"]), (m["d2"], m["m2"], m["y2"])) if m["d1"] else \
            ((m["d3"], m["m3"], None), (m["d4"], m["m4"] or m["m3"], m["y4"]))
        out += _run(m, ends, settings)
    text = _blank(text, [(a, b) for a, b, _ in out])
    for m in RANGE.finditer(text):
        out += _run(m, ((m["d1"], m["month"], m["year"]), (m["d2"], m["month"], m["year"])), settings)
    return out


def _run(m, ends: tuple, settings: dict) -> list[tuple]:
    """The first and last day of a run named by (day, month, year or None) at each end; none when a month is no
    month; a question when it goes backwards within one month ("5 to 2 November") or cannot be one run."""
    (d1, m1, y1), (d2, m2, y2) = ends
    if m1.casefold().rstrip(".") not in MONTHS or m2.casefold().rstrip(".") not in MONTHS:
        return []
    base = settings["RELATIVE_BASE"].date()
    end = _on(d2, m2, y2 or y1, settings) if y2 or y1 else _next_or_lately(d2, m2, base, settings)
    start = _on(d1, m1, y1 or (end and end.year), settings)
    if start and end and start > end and start.month == end.month and not y1:
        return [(m.start(), m.end(), asking.backwards(m.group().strip(), start, end))]
    if start and end and start > end and not y1:
        start = _on(d1, m1, end.year - 1, settings)  # "20 December to 5 January"
    elif start and end and start > end and not y2:
        end = _on(d2, m2, start.year + 1, settings)
    if not start or not end or start > end or (end - start).days > asking.LONGEST:
        words = m.group().strip()
        return [(m.start(), m.end(), asking.question(words, [], f"\"{words}\" cannot be read as one run of days."))]
    return [(m.start(), m.end(), start), (m.start(), m.end(), end)]


def _on(day: str, month: str, year, settings: dict) -> date | None:
    return _parse(f"{day} {month} {year}", settings) if year else None


def _next_or_lately(day: str, month: str, base: date, settings: dict) -> date | None:
    """The day and month in the first year that puts it after RECENT_DAYS ago (brief_questions.next_or_lately)."""
    found = _on(day, month, base.year, settings)
    return found and asking.next_or_lately(found.day, found.month, base)


def _numeric(text: str, settings: dict) -> list[tuple]:
    """Dates written as figures, in every order they read (core.campaigns.brief_questions.numeric)."""
    return asking.numeric(text, settings["RELATIVE_BASE"].date())


def _units(text: str, settings: dict) -> list[tuple[int, int, date]]:
    """Runs of weeks, weekends or months from this one (core.campaigns.brief_calendar.units)."""
    return calendar.units(text, settings["RELATIVE_BASE"].date())


def _days(text: str, settings: dict) -> list[tuple[int, int, date]]:
    """Days named by their date: "Saturday 5 December", "12 December 2026", "December 12" (dateparser reads each)."""
    out = []
    for m in DAY.finditer(text):
        month = m["month"] or m["month2"]
        if month.casefold() in MONTHS and month[0].isupper() and (day := _parse(m.group(), settings)):
            out.append((m.start(), m.end(), day))
    return out


def _holidays_of(country: str):
    """The finder of the country's public holidays by name ("Heritage Day"; "Easter": Good Friday and 3 days)."""

    def find(text: str, settings: dict) -> list[tuple[int, int, date]]:
        base = settings["RELATIVE_BASE"].date()
        calendar = holiday_calendars.country_holidays(country, years=[base.year, base.year + 1])
        names = {}
        for day, name in sorted(calendar.items()):
            if day >= base:
                names.setdefault(name.replace(" (observed)", "").casefold(), day)
        out = []
        for name, day in names.items():
            out += [(m.start(), m.end(), day) for m in re.finditer(rf"\b{re.escape(name)}\b", text, re.IGNORECASE)]
        if "good friday" in names:
            friday = names["good friday"]
            for m in re.finditer(r"\beaster(?:\s+(?:long\s+)?weekend)?\b", text, re.IGNORECASE):
                out += [(m.start(), m.end(), friday), (m.start(), m.end(), friday + timedelta(days=3))]
        return out

    return find


def _months(text: str, settings: dict) -> list[tuple[int, int, date]]:
    """A whole month: "in December", "throughout January 2027" (its first and last day)."""
    out = []
    for m in WHOLE_MONTH.finditer(text):
        if m["month"].casefold() in MONTHS and m["month"][0].isupper():
            out += _whole_month(m["month"], m["year"], m.start("month"), m.end(), settings)
    return out


def _whole_month(month: str, year: str | None, start: int, end: int, settings: dict) -> list:
    """The first and last day of the month named; without a year, the next such month, or this one."""
    first = _parse(f"1 {month} {year or ''}".strip(), settings)
    if first is None:
        return []
    base = settings["RELATIVE_BASE"].date()
    if not year and (first.year, first.month) == (base.year + 1, base.month):
        first = first.replace(year=base.year)  # "in November" said in November is this November
    return [(start, end, first), (start, end, calendar.month_end(first))]


def _relative(text: str, settings: dict) -> list[tuple]:
    """"tomorrow", "this Saturday", "this weekend" (its Saturday and Sunday), "next week" (Monday to Sunday), "this
    month" (its days left), "next month" (all of it). "Next Saturday" or "next weekend" said earlier in the same
    week reads as the coming one or the one after: a question with both."""
    out, base = [], settings["RELATIVE_BASE"].date()
    for m in RELATIVE.finditer(text):
        words = m.group().casefold()
        what, ahead = words.split()[-1], 0 if words.startswith("this") else 1
        if what in ("week", "month") or what == "weekend" and not ahead:
            first, last = calendar.unit_of(what, base, ahead)
            out += [(m.start(), m.end(), first), (m.start(), m.end(), last)]
            continue
        day = _parse(words[: -len("weekend")] + "saturday" if what == "weekend" else words, settings)
        if day is None:
            continue
        days = (day, day + timedelta(days=1)) if what == "weekend" else (day, day)
        if ahead and what in ("weekend", *WEEKDAYS) and day.isocalendar()[:2] == base.isocalendar()[:2]:
            later = tuple(d + timedelta(weeks=1) for d in days)
            asked = asking.question(m.group(), [asking.reading(*days), asking.reading(*later)],
                                    f"\"{m.group()}\" may be the coming one or the one after.")
            out.append((m.start(), m.end(), asked))
        else:
            out += [(m.start(), m.end(), d) for d in days]
    return out


def _searched(text: str, settings: dict) -> list[tuple[int, int, date]]:
    """Dates dateparser finds in the rest of the text, kept only when they really name a date."""
    found = search_dates(text, languages=LANGUAGES, settings=settings) or []
    out, cursor = [], 0
    for words, moment in found:
        at = text.find(words, cursor)
        if at < 0:
            continue
        cursor = at + len(words)
        if not _names_a_date(words):
            continue
        month_only = MONTH_ONLY.fullmatch(words.strip())
        if month_only:
            out += _whole_month(month_only["month"], month_only["year"], at, at + len(words.rstrip()), settings)
        elif day := _on_the_day(moment, words, settings):
            out.append((at, at + len(words.rstrip()), day))
    return out


def _names_a_date(words: str) -> bool:
    """Whether dateparser's match really names a date: a month (capitalised: "may" is a verb), a numeric date, a
    relative day, or a weekday after on/this/next/coming."""
    tokens = re.findall(r"[A-Za-z]+", words)
    if any(t.casefold() in MONTHS and t[0].isupper() and (t != "May" or re.search(r"\d", words)) for t in tokens):
        return True
    if NUMERIC_DATE.search(words) or RELATIVE.search(words):
        return True
    lowered = [t.casefold() for t in tokens]
    return any(day in lowered for day in WEEKDAYS) and bool({"on", "this", "next", "coming"} & set(lowered))


def _words(brief: str, spans: list) -> str:
    """The brief's words from the first span to the last, or the spans alone when they lie far apart."""
    first, last = spans[0][0], max(b for _, b in spans)
    if last - first <= 80:
        return brief[first:last].strip()
    return " … ".join(brief[a:b].strip() for a, b in spans)
