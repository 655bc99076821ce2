"""Validating import rows (ingest.md); nothing here reads files or writes to the database.

A validator takes one row dict and returns its normalised values, or raises `RowError` with the reason the operator
sees next to the line number. Unknown fields are ignored, so exports with extra columns import as they are.

Errors are per field (ingest.md): a required value that cannot be read makes the row a bad row; an optional one is read
through `FieldWarnings.optional`, which leaves the field out and notes a warning, so the row keeps every readable field.
"""
from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from core.ingest.values import (
    INTEGER,
    FieldWarnings,
    RowError,
    UnknownName,
    as_bool,
    as_int,
    as_list,
    as_text,
    unicode_text,
    within,
)
from core.listeners.events import accepted_millis
from core.listeners.fields import DECLARED, FIELD
from core.listeners.identifiers import ORIGINATOR_FORM, e164, is_originator
from core.personal.keyed import interaction_key
from core.stations import defaults
from core.stations.channels import ChannelNames, key_of

EPOCH, MILLISECOND = datetime(1970, 1, 1, tzinfo=UTC), timedelta(milliseconds=1)
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
CLOCK_TIME = re.compile(r"^(\d{1,2}):(\d{2})$", re.ASCII)
NAME_TEXT, LABEL_TEXT, EMAIL_TEXT, MESSAGE_TEXT = 200, 100, 254, 4096
TEXT_LIMITS = {"name": NAME_TEXT, "title": NAME_TEXT, "id_number": NAME_TEXT, "interaction_id": NAME_TEXT,
               "email": EMAIL_TEXT, "message": MESSAGE_TEXT}
"""The most characters a text field of a row may hold, by field, for files and live events alike: a name or a
show's title NAME_TEXT; an address EMAIL_TEXT (RFC 5321's longest); a message MESSAGE_TEXT (WhatsApp's longest);
any other text (a place, a language, a tag, a campaign type, a phone number as written) is a label, LABEL_TEXT.
Past it, a required field makes a bad row and an optional one a warning."""


def text_limit(name: str) -> int:
    """The most characters the text field `name` may hold (TEXT_LIMITS)."""
    return TEXT_LIMITS.get(name, LABEL_TEXT)


def text_of(row: dict, name: str, required: bool = True) -> str | None:
    """A text field read by core.ingest.values.as_text within its limit."""
    return as_text(row, name, required, max_length=text_limit(name))


def company_of(row: dict) -> int:
    """The row's company_id: every row of every kind carries one."""
    return as_int(row, "company_id", minimum=1)


def originator_of(row: dict) -> str:
    """The row's originator, stripped, in the allowed form; the reason never quotes it, as it is personal data."""
    value = row.get("originator")
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RowError("missing originator")
    if not isinstance(value, str) or not is_originator(value.strip()):
        raise RowError(f"originator must be a string of {ORIGINATOR_FORM} "
                       "(the value is personal data and is not repeated here)")
    return value.strip()


def channel_row(row: dict) -> tuple[int, int, str]:
    """(company_id, channel_type, name) of a channels row."""
    return company_of(row), as_int(row, "channel_type", minimum=1), text_of(row, "name")


def show_row(row: dict) -> tuple[int, int, dict]:
    """(company_id, timeslot_id, fields) of a shows row; days are sorted and de-duplicated."""
    company_id, timeslot_id = company_of(row), as_int(row, "timeslot_id", minimum=0)
    title = text_of(row, "title")
    days = as_list(row, "days")
    if not days:
        raise RowError("missing days (a non-empty list of weekdays, 1=Monday..7=Sunday)")
    try:
        days = sorted({as_int({"day": day}, "day", minimum=1) for day in days})
    except RowError:
        raise RowError("days must be weekdays 1..7", got=row.get("days")) from None
    if days[-1] > 7:
        raise RowError("days must be weekdays 1..7", got=row.get("days"))
    start, end = clock_time(row, "start", 1439), clock_time(row, "end", 1440)
    return company_id, timeslot_id, {"title": title, "days": days, "start": start, "end": end}


def clock_time(row: dict, name: str, latest: int) -> str:
    """A local "HH:MM" time, normalised to two-digit hours; `latest` is in minutes after midnight (24:00 = 1440)."""
    text = text_of(row, name)
    match = CLOCK_TIME.match(text)
    if not match or int(match[2]) > 59 or int(match[1]) * 60 + int(match[2]) > latest:
        allowed = "00:00..24:00" if latest == 1440 else "00:00..23:59"
        raise RowError(f"{name} must be a time HH:MM in {allowed}", got=text)
    return f"{int(match[1]):02d}:{match[2]}"


def profile_row(row: dict, country: str, warnings: FieldWarnings) -> tuple[int, str, dict]:
    """(company_id, originator, fields the row carries); absent, empty and unreadable fields are left out, never
    cleared, and every declared field is optional."""
    company_id, originator = company_of(row), originator_of(row)
    fields = {field.name: warnings.optional(row, field.name, _declared, country=country) for field in DECLARED}
    return company_id, originator, {name: value for name, value in fields.items() if value is not None}


def _declared(row: dict, name: str, country: str):
    """One declared field of a profiles row, read by its kind."""
    field = FIELD[name]
    if field.kind == "email":
        return _email(row)
    if field.kind == "phone":
        return _mobile(row, name, country)
    if field.kind == "choice":
        return _choice(row, name, field.allowed)
    if field.kind == "list":
        return _tags(row)
    if field.kind == "flag":
        return as_bool(row, name)
    return text_of(row, name, required=False)


