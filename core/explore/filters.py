"""The shared filter set of the spec: parsed and validated once, evaluated as one vectorised mask.

One type serves filter, aggregate, completeness, cross-channel, export, the explorer page and the recommend body,
so there is one filter semantics. All filters are ANDed. Strings match exactly but case-insensitively, except
`email` and `name` (partial) and `originator` (exact), and `location`, where a place also matches every location
that lies in it ("Gauteng": Johannesburg, Soweto; core.places); `tags` and `inferred_interests` need all their values;
other repeatable filters need any of their values; `channel_type` is the primary channel, `has_channel` any channel
used; `inferred_*` match whatever the confidence. Each filter of several values has an exclusion, `exclude_<name>`,
parsed as that filter and ANDed like any other: it keeps the listeners known to match none of its values.
Erased (pseudonymised) listeners never match.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from core.errors import ValidationFailed
from core.explore.evaluation import evaluate
from core.explore.spec import REPEATABLE, SPEC
from core.listeners.snapshot import Snapshot
from core.text.query import EMPTY, check_bounds, parse_int

TRUE, FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}

@dataclass(frozen=True)
class ListenerFilter:
    """Active filters by parameter name; values already typed (tuples for repeatable ones)."""

    values: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.values)

    def to_params(self) -> list[tuple[str, str]]:
        """The filters as query parameters (repeatable ones repeated), for links and cache keys."""
        out = []
        for name in SPEC:
            if name not in self.values:
                continue
            value = self.values[name]
            if name in REPEATABLE:
                out.extend((name, str(v)) for v in value)
            elif isinstance(value, tuple):
                out.append((name, ",".join(value)))
            elif isinstance(value, bool):
                out.append((name, "true" if value else "false"))
            elif isinstance(value, datetime):
                out.append((name, value.isoformat()))
            else:
                out.append((name, str(value)))
        return out

    def as_values(self) -> dict:
        """The filters as JSON values by name (lists for the repeatable and "all of" ones, dates in ISO 8601): how
        answers and pages carry them, and what `parse_filters` reads back."""
        out = {}
        for name, value in self.values.items():
            if isinstance(value, tuple):
                out[name] = list(value)
            elif isinstance(value, datetime):
                out[name] = value.isoformat()
            else:
                out[name] = value
        return out

    def mask(self, snap: Snapshot, tz: str | None = None) -> np.ndarray:
        """Which rows of the snapshot match every active filter; dates without an offset are in the zone `tz`."""
        return evaluate(self.values, snap, tz)

    def without(self, name: str) -> ListenerFilter:
        """The same filters but `name` (faceted counts: each facet is counted under the other filters, exclusions
        included)."""
        return ListenerFilter({k: v for k, v in self.values.items() if k != name})


def parse_filters(params: Mapping[str, Any], location: str = "query") -> ListenerFilter:
    """Validate the filter parameters of a request (a mapping of name -> value or list of values).

    Values may be strings (query strings, forms) or JSON types (bodies). Unknown names are ignored so that other
    parameters can share the mapping (api.arguments refuses unknown ones). An empty value is refused, not taken
    as absent: a page drops its empty form fields first. Every invalid value is
    reported, not only the first.
    """
    values, problems = {}, []
    for name in SPEC:
        raw = _present(params.get(name))
        if raw is None:
            continue
        try:
            values[name] = filter_value(name, raw)
        except ValueError as error:
            problems.append({"loc": [location, name], "msg": str(error), "type": "value_error"})
    if problems:
        raise ValidationFailed(problems)
    return ListenerFilter(values)


def filter_value(name: str, raw):
    """One filter's typed value from what a request gave (a value, or a list of values); ValueError saying what is
    wrong with it."""
    kind, _, allowed = SPEC[name]
    return _PARSERS[kind](_filled(_present(raw) or []), allowed)


def _present(raw) -> list | None:
    """The values given for a parameter as a list, or None when it is absent (JSON null counts as absent)."""
    items = raw if isinstance(raw, (list, tuple)) else [raw]
    items = [i for i in items if i is not None]
    return items or None


def _filled(raw: list) -> list:
    """The values themselves; ValueError for an empty one, which a client sends by mistake, never to mean "any"."""
    if any(isinstance(i, str) and not i.strip() for i in raw):
        raise ValueError(EMPTY)
    return raw


def _one(raw: list):
    if len(raw) > 1:
        raise ValueError("Give this parameter once.")
    return raw[0]


def _choice(value, allowed) -> str:
    text = str(value).strip()
    if allowed is not None and text.lower() not in {a.lower() for a in allowed}:
        raise ValueError(f"Must be one of: {', '.join(allowed)}.")
    return text


def _integer(value, bounds) -> int:
    number = parse_int(value)
    return check_bounds(number, *bounds) if bounds else number


def _boolean(raw, _allowed) -> bool:
    value = _one(raw)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE or text in FALSE:
        return text in TRUE
    raise ValueError("Not a valid boolean.")


def _datetime(raw, _allowed) -> datetime:
    value = _one(raw)
    try:
        parsed = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError("Not a valid ISO 8601 date-time.") from None
    return parsed  # without an offset: wall time in the station's zone, fixed when evaluated (evaluation.py)


def _comma_list(raw, _allowed) -> tuple[str, ...]:
    items = [part.strip() for value in raw for part in (value if isinstance(value, list) else str(value).split(","))]
    items = [i for i in items if i]
    if not items:
        raise ValueError("Give at least one value.")
    return tuple(items)


def _flat(raw, split_commas: bool = False) -> list:
    """Repeated parameters, also accepting a JSON list (and, for integers, a comma-separated string)."""
    out = []
    for value in raw:
        if isinstance(value, list):
            out.extend(value)
        elif split_commas and isinstance(value, str):
            out.extend(value.split(","))
        else:
            out.append(value)
    return [v for v in out if not (isinstance(v, str) and not v.strip())]


_PARSERS = {
    "strings": lambda raw, allowed: tuple(_choice(v, allowed) for v in _flat(raw)),
    "ints": lambda raw, bounds: tuple(_integer(v, bounds) for v in _flat(raw, split_commas=True)),
    "all_of": _comma_list,
    "exact": lambda raw, _: str(_one(raw)).strip(),
    "partial": lambda raw, _: str(_one(raw)).strip(),
    "string": lambda raw, _: str(_one(raw)).strip(),
    "int": lambda raw, bounds: _integer(_one(raw), bounds),
    "datetime": _datetime,
    "bool": _boolean,
}
