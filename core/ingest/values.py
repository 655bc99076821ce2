"""Reading one value of an import row: whole numbers, text, booleans and lists, each failing with a `RowError` that
says what the value must be; and `FieldWarnings`, which turns an unreadable optional value into a warning so that the
row keeps every readable field (ingest.md). The row kinds themselves are in core.ingest.rows."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from core.text.storable import text_problem
from core.text.wording import plural

INTEGER = re.compile(r"^\s*-?\d+\s*$", re.ASCII)
MAX_INT = 2**63 - 1  # what BSON can hold
UNQUOTED = object()


class RowError(ValueError):
    """One value cannot be read: `rule` says what it must be; `reason`, what a bad row's report says, adds the value
    when it is safe to quote (`got`), so that warnings, which may concern personal data, can leave it out."""

    def __init__(self, rule: str, got=UNQUOTED):
        self.rule = rule
        self.reason = rule if got is UNQUOTED else f"{rule}, got {_shown(got)}"
        super().__init__(self.reason)


class UnknownName(RowError):
    """A name that is none of the known ones (a channel the station does not have): the reason names the field, the
    name, what was expected and the closest known name; the report lists it once, for all the rows that wrote it, by
    `once` (its field and the name as matched), not once per row."""

    def __init__(self, field: str, got: str, expected: str, closest: str | None, once: str):
        hint = f"; did you mean {closest!r}?" if closest else ""
        super().__init__(f"{field} is not a known name: expected {expected}{hint}")
        self.reason = f"{field} {_shown(got)} is not a known name: expected {expected}{hint}"
        self.once = (field, once)


class Unread(str):
    """A cell a mapped file's reading could not read (core.ingest.readings), passed on as written with what was
    expected (`rule`: a birth date that is no date is not "one of 18-24, 25-34..."), for the importer's check to
    say."""

    rule: str = ""

    def __new__(cls, written: str, rule: str):
        made = super().__new__(cls, written)
        made.rule = rule
        return made


class FieldWarning(NamedTuple):
    """An optional field of one row that could not be read and was left out; the reason never quotes the value."""

    field: str
    reason: str


class FieldWarnings(list):
    """The warnings of one row, filled while its optional fields are read."""

    def optional(self, row: dict, name: str, read: Callable, **options):
        """`read(row, name, **options)`, or None and a warning when the value cannot be read: an optional value never
        costs its row. The one place where that is decided, for every kind of file and field."""
        try:
            return read(row, name, **options)
        except RowError as exc:
            self.append(FieldWarning(name, exc.rule))
            return None


def _shown(value) -> str:
    """A value quoted in a reason, cut short so that one huge cell cannot flood the report."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def as_int(row: dict, name: str, minimum: int | None = None, required: bool = True) -> int | None:
    """An integer field; numeric strings (every CSV cell) are accepted."""
    value = row.get(name)
    if type(value) is not int:
        if value is None or value == "":
            if required:
                raise RowError(f"missing {name}")
            return None
        if not isinstance(value, str) or not INTEGER.match(value):
            raise RowError(f"{name} must be an integer", got=value)
        value = int(value)
    if minimum is not None and value < minimum:
        raise RowError(f"{name} must be an integer >= {minimum}", got=value)
    if value > MAX_INT:
        raise RowError(f"{name} is too large an integer")
    return value


def as_text(row: dict, name: str, required: bool = True, *, max_length: int) -> str | None:
    """A string field, stripped, of at most `max_length` characters; empty or blank counts as absent."""
    value = row.get(name)
    if value is None:
        if required:
            raise RowError(f"missing {name}")
        return None
    if not isinstance(value, str):
        raise RowError(f"{name} must be a string", got=value)
    value = within(unicode_text(value.strip(), name), name, max_length)
    if not value and required:
        raise RowError(f"missing {name}")
    return value or None


def within(value: str, name: str, max_length: int) -> str:
    """The text itself when it has at most `max_length` characters; the reason never quotes a text that long."""
    if len(value) > max_length:
        raise RowError(f"{name} is longer than {plural(max_length, 'character')}")
    return value


def unicode_text(value: str, name: str) -> str:
    """The string itself, unless the database could not store it (core.text.storable: a lone surrogate, NUL)."""
    problem = text_problem(value)
    if problem:
        raise RowError(f"{name} {problem[0].lower()}{problem[1:].rstrip('.')}")
    return value


def as_bool(row: dict, name: str) -> bool | None:
    """A boolean field: JSON true/false, or the strings `true`/`false`."""
    value = row.get(name)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if value is None or value == "" or isinstance(value, bool):
        return value if isinstance(value, bool) else None
    raise RowError(f"{name} must be true or false", got=value)


def as_list(row: dict, name: str) -> list | None:
    """A list field (CSV cells were split on `|` by read_rows); an empty list counts as absent."""
    value = row.get(name)
    if value is None:
        return None
    if not isinstance(value, list):
        raise RowError(f"{name} must be a list", got=value)
    return value or None