def _choice(row: dict, name: str, allowed: tuple) -> str | None:
    """One of a fixed set of values, matched case-insensitively and stored as the set spells it."""
    value = text_of(row, name, required=False)
    if value is None:
        return None
    if getattr(row[name], "rule", None):  # a mapped cell that said what it was meant to be (a birth date)
        raise RowError(row[name].rule, got=value)
    spelling = {choice.lower(): choice for choice in allowed}
    if value.lower() not in spelling:
        raise RowError(f"{name} must be one of {', '.join(allowed)}", got=value)
    return spelling[value.lower()]


def _email(row: dict) -> str | None:
    """A syntactically valid address (one @, a dotted domain, no spaces)."""
    value = text_of(row, "email", required=False)
    if value is not None and not EMAIL.match(value):
        raise RowError("email is not a valid address (one @, a dotted domain, no spaces)")
    return value


def _mobile(row: dict, name: str, country: str) -> str | None:
    """E.164 of a number as people write it (core.listeners.identifiers.e164), a national one read as of the
    company's country; a JSON number is read as its digits, as exports often write numbers."""
    value = row.get(name)
    value = str(value) if type(value) is int else text_of(row, name, required=False)
    if value is None:
        return None
    number = e164(value, country)
    if number is None:
        raise RowError(f"{name} is not a valid phone number (national numbers are read as of {country})")
    return number


def _tags(row: dict) -> list[str] | None:
    """Tags stripped and de-duplicated in order; blank ones dropped."""
    tags = as_list(row, "tags")
    if tags is None:
        return None
    if not all(isinstance(tag, str) for tag in tags):
        raise RowError("tags must be a list of strings", got=tags)
    limit = text_limit("tags")
    return list(dict.fromkeys(within(unicode_text(tag.strip(), "tags"), "a tag", limit)
                              for tag in tags if tag.strip())) or None


def _interaction_id(row: dict, name: str) -> str | None:
    """The idempotency key a client gave: a string, or an integer read as its digits."""
    value = row.get(name)
    if value is None:
        return None
    if type(value) is not int and not isinstance(value, str):
        raise RowError(f"{name} must be a string", got=value)
    return within(unicode_text(str(value).strip(), name), name, text_limit(name)) or None


def channel_of(row: dict, channels: ChannelNames) -> int:
    """A row's channel_type: its number, or any name of one of the station's channels (core.stations.channels); an
    unknown name is a bad row that the report lists once, with the closest known name."""
    value = row.get("channel_type")
    if not isinstance(value, str) or not value.strip() or INTEGER.match(value):
        return as_int(row, "channel_type", minimum=1)
    number = channels.number(value)
    if number is not None:
        return number
    raise UnknownName("channel_type", value, f"a channel number or one of the station's channels ({channels.listed()})",
                      channels.closest(value), key_of(value))


def _given(row: dict, name: str, warnings: FieldWarnings, read, **options):
    """An optional field of an interaction read through `warnings.optional`, and None without a call when the row
    leaves it out (each reader here answers None for an absent value): most rows leave out one or two."""
    return None if row.get(name) is None else warnings.optional(row, name, read, **options)


class InteractionRow(NamedTuple):
    """One validated interaction: who, when (epoch milliseconds), how, in which show, and its idempotency key."""

    originator: str
    millis: int
    channel: int
    campaign: str
    timeslot: int | None
    message: str | None
    key: str


class StationTime:
    """A station's local time: its zone, the show schedule that names the timeslot of a local minute, and the range
    of interaction times accepted as of the moment of import (`now`, default: the clock; core.listeners.events), and
    its channels by name (default: the default names)."""

    def __init__(self, zone, slots: list, now: datetime | None = None, channels: ChannelNames | None = None):
        self.zone, self.slots = zone, slots
        self.channels = channels or ChannelNames(defaults.CHANNELS)
        self.earliest, self.latest = accepted_millis(now)

    def interaction(self, row: dict, company_id: int, warnings: FieldWarnings) -> InteractionRow:
        """One interactions row, validated, with its show and its idempotency key; timeslot_id, message and
        interaction_id are optional, so an unreadable one is a warning and the show is then looked up by time."""
        originator = originator_of(row)
        millis, local = self._when(row.get("timestamp"))
        channel = channel_of(row, self.channels)
        campaign = text_of(row, "campaign_type").lower()
        given = _given(row, "timeslot_id", warnings, as_int, minimum=0, required=False)
        slot = given if given is not None else self.slots[(local.isoweekday() - 1) * 1440 + local.hour * 60
                                                          + local.minute]
        message = _given(row, "message", warnings, text_of, required=False)
        iid = _given(row, "interaction_id", warnings, _interaction_id)
        if iid:
            plain = "id:" + iid
        else:
            canonical = json.dumps([company_id, originator, millis, channel, campaign, given, message],
                                   separators=(",", ":"), ensure_ascii=False)
            plain = ("row:" + hashlib.sha1(canonical.encode()).hexdigest())[:32]
        key = interaction_key(company_id, plain)  # a CRM's ids often hold the number: never stored plain
        return InteractionRow(originator, millis, channel, campaign, slot, message, key)

    def _when(self, value) -> tuple[int, datetime]:
        """(epoch milliseconds, local time) of an ISO 8601 timestamp in the accepted range; one without an offset is
        local time. The range is checked before the conversion to local time, which a year-1 date cannot survive."""
        if value is None or value == "":
            raise RowError("missing timestamp")
        if not isinstance(value, str):
            raise RowError("timestamp must be a string", got=value)
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            raise RowError("timestamp is not an ISO 8601 time", got=value) from None
        moment = moment.replace(tzinfo=self.zone) if moment.tzinfo is None else moment
        millis = (moment - EPOCH) // MILLISECOND
        if not self.earliest <= millis <= self.latest:
            raise RowError("timestamp outside the accepted range", got=value)
        return millis, moment.astimezone(self.zone)
