"""Values as a query string or a form writes them: whole numbers in plain digits and within their bounds, and the
sentence naming an unknown name. What a request may hold is declared at the edge, on
api.arguments.RequestSchema, which reads its values with these."""
from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import get_close_matches

PLAIN_INT = re.compile(r"-?[0-9]+")
"""ASCII digits only: Python's int() also takes " 2", "+2", "٢" and "2_0", which no client means as a number."""
EMPTY = "Empty value: give a value or leave the parameter out."


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


def unknown_name(name: str, known: Sequence[str], what: str = "parameter") -> str:
    """The sentence for a name nobody declared: the closest known one, or the known ones."""
    closest = get_close_matches(name, known, n=1)
    if closest:
        return f"Unknown {what} '{name}'; did you mean '{closest[0]}'?"
    if not known:
        return f"Unknown {what} '{name}'; this operation takes none."
    return f"Unknown {what} '{name}'; known: {', '.join(sorted(known))}."
