"""Dates and times as stations write them: `2026/11/20 07:15`, `20-11-2026`, `11/20/2026 7:15 PM`, `06h00`, Excel
dates (cells typed as dates, or their serial numbers), and ISO 8601 as the import format has it.

Whether `05/11/2026` is the 5th of November or the 11th of May is the file's order, read once for the whole file
(`date_order`): a first part over 12 says day first, a second part over 12 says month first; a file whose dates never
say is read as the station's country writes dates. Each reading is ISO 8601 text without an offset unless the value
had one, which the importer then reads as the station's local time.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta

from dateutil import parser as dateutil_parser

DAY_FIRST, MONTH_FIRST = "day_first", "month_first"
ORDERS = (DAY_FIRST, MONTH_FIRST)
MONTH_FIRST_COUNTRIES = frozenset({"US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "UM", "VI"})
NUMERIC = re.compile(r"^(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})(?:(?:[ T]+|,\s*)(.+))?$", re.ASCII)
CLOCK = re.compile(r"^(\d{1,2})(?:[:hH.](\d{2}))?(?:[:.](\d{2})(?:\.\d+)?)?\s*([aApP])?\.?(?:[mM]\.?)?\s*"
                   r"(Z|[+-]\d{2}:?\d{2})?$", re.ASCII)
COMPACT = re.compile(r"^(19|20)(\d{2})(\d{2})(\d{2})$", re.ASCII)
SERIALS = (20000.0, 80000.0)  # Excel serial days from 1954 to 2119: numbers outside are no dates
EXCEL_EPOCH = datetime(1899, 12, 30)


class NoDate(ValueError):
    """A value that is no date or time as written."""


def date_order(values: Iterable, country: str) -> tuple[str, str]:
    """(day_first or month_first, "values" or "country"): what the written dates say, or the country's custom."""
    day = month = 0
    for value in values:
        match = NUMERIC.match(value.strip()) if isinstance(value, str) else None
        if match and len(match[1]) <= 2:
            first, second = int(match[1]), int(match[2])
            day += first > 12 >= second
            month += second > 12 >= first
    if day or month:
        return (DAY_FIRST if day >= month else MONTH_FIRST), "values"
    return (MONTH_FIRST if country.upper() in MONTH_FIRST_COUNTRIES else DAY_FIRST), "country"


def moment_text(parts: list, order: str) -> str:
    """ISO 8601 text of the date and time the parts write together (a date column and a time column, or one of
    both); NoDate when they write none. An ISO 8601 date and time is the import format's own: it is kept as it is."""
    if len(parts) == 1 and isinstance(parts[0], str) and len(parts[0]) > 10:
        try:
            datetime.fromisoformat(parts[0])
            return parts[0]
        except ValueError:
            pass
    day, clock, zone = None, None, ""
    for part in parts:
        found_day, found_clock, found_zone = _reading(part, order)
        day = day or found_day
        if found_clock is not None and (clock is None or clock == time()):
            clock = found_clock
        zone = zone or found_zone
    if day is None:
        raise NoDate("no date")
    return datetime.combine(day, clock or time()).isoformat() + zone


def clock_text(value) -> str:
    """HH:MM of a time of day as written (`6:00`, `06h00`, `6am`, `18:30:00`, an Excel time); NoDate otherwise."""
    if isinstance(value, (datetime, time)):
        return f"{value.hour:02d}:{value.minute:02d}"
    if isinstance(value, float) and 0 <= value < 1:
        value = _excel(value).time()
        return f"{value.hour:02d}:{value.minute:02d}"
    text = str(value).strip()
    if text in ("24:00", "24h00"):
        return "24:00"
    found = _clock(text)
    if found is None:
        raise NoDate("no time of day")
    return f"{found[0].hour:02d}:{found[0].minute:02d}"


