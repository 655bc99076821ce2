"""The fields of each kind of import file, defined once: what a mapping may point a column at, what a template's header
and example row hold, and which fields a file needs (ingest.md). The row validators (core.ingest.rows) read these same
names; profiles take theirs from core.listeners.fields.

`mobile_number` of an interactions file is not stored: a file without an originator column takes the listener's mobile
number as originator (E.164 digits without `+`), so it may be mapped there as in a profiles file.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.listeners.fields import AGE_GROUPS, DECLARED, GENDERS


@dataclass(frozen=True)
class Column:
    """One field of a kind of file: its name, whether a row needs it, an example value as a file writes it, and what
    its values look like (the mapping's value detectors and normalisers work by this `value`)."""

    name: str
    required: bool
    example: str
    value: str  # integer | text | phone | email | gender | age | flag | tags | days | clock | timestamp | channel
    # | campaign | originator | id_number | language
    note: str = ""


COMPANY = Column("company_id", True, "7", "integer", "a file uploaded to a station may leave it out")
ORIGINATOR = Column("originator", True, "27821234567", "originator",
                    "the listener's id at the station; without it, the mobile number")
MOBILE = Column("mobile_number", False, "082 123 4567", "phone", "read as people write it, stored as +27821234567")

_PROFILE_VALUES = {"email": "email", "mobile_number": "phone", "gender": "gender", "age_group": "age",
                   "tags": "tags", "permission": "flag", "opt_in": "flag", "id_number": "id_number",
                   "language": "language"}
_PROFILE_EXAMPLES = {"name": "Thandi Mokoena", "email": "thandi@example.com", "mobile_number": "082 123 4567",
                     "id_number": "9001015009086", "gender": "female", "age_group": "25-34", "location": "Soweto",
                     "language": "isiZulu", "ethnicity": "Black African", "income_bracket": "R10k-R20k",
                     "education": "Matric", "employment_status": "Employed", "tags": "gqom|competitions",
                     "permission": "true", "opt_in": "true"}
_PROFILE_NOTES = {"gender": ", ".join(GENDERS) + " (m, f, vrou... are read too)",
                  "age_group": ", ".join(AGE_GROUPS) + " (an age or a birth date is read into its group)",
                  "tags": "separated by |", "permission": "true or false (yes, no, ja, nee... are read too)",
                  "opt_in": "true or false (yes, no, ja, nee... are read too)"}

KIND_COLUMNS: dict[str, tuple[Column, ...]] = {
    "channels": (COMPANY, Column("channel_type", True, "2", "integer", "an integer >= 1"),
                 Column("name", True, "WhatsApp", "text")),
    "shows": (COMPANY, Column("timeslot_id", True, "12", "integer", "an integer >= 0"),
              Column("title", True, "The Breakfast Club", "text"),
              Column("days", True, "1|2|3|4|5", "days", "weekdays 1=Monday..7=Sunday separated by |, or Mon-Fri"),
              Column("start", True, "06:00", "clock", "HH:MM local time"),
              Column("end", True, "09:00", "clock", "HH:MM local time, exclusive; 24:00 allowed")),
    "profiles": (COMPANY, ORIGINATOR,
                 *(Column(f.name, False, _PROFILE_EXAMPLES[f.name], _PROFILE_VALUES.get(f.name, "text"),
                          _PROFILE_NOTES.get(f.name, "")) for f in DECLARED)),
    "interactions": (COMPANY, ORIGINATOR, MOBILE,
                     Column("timestamp", True, "2026-11-20 07:15", "timestamp",
                            "date and time as written; without an offset, the station's local time"),
                     Column("channel_type", True, "2", "channel", "an integer, or the channel's name (WhatsApp)"),
                     Column("campaign_type", True, "song_request", "campaign",
                            "competition, song_request, shoutout, poll, feedback, other..."),
                     Column("timeslot_id", False, "12", "integer", "when absent, the show airing at that time"),
                     Column("message", False, "Please play some gqom!", "text"),
                     Column("interaction_id", False, "sms-100234", "text", "makes a re-import idempotent")),
}
"""Every kind's fields in the order a template writes them."""

STORED = {kind: tuple(c.name for c in columns if not (kind == "interactions" and c is MOBILE))
          for kind, columns in KIND_COLUMNS.items()}
"""The fields the importer reads and stores, per kind (a template's header, with company_id left to the station)."""
JOINED = frozenset({"name", "timestamp", "message", "tags"})
"""Fields that several columns may fill together: a first name and a surname, a date and a time, tag columns. Any
other field mapped from several columns takes the first cell that is not empty."""


def columns_of(kind: str) -> dict[str, Column]:
    """The kind's fields by name."""
    return {column.name: column for column in KIND_COLUMNS[kind]}


def required_missing(kind: str, fields: set[str]) -> list[str]:
    """Required fields no column is mapped to; an originator may come from the mobile number, and company_id from
    the station the file is uploaded to."""
    missing = []
    for column in KIND_COLUMNS[kind]:
        if not column.required or column.name in fields or column.name == "company_id":
            continue
        if column.name == "originator" and "mobile_number" in fields:
            continue
        missing.append("originator or mobile_number" if column.name == "originator" else column.name)
    return missing


ALL_FIELDS = frozenset(column.name for columns in KIND_COLUMNS.values() for column in columns)
TAG_FIELD = "tags:"
"""A yes/no column mapped to `tags:<tag>` gives the rows that say yes that tag (one the station has, say `gospel`),
rather than the column's header ("Loves Gospel")."""


def named_tag(name: str | None) -> str | None:
    """The tag a `tags:<tag>` field gives; None for any other field."""
    return name[len(TAG_FIELD):].strip() or None if name and name.startswith(TAG_FIELD) else None


def field_of(name: str | None) -> str | None:
    """The field a mapping's choice fills: `tags:<tag>` fills tags."""
    return "tags" if named_tag(name) else name


def named_field(reason: str) -> str | None:
    """The field a bad row's reason is about: the one it carries (core.ingest.mapped.BadRow), else the field its
    first word names (`missing timestamp`, `channel_type must be an integer`), else None (a line that is no JSON)."""
    carried = getattr(reason, "field", None)
    if carried:
        return carried
    words = reason.split()
    first = words[1] if words[:1] == ["missing"] and len(words) > 1 else (words[0] if words else "")
    return first if first in ALL_FIELDS else None
