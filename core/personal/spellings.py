"""Every spelling in which free text (a brief, a plan's or an audience's name, a note) may name one listener, and
the text with each of them replaced: what erasure does to a text a station wrote about someone.

A number is found however it is written: E.164 (`+27829990001`), with or without its `+` (`27829990001`), national
(`0829990001`), and any of these spaced, dashed, dotted or bracketed (`082 999 0001`, `+27 (0)82-999-0001`); never
inside a longer run of digits. An e-mail address and an ID number are found whole, whatever their case; a name whole
(its words in order, however spaced), never a word of it alone: "Reach Zanele" names half the station's Zaneles.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import phonenumbers

SEPARATORS = r"[\s\-.()/]*"
MIN_NAME = 4  # a shorter name ("Al") is too likely a word of any text to be replaced as a name
MIN_VALUE = 4  # an e-mail or ID number shorter than this is no spelling of anyone


@dataclass(frozen=True)
class Spellings:
    """The patterns that find one listener in free text."""

    patterns: tuple[re.Pattern, ...]
    literals: tuple[str, ...] = ()  # the common written forms, for a search that takes no pattern (a file's bytes)

    def scrub(self, text: str, replacement: str) -> tuple[str, int]:
        """The text with every spelling of the listener replaced, and how many were."""
        count = 0
        for pattern in self.patterns:
            text, found = pattern.subn(replacement, text)
            count += found
        return text, count

    def names(self, text: str) -> bool:
        """Whether the text names the listener in any spelling."""
        return any(pattern.search(text) for pattern in self.patterns)


def spellings_of(numbers: Iterable[str | None], names: Iterable[str | None] = (),
                 values: Iterable[str | None] = ()) -> Spellings:
    """The spellings of a listener who has these numbers (E.164 or digits), names and other identifying values
    (an e-mail, an ID number, an originator that is not a number)."""
    numbers = [number for number in numbers if number and _digits(number)]
    names = [name.strip() for name in names if name and len(name.strip()) >= MIN_NAME]
    values = [value.strip() for value in values if value and len(value.strip()) >= MIN_VALUE]
    patterns = [_number(number) for number in numbers] + [_name(name) for name in names]
    patterns += [re.compile(rf"(?<![\w.@+-]){re.escape(value)}(?!\.?[\w@-])", re.IGNORECASE) for value in values]
    literals = [form for number in numbers for form in _written(number)] + names + values
    return Spellings(tuple(pattern for pattern in patterns if pattern is not None), tuple(dict.fromkeys(literals)))


def _digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def _written(number: str) -> list[str]:
    """A number's common written forms: E.164 with and without `+`, national, and both as the phone library spaces
    them."""
    digits = _digits(number)
    try:
        parsed = phonenumbers.parse("+" + digits)
    except phonenumbers.NumberParseException:
        return [digits]
    formats = (phonenumbers.PhoneNumberFormat.E164, phonenumbers.PhoneNumberFormat.INTERNATIONAL,
               phonenumbers.PhoneNumberFormat.NATIONAL)
    return [digits, *(phonenumbers.format_number(parsed, form) for form in formats),
            "0" + str(parsed.national_number)]


def _number(number: str) -> re.Pattern | None:
    """A pattern for one number in any of its spellings: its country code (with or without `+`, `00`, or a `(0)`
    after it) or its trunk `0`, then its national digits, separators allowed between any two digits."""
    digits = _digits(number)
    try:
        parsed = phonenumbers.parse("+" + digits)
        country, national = str(parsed.country_code), str(parsed.national_number)
    except phonenumbers.NumberParseException:
        country, national = "", digits
    if len(national) < 6:
        return None
    spaced = SEPARATORS.join(national)
    prefix = rf"(?:(?:\+|00)?{SEPARATORS.join(country)}{SEPARATORS}(?:\(0\){SEPARATORS})?|0{SEPARATORS})?"
    if not country:
        prefix = ""
    return re.compile(rf"(?<![\d+]){prefix}{spaced}(?!\d)")


def _name(name: str) -> re.Pattern:
    """A name's words in order, any run of spaces between them, whole words, any case."""
    words = [re.escape(word) for word in name.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)