def _reading(value, order: str) -> tuple[date | None, time | None, str]:
    """(date, time of day, offset as written) of one cell."""
    if isinstance(value, datetime):
        return value.date(), value.time(), _offset(value)
    if isinstance(value, date):
        return value, None, ""
    if isinstance(value, time):
        return None, value, ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number(float(value))
    text = str(value).strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return _written(text, order)
    return (moment.date(), moment.time(), _offset(moment)) if len(text) > 10 else (moment.date(), None, "")


def _number(value: float) -> tuple[date | None, time | None, str]:
    """An Excel serial date (days since 1899-12-30, the fraction the time of day) or a fraction of a day alone."""
    if 0 <= value < 1:
        return None, _excel(value).time(), ""
    if SERIALS[0] <= value <= SERIALS[1]:
        moment = _excel(value)
        return moment.date(), moment.time(), ""
    raise NoDate("a number that is no Excel date")


def _excel(value: float) -> datetime:
    """The moment of an Excel serial, to the second."""
    return EXCEL_EPOCH + timedelta(seconds=round(value * 86400))


def _written(text: str, order: str) -> tuple[date | None, time | None, str]:
    """A date and time written with numbers (`20-11-2026 07:15`), a compact `20261120`, a time alone, an Excel serial
    as text, or in words (`20 Nov 2026`)."""
    match = NUMERIC.match(text)
    if match:
        day = _numeric_date(match, order)
        found = _clock(match[4]) if match[4] else (None, "")
        if found is None:
            raise NoDate("a date with a time that cannot be read")
        return day, found[0], found[1]
    compact = COMPACT.match(text)
    if compact:
        return _date(int(compact[1] + compact[2]), int(compact[3]), int(compact[4])), None, ""
    found = _clock(text)
    if found is not None and (":" in text or "h" in text.lower() or found[0] != time()):
        return None, found[0], found[1]
    try:
        return _number(float(text))
    except ValueError:
        pass
    return _in_words(text, order)


def _numeric_date(match: re.Match, order: str) -> date:
    """Year first when the first part has four digits, else day or month first by the file's order."""
    first, second, third = match[1], int(match[2]), match[3]
    if len(first) == 4:
        return _date(int(first), second, int(third))
    year = int(third) + (2000 if len(third) <= 2 else 0)
    day, month = (int(first), second) if order == DAY_FIRST else (second, int(first))
    return _date(year, month, day)


def _date(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise NoDate("no such date") from None


def _clock(text: str) -> tuple[time, str] | None:
    """(time of day, offset) of `07:15`, `7:15 PM`, `06h00`, `18:30:00+02:00`; None when the text is no time."""
    match = CLOCK.match(text.strip())
    if not match:
        return None
    hour, minute, second = int(match[1]), int(match[2] or 0), int(match[3] or 0)
    if match[4]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if match[4].lower() == "p" else 0)
    elif match[2] is None:
        return None  # a bare number is no time of day
    if hour > 23 or minute > 59 or second > 59:
        return None
    zone = match[5] or ""
    if zone and zone != "Z" and ":" not in zone:
        zone = zone[:3] + ":" + zone[3:]
    return time(hour, minute, second), ("+00:00" if zone == "Z" else zone)


def _in_words(text: str, order: str) -> tuple[date | None, time | None, str]:
    """`20 November 2026`, `Fri 20 Nov 2026 7:15`: dateutil, which needs a year and a month to call it a date."""
    if not re.search(r"[A-Za-z]{3}", text) or not re.search(r"\d{4}", text):
        raise NoDate("no date")
    try:
        moment = dateutil_parser.parse(text, dayfirst=order == DAY_FIRST)
    except (ValueError, OverflowError):
        raise NoDate("no date") from None
    return moment.date(), moment.time(), _offset(moment)


def _offset(moment: datetime) -> str:
    """The moment's offset as ISO 8601 writes it, or nothing for a local time."""
    offset = moment.strftime("%z")
    return f"{offset[:3]}:{offset[3:5]}" if offset else ""
