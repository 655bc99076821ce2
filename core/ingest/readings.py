"""Cells as people write them, read into what the import format says (ingest.md), for the columns of a mapped file:
`M` and `vrou` are genders, `34` and a birth date are age groups, `ja` and `Yes` are booleans, `Mon-Fri` are days,
`06h00` is a time, `WhatsApp` is a channel. Spellings are English, Afrikaans, isiZulu, isiXhosa and Sesotho, as the
station's listeners write them.

A cell that cannot be read is passed on as written, so that the importer's own check decides and says why (a warning
for an optional field, a bad row for a required one), with the same reasons as an import without a mapping.
"""
from __future__ import annotations

import re
from datetime import date, datetime

from core.clock import utcnow
from core.ingest.dates import MONTH_FIRST, NoDate, clock_text, moment_text
from core.ingest.files import cell_text
from core.ingest.values import Unread
from core.listeners.fields import AGE_GROUPS
from core.stations.channels import ChannelNames


def _spellings(**groups: str) -> dict[str, str]:
    """{spelling: value} from value=`spelling|spelling|...`."""
    return {spelling: value for value, spellings in groups.items() for spelling in spellings.split("|")}


GENDER = _spellings(
    male="m|male|man|men|boy|mr|mnr|manlik|owesilisa|indoda|umlisa|monna|isilisa",
    female="f|female|woman|women|girl|mrs|ms|miss|mev|mej|vrou|vroulik|owesifazane|umfazi|mosadi|isifazane",
    non_binary="non binary|non-binary|nonbinary|nb|enby|gender diverse|genderqueer",
    undisclosed="undisclosed|prefer not to say|rather not say|not disclosed|would rather not say|declined")
FLAG = {**dict.fromkeys(("yes", "y", "true", "t", "1", "ja", "j", "x", "yebo", "ewe", "e", "ee", "opted in", "opt in",
                         "subscribed", "on"), "true"),
        **dict.fromkeys(("no", "n", "false", "f", "0", "nee", "cha", "hayi", "tjhe", "opted out", "opt out",
                         "unsubscribed", "off"), "false")}
WEEKDAYS = _spellings(**{
    "1": "mon|monday|ma|maandag|msombuluko|mvulo|mantaha",
    "2": "tue|tues|tuesday|di|dinsdag|lwesibili|lwesibini|labobedi",
    "3": "wed|wednesday|wo|woensdag|lwesithathu|laboraro",
    "4": "thu|thur|thurs|thursday|do|donderdag|lwesine|labone",
    "5": "fri|friday|vr|vrydag|lwesihlanu|labohlano",
    "6": "sat|saturday|sa|saterdag|mgqibelo|moqebelo",
    "7": "sun|sunday|so|sondag|sonto|cawe|sontaha"})
DAY_SETS = {"weekdays": [1, 2, 3, 4, 5], "weekday": [1, 2, 3, 4, 5], "weekends": [6, 7], "weekend": [6, 7],
            "daily": list(range(1, 8)), "every day": list(range(1, 8)), "everyday": list(range(1, 8)),
            "weeksdae": [1, 2, 3, 4, 5], "naweek": [6, 7], "daagliks": list(range(1, 8))}
AGE_RANGE = re.compile(r"^(\d{2})\s*(?:-|–|—|to|tot|until)\s*(\d{2})(?:\s*(?:years|yrs|jaar))?$")
AGE_TOP = re.compile(r"^(?:(\d{2})\s*(?:\+|and over|and older|plus|en ouer)|over\s*(\d{2})|(\d{2})\s*\+\s*years?)$")
WHOLE = re.compile(r"^\d{1,3}(?:\.0+)?$")
BIRTH_DATE_LIKE = re.compile(r"\d{1,4}\s*[/.\-]\s*\d{1,2}\s*[/.\-]\s*\d{1,4}|\b(?:19|20)\d{2}\b")
DAY_SPLIT = re.compile(r"\s*(?:\||,|;|/|&|\+|\band\b|\ben\b)\s*|\s+")
DAY_RANGE = re.compile(r"^(\w+)\s*(?:-|–|to|tot)\s*(\w+)$")


def text(value) -> str:
    """A cell as text (an Excel number without `.0`, a date in ISO 8601)."""
    return value if isinstance(value, str) else cell_text(value)


def _key(value) -> str:
    """Lower case without dots and surrounding spaces: `Mr.` and `mr` are one spelling."""
    return text(value).strip().lower().replace(".", "").strip()


def gender(value) -> str:
    """male, female, non_binary or undisclosed for any of their spellings; else as written."""
    return GENDER.get(_key(value), text(value))


def flag(value) -> str | bool:
    """true or false for yes/no in the station's languages, 1/0 and x; else as written."""
    if isinstance(value, bool):
        return value
    return FLAG.get(_key(value), text(value))


