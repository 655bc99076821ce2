"""Query parameters as a client sends them: which names an operation knows, one value or several, never empty,
whole numbers in plain digits and within their bounds. Every problem is reported at once, in the 422 shape.

The rules say nothing about any operation: the API derives them from its OpenAPI document, so that what the
document says and what the server accepts cannot drift apart.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import get_close_matches

from core.errors import ValidationFailed
from core.text.storable import text_problem

PLAIN_INT = re.compile(r"-?[0-9]+")
"""ASCII digits only: Python's int() also takes " 2", "+2", "٢" and "2_0", which no client means as a number."""
EMPTY = "Empty value: give a value or leave the parameter out."


@dataclass(frozen=True)
class QueryRule:
    """What one query parameter allows: several values or one, and whether it is a whole number within bounds."""

    repeatable: bool = False
    integer: bool = False
    minimum: int | None = None
    maximum: int | None = None


def parse_int(value) -> int:
    """A whole number written in plain ASCII digits (an optional minus sign first), else ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("Not a valid integer.")
    if isinstance(value, str) and not PLAIN_INT.fullmatch(value):
        raise ValueError("Not a valid integer.")
    return int(value)


def check_bounds(number: int, minimum: int | None, maximum: int | None) -> int:
    """The number itself when it lies within the (inclusive) bounds, else ValueError saying which."""
    if minimum is not None and maximum is not None and not minimum <= number <= maximum:
        raise ValueError(f"Must be between {minimum} and {maximum}.")
    if minimum is not None and number < minimum:
        raise ValueError(f"Must be at least {minimum}.")
    if maximum is not None and number > maximum:
        raise ValueError(f"Must be at most {maximum}.")
    return number


def whole_number(value, loc: list, minimum: int | None = None, maximum: int | None = None) -> int:
    """parse_int and check_bounds together, failing as a 422 at `loc` (for path segments and single values)."""
    try:
        number = parse_int(value)
    except ValueError as error:
        raise ValidationFailed.one(loc, str(error), "int_parsing") from None
    try:
        return check_bounds(number, minimum, maximum)
    except ValueError as error:
        raise ValidationFailed.one(loc, str(error)) from None


def decimal_number(value: str, loc: list) -> float:
    """A number as a form or a query string writes it ("0.68"), failing as a 422 at `loc`; its bounds are the
    caller's to check."""
    try:
        return float(value)
    except ValueError:
        raise ValidationFailed.one(loc, "Not a valid number: give one like 0.68.") from None


def unknown_name(name: str, known: Sequence[str], what: str = "parameter") -> str:
    """The sentence for a name nobody declared: the closest known one, or the known ones."""
    closest = get_close_matches(name, known, n=1)
    if closest:
        return f"Unknown {what} '{name}'; did you mean '{closest[0]}'?"
    if not known:
        return f"Unknown {what} '{name}'; this operation takes none."
    return f"Unknown {what} '{name}'; known: {', '.join(sorted(known))}."


def check_query(params: Mapping[str, Sequence[str]], rules: Mapping[str, QueryRule]) -> None:
    """422 naming every unknown parameter, repeated single one, empty value, text no store could keep (NUL) and
    malformed or out of bounds number."""
    problems = []
    for name, values in params.items():
        rule = rules.get(name)
        if rule is None:
            problems.append(_item(name, unknown_name(name, list(rules)), "extra_forbidden"))
            continue
        if len(values) > 1 and not rule.repeatable:
            problems.append(_item(name, "Give this parameter once.", "value_error"))
        problems.extend(_value_problems(name, values, rule))
    if problems:
        raise ValidationFailed(problems)


def _value_problems(name: str, values: Sequence[str], rule: QueryRule) -> list[dict]:
    """At most one problem per parameter: the first empty or bad value says what to fix."""
    for value in values:
        if not value.strip():
            return [_item(name, EMPTY, "string_too_short")]
        problem = text_problem(value)
        if problem:
            return [_item(name, problem, "string_type")]
        if rule.integer:
            try:
                whole_number(value, ["query", name], rule.minimum, rule.maximum)
            except ValidationFailed as error:
                return error.items
    return []


def _item(name: str, msg: str, type_: str) -> dict:
    return {"loc": ["query", name], "msg": msg, "type": type_}
