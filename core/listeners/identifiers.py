"""The written forms of a listener's identifiers: the originator's allowed form, and phone numbers as E.164.

Defined once here, so that every importer accepts the same originators and every number reads the same way.
"""
from __future__ import annotations

import re

import phonenumbers

ORIGINATOR = re.compile(r"(?!\.\.?\Z)[A-Za-z0-9+\-_.:@]{1,64}")
"""Letters, digits and `+ - _ . : @`, 1 to 64 of them: every such value fits one URL path segment as it is, so the
API and the pages can reach it. `.` and `..` alone are refused, because clients resolve them as dot segments."""
ORIGINATOR_FORM = "1 to 64 letters, digits or + - _ . : @"


def is_originator(value: str) -> bool:
    """True when the value is in the allowed form (fullmatch: a trailing newline is not allowed either)."""
    return ORIGINATOR.fullmatch(value) is not None


TRUNK_ZERO = re.compile(r"\(\s*0\s*\)")
"""`(0)` after a country code (`+27 (0)82 ...`): the trunk prefix dialled at home only, written for readers."""
INTERNATIONAL_00 = re.compile(r"^\s*00")
"""A leading `00`, the international prefix of most countries, even where the company's country dials another."""


def e164(value: str, country: str) -> str | None:
    """The number in E.164, a national one read as of the ISO `country`; None when it is no valid number."""
    for written in _readings(value):
        number = _valid(written, country)
        if number is not None:
            return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return None


def _readings(value: str) -> list[str]:
    """The value as written, then pre-cleaned of `(0)` and a leading `00`.

    The phone library reads most written forms itself (spaces, dashes, dots, brackets, the country code without `+`,
    and `(0)` for countries whose trunk prefix is 0); the cleaned reading comes second because for some countries
    (Italy) the 0 is part of the number and the library's own reading is the right one."""
    cleaned = INTERNATIONAL_00.sub("+", TRUNK_ZERO.sub(" ", value))
    return [value] if cleaned == value else [value, cleaned]


def _valid(value: str, country: str):
    """The parsed number when it is a valid one, else None."""
    try:
        number = phonenumbers.parse(value, country)
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_valid_number(number) else None