def age_group(value, order: str) -> str:
    """The age group of an age (`34`), a range written another way (`25 - 34`, `65 and over`) or a birth date; an age
    under 18 or anything else as written."""
    written = text(value).strip()
    key = written.lower()
    if WHOLE.match(key):
        return _group_of(int(float(key)), written)
    match = AGE_RANGE.match(key)
    if match and f"{match[1]}-{match[2]}" in AGE_GROUPS:
        return f"{match[1]}-{match[2]}"
    match = AGE_TOP.match(key)
    if match and next(part for part in match.groups() if part) == "65":
        return "65+"
    try:
        born = date.fromisoformat(moment_text([value], order)[:10])
    except (NoDate, ValueError):
        return Unread(written, _UNREAD_BIRTH_DATE + _order_example(order)) if _dated(value, key) else written
    today = utcnow().date()
    return _group_of(today.year - born.year - ((today.month, today.day) < (born.month, born.day)), written)


_UNDER_18 = "age_group: an age or a birth date under 18: expected 18 or older (the youngest group is 18-24)"
_UNREAD_BIRTH_DATE = (f"age_group: the birth date cannot be read: expected a date, an age or an age group "
                      f"({', '.join(AGE_GROUPS)}); dates are read ")


def _dated(value, key: str) -> bool:
    """True for a cell written as a date, readable or not (`31/02/1990`, `1990-13-01`, an Excel date)."""
    return isinstance(value, (date, datetime)) or bool(BIRTH_DATE_LIKE.search(key))


def _order_example(order: str) -> str:
    """How the file's dates are read, with an example."""
    return "month first: 11/20/1990" if order == MONTH_FIRST else "day first: 20/11/1990"


def _group_of(age: int, written: str) -> str:
    """The group an age falls in; under 18, as written with what was expected."""
    for group in AGE_GROUPS:
        low, _, high = group.partition("-")
        if age >= int(low.rstrip("+")) and (not high or age <= int(high)):
            return group
    return Unread(written, _UNDER_18)


def days(value) -> list[str] | str:
    """ISO weekdays of `1|2|3`, `Mon-Fri`, `Monday, Wednesday`, `weekdays`, `Sat & Sun`; a cell with a part that is
    no weekday is split as written, so that the importer says which."""
    if isinstance(value, list):
        return value
    written = text(value).strip()
    key = written.lower()
    if key in DAY_SETS:
        return [str(day) for day in DAY_SETS[key]]
    match = DAY_RANGE.match(key)
    if match and _weekday(match[1]) and _weekday(match[2]):
        first, last = int(_weekday(match[1])), int(_weekday(match[2]))
        return [str(day) for day in (range(first, last + 1) if first <= last else [*range(first, 8),
                                                                                     *range(1, last + 1)])]
    parts = [part for part in DAY_SPLIT.split(key) if part]
    found = [_weekday(part) for part in parts]
    return found if parts and all(found) else [part for part in re.split(r"\s*\|\s*", written) if part]


def _weekday(part: str) -> str | None:
    """"1".."7" of a weekday's number or name."""
    return part if part in WEEKDAYS.values() else WEEKDAYS.get(part.rstrip("."))


def clock(value) -> str:
    """HH:MM of a time as written (`6:00`, `06h00`, `6pm`, an Excel time); else as written."""
    try:
        return clock_text(value)
    except NoDate:
        return text(value)


def channel(value, names: ChannelNames) -> str | int:
    """A channel_type: its number, or any name of one of the station's channels (`WhatsApp`, `sms`, `Whats App`:
    core.stations.channels); else as written, so that the importer names it with the closest known name."""
    if type(value) is int:
        return value
    written = text(value).strip()
    number = names.number(written)
    return written if number is None else str(number)


def show(value, titles: dict[str, int]) -> str | int:
    """A timeslot_id: its number, or the title of one of the station's shows (`The Breakfast Club`); else as
    written."""
    if type(value) is int:
        return value
    written = text(value).strip()
    return str(titles.get(written.lower(), written))


def campaign(value) -> str:
    """A campaign type as the format writes it: `Song request` is `song_request`."""
    written = value if type(value) is str else text(value)
    return re.sub(r"[\s\-]+", "_", written.lower()) if (" " in written or "-" in written) else written


def tags_of(value, column: str) -> list[str]:
    """The tags a cell of a column kept as tags gives: the column's name where the cell says yes (a `VIP` column of
    yes and no), nothing where it says no, else the cell's own tags (split on `|` and `,`)."""
    if isinstance(value, list):
        return [tag.strip() for tag in map(text, value) if tag.strip()]
    if isinstance(value, bool):
        return [column] if value else []
    said = FLAG.get(_key(value)) if isinstance(value, str) else None
    if said is not None:
        return [column] if said == "true" else []
    return [part.strip() for part in re.split(r"[|,]", text(value)) if part.strip()]
