"""The mapping the service proposes for a file: each column's field, from its header (core.ingest.headers) and from
its first values (a column of ZA mobile numbers, e-mail addresses, genders, dates, times, weekdays, channel names).

A header that names a field plainly wins unless the values say plainly otherwise (a `Phone` column of e-mail
addresses); a vague or unknown header follows its values. Each field goes to one column, the most certain, except
those several columns may fill together (core.ingest.columns.JOINED); in a profiles file a column of yes and no that
names no field is kept as tags (its header becomes the tag of the rows that say yes).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.ingest import readings
from core.ingest.columns import JOINED, TAG_FIELD, columns_of
from core.ingest.dates import NUMERIC, NoDate, clock_text, moment_text
from core.ingest.headers import header_match, normalised
from core.ingest.rows import EMAIL
from core.listeners.identifiers import e164
from core.stations.channels import ChannelNames

SAMPLED = 200  # values per column that the detectors read
SHARE = 0.6  # the share of a column's values a detector must recognise to say anything
LANGUAGES = frozenset({"english", "afrikaans", "isizulu", "zulu", "isixhosa", "xhosa", "sesotho", "sotho",
                       "setswana", "tswana", "sepedi", "pedi", "tshivenda", "venda", "xitsonga", "tsonga", "siswati",
                       "swati", "isindebele", "ndebele", "eng", "afr"})
CAMPAIGNS = frozenset({"competition", "song_request", "shoutout", "shout_out", "poll", "feedback", "other",
                       "request", "dedication", "vote", "quiz", "entry", "giveaway", "complaint", "question"})
SA_ID = re.compile(r"^\d{13}$")
VALUE_FIELDS = {"phone": "mobile_number", "email": "email", "gender": "gender", "age": "age_group",
                "sa_id": "id_number", "language": "language", "moment": "timestamp", "clock": "timestamp",
                "channel": "channel_type", "campaign": "campaign_type", "days": "days", "long_text": "message"}
"""Which field each kind of value suggests, where the file's kind has that field."""


@dataclass(frozen=True)
class Proposed:
    """One column's proposal: its field (None: skipped), how sure (0..1) and why (name, spelling, values)."""

    field: str | None
    score: float
    why: str


def propose(kind: str, columns: list[str], sample: list[dict], country: str, channels: ChannelNames,
            order: str, tags: list[str] = ()) -> dict[str, Proposed]:
    """{column: Proposed} for every column of the file, from its header and its first values; a yes/no column whose
    header names one of the station's `tags` is proposed as that tag."""
    known = columns_of(kind)
    candidates = {}
    for column in columns:
        values = [row[column] for row in sample if column in row][:SAMPLED]
        candidates[column] = _candidate(kind, column, values, known, country, channels, order)
        if candidates[column].field == "tags" and candidates[column].why == "values":
            tag = existing_tag(column, tags)
            candidates[column] = Proposed(TAG_FIELD + tag, 0.45, "tag") if tag else candidates[column]
    return _assigned(kind, columns, candidates)


