"""The bounds of custom segments and audiences (spec §8, docs/decisions.md §8), checked here so that the API and the
pages refuse the same things; every problem of a request is reported at once, in the 422 shape."""
from __future__ import annotations

import math

from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.spec import REPEATABLE
from core.search.search import MIN_SCORE as MIN_SCORE  # audiences save searches: search's default
from core.text.query import check_bounds
from core.text.storable import text_problem

THEME_MAX, DESCRIPTION_MAX, NAME_MAX, QUERIES_MAX = 500, 2000, 120, 5
SEGMENT_LIMITS, AUDIENCE_LIMITS, EXPIRY_LIMITS = (1, 1000), (1, 5000), (1, 365)
SEGMENT_LIMIT, AUDIENCE_LIMIT, EXPIRY_DAYS = 100, 500, 30


class Problems:
    """The 422 items found so far; each check answers the cleaned value (None when it failed)."""

    def __init__(self, where: str = "body"):
        self.items: list[dict] = []
        self.where = where  # "query" for the arguments of a read

    def add(self, name: str, msg: str, type_: str = "value_error") -> None:
        """One more problem of the body field `name`."""
        self.items.append({"loc": [self.where, name], "msg": msg, "type": type_})

    def text(self, name: str, value, maximum: int, required: bool = True) -> str | None:
        """Trimmed text of at most `maximum` characters; blank is absent (refused when required)."""
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.add(name, f"Give a {name}: it cannot be blank.", "missing")
            return None
        if not isinstance(value, str):
            self.add(name, "Not a valid string.", "type_error")
            return None
        text = value.strip()
        if len(text) > maximum:
            self.add(name, f"At most {maximum} characters.")
        elif problem := text_problem(text):
            self.add(name, problem, "string_type")
        else:
            return text
        return None

    def whole(self, name: str, value, bounds: tuple[int, int]) -> int | None:
        """A whole number within the bounds (a boolean is not a number)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
            self.add(name, "Not a valid integer.", "type_error")
            return None
        try:
            return check_bounds(int(value), *bounds)
        except ValueError as error:
            self.add(name, str(error))
            return None

    def score(self, name: str, value) -> float | None:
        """A score from 0 to 1."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            self.add(name, "Not a valid number.", "type_error")
        elif not 0 <= value <= 1:
            self.add(name, "Must be between 0 and 1.")
        else:
            return float(value)
        return None

    def queries(self, value) -> list[str] | None:
        """Search queries given back by a caller (a preview's): 1 to QUERIES_MAX distinct non-blank texts."""
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= QUERIES_MAX:
            self.add("queries", f"Give 1 to {QUERIES_MAX} search queries.")
            return None
        cleaned = [self.text("queries", query, THEME_MAX) for query in value]
        return distinct([q for q in cleaned if q])

    def check(self) -> None:
        """Raise every problem found as one ValidationFailed."""
        if self.items:
            raise ValidationFailed(self.items)


def distinct(texts: list[str]) -> list[str]:
    """The texts in their order, without repeats (compared case-insensitively)."""
    seen: set[str] = set()
    out = []
    for text in texts:
        if text.casefold() not in seen:
            seen.add(text.casefold())
            out.append(text)
    return out


def filter_params(flt: ListenerFilter | None) -> dict:
    """The applied filters as parameter -> value (repeatable ones as lists): what a strategy stores and answers, and
    what `parse_filters` reads back."""
    out: dict = {}
    for name, value in (flt or ListenerFilter()).to_params():
        if name in REPEATABLE:
            out.setdefault(name, []).append(value)
        else:
            out[name] = value
    return out

