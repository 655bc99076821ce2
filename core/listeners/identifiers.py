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


def e164(value: str, country: str) -> str | None:
    """The number in E.164, a national one read as of the ISO `country`; None when it is no valid number."""
    try:
        number = phonenumbers.parse(value, country)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