def existing_tag(header: str, tags: list[str]) -> str | None:
    """The station's tag a yes/no column's header names (`Loves Gospel`, `Gospel fan`: gospel; `Hip hop`: hiphop), the
    longest when several do; None when none does."""
    words = normalised(header).split()
    spans = {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
    found = [tag for tag in tags if normalised(tag).replace(" ", "") in spans]
    return max(found, key=len, default=None)


def _candidate(kind: str, column: str, values: list, known: dict, country: str, channels: ChannelNames,
               order: str) -> Proposed:
    """The best field for one column, before fields are shared out among columns."""
    named, score, how = header_match(kind, column)
    seen, share = detect(values, country, channels, order)
    by_values = VALUE_FIELDS.get(seen) if seen else None
    if kind == "shows" and seen == "clock":
        by_values = "start"
    if by_values not in known:
        by_values = None
    if named == "originator" and normalised(column) != "originator" and seen == "phone" and "mobile_number" in known:
        return Proposed("mobile_number", score, "values")  # a sender column of numbers: read them as numbers
    if named and (score >= 0.95 or not by_values or by_values == named or share < 0.8):
        if by_values and by_values != named and share >= 0.9 and _fails(named, values, country, channels, order):
            return Proposed(by_values, 0.6 * share, "values")
        return Proposed(named, min(1.0, score + (0.05 if by_values == named else 0)), how)
    if by_values:
        return Proposed(by_values, 0.6 * share, "values")
    if kind == "profiles" and seen == "flag":
        return Proposed("tags", 0.4, "values")
    return Proposed(None, 0.0, "")


def _fails(named: str, values: list, country: str, channels: ChannelNames, order: str) -> bool:
    """True when the header's field has a detector and next to none of the values pass it."""
    checks = [value for value, name in VALUE_FIELDS.items() if name == named]
    return bool(checks) and all(_share(check, values, country, channels, order) < 0.1 for check in checks)


def _assigned(kind: str, columns: list[str], candidates: dict[str, Proposed]) -> dict[str, Proposed]:
    """Each field to its most certain column (several for JOINED ones); shows' second clock column is the end."""
    taken: set[str] = set()
    result = {}
    for column in sorted(columns, key=lambda c: -candidates[c].score):
        proposed = candidates[column]
        name = proposed.field
        if name == "start" and "start" in taken and "end" not in taken and proposed.why == "values":
            name = "end"
        if name and (name not in taken or name in JOINED):
            taken.add(name)
            result[column] = Proposed(name, proposed.score, proposed.why)
        else:
            result[column] = Proposed(None, 0.0, "")
    return {column: result[column] for column in columns}


def detect(values: list, country: str, channels: ChannelNames, order: str) -> tuple[str | None, float]:
    """(what most of the values are, their share): phone, email, gender, age, sa_id, language, moment, clock,
    channel, campaign, days, flag or long_text; (None, 0) when nothing reaches SHARE."""
    values = [value for value in values if readings.text(value).strip()]
    if not values:
        return None, 0.0
    best, best_share = None, 0.0
    for kind in DETECTORS:
        share = _share(kind, values, country, channels, order)
        if share > best_share + 1e-9:
            best, best_share = kind, share
    return (best, best_share) if best_share >= SHARE else (None, 0.0)


def _share(kind: str, values: list, country: str, channels: ChannelNames, order: str) -> float:
    """The share of the values that one detector recognises."""
    if not values:
        return 0.0
    check = DETECTORS[kind]
    return sum(1 for value in values if check(value, country, channels, order)) / len(values)


def _phone(value, country, _channels, _order) -> bool:
    written = readings.text(value)
    return 9 <= sum(ch.isdigit() for ch in written) <= 15 and e164(written, country) is not None


def _email(value, *_) -> bool:
    return isinstance(value, str) and EMAIL.match(value.strip()) is not None


def _gender(value, *_) -> bool:
    return isinstance(value, str) and value.strip().lower().replace(".", "") in readings.GENDER


def _age(value, _country, _channels, order) -> bool:
    """An age from 18 to 100, an age group written any way, or a birth date."""
    written = readings.text(value).strip()
    if written.isdigit():
        return 18 <= int(written) <= 100
    return readings.age_group(value, order) != written or written in readings.AGE_GROUPS


def _sa_id(value, *_) -> bool:
    """A 13-digit South African ID number with its Luhn check digit."""
    digits = readings.text(value).strip()
    if not SA_ID.match(digits):
        return False
    total = sum(int(d) if i % 2 == 0 else sum(divmod(int(d) * 2, 10)) for i, d in enumerate(reversed(digits)))
    return total % 10 == 0


def _language(value, *_) -> bool:
    return readings.text(value).strip().lower() in LANGUAGES


def _moment(value, _country, _channels, order) -> bool:
    """A date (with or without a time), written as one or typed by Excel; plain numbers are not counted."""
    if isinstance(value, (int, float)):
        return False
    written = readings.text(value).strip()
    if not (NUMERIC.match(written) or re.search(r"\d{4}", written)):
        return False
    try:
        moment_text([value], order)
    except NoDate:
        return False
    return True


def _clock(value, *_) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return False
    try:
        clock_text(value)
    except NoDate:
        return False
    return not _moment(value, None, None, "day_first")


def _channel(value, _country, channels, _order) -> bool:
    """A channel's name (never a bare number: a column of numbers says nothing of channels)."""
    written = readings.text(value).strip()
    return not written.isdigit() and channels.number(written) is not None


def _campaign(value, *_) -> bool:
    return readings.campaign(value) in CAMPAIGNS


def _days(value, *_) -> bool:
    found = readings.days(value)
    return isinstance(found, list) and bool(found) and all(str(day) in "1234567" for day in found) and \
        not readings.text(value).strip().isdigit()


def _flag(value, *_) -> bool:
    return isinstance(value, bool) or readings.FLAG.get(readings.text(value).strip().lower()) is not None


def _long_text(value, *_) -> bool:
    written = readings.text(value)
    return len(written) >= 15 and " " in written.strip()


DETECTORS = {"email": _email, "phone": _phone, "sa_id": _sa_id, "gender": _gender, "moment": _moment,
             "clock": _clock, "days": _days, "age": _age, "language": _language, "channel": _channel,
             "campaign": _campaign, "flag": _flag, "long_text": _long_text}
"""In order of precedence: on a tie the earlier one wins."""


def mapping_of(proposal: dict[str, Proposed]) -> dict[str, str | None]:
    """{column: field or None} of a proposal."""
    return {column: proposed.field for column, proposed in proposal.items()}


def values_of(rows: Iterable[tuple[int, dict | str]]) -> list[dict]:
    """The cells of the rows that could be read (the sample the detectors look at)."""
    return [row for _, row in rows if isinstance(row, dict)]
