"""OpenAPI descriptions of the shared filter parameters, generated from core.explore.spec.SPEC (the only definition)."""
from __future__ import annotations

from core.explore.operations import MAX_PAGE, MAX_PAGE_SIZE
from core.explore.spec import EXCLUSIONS, SPEC

_TYPES = {
    "strings": {"type": "array", "items": {"type": "string"}},
    "ints": {"type": "array", "items": {"type": "integer"}},
    # one value at least that is not a comma or a blank: "," names none, and the filter parser refuses it
    "all_of": {"type": "string", "pattern": r"^[^\u0000]*[^,\s\u0000][^\u0000]*$",
               "description": "comma-separated; the listener must have all of them"},
    "exact": {"type": "string"},
    "partial": {"type": "string", "description": "partial, case-insensitive match"},
    "string": {"type": "string"},
    "int": {"type": "integer"},
    "datetime": {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}],
                 "description": "ISO 8601 date or date-time; a date (2026-11-01) means midnight "
                 "and a time without an offset means that wall time, both in the station's time zone (the "
                 "company's timezone, default Africa/Johannesburg); with an offset it is that exact moment"},
    "bool": {"type": "boolean"},
}


def _bounded(schema: dict, bounds) -> dict:
    """An integer schema with the bounds the filter parser enforces, so that the document and the server agree."""
    return {**schema, "minimum": bounds[0], "maximum": bounds[1]} if bounds else schema


def _excluding(name: str, kind: str) -> str:
    """What an exclusion does, in the document's words."""
    listed = "comma-separated; " if kind == "all_of" else ""
    return (f"{listed}leaves out the listeners that `{EXCLUSIONS[name]}` would keep for any one of these values; "
            "a listener whose value is unknown is kept")


def _parameter(name: str, kind: str, allowed) -> dict:
    schema = dict(_TYPES[kind])
    description = schema.pop("description", None)
    if name in EXCLUSIONS:
        description = _excluding(name, kind)
    if kind == "strings" and allowed:
        schema["items"] = {"type": "string", "enum": list(allowed)}
    if kind == "ints":
        schema["items"] = _bounded(schema["items"], allowed)
    if kind == "int":
        schema = _bounded(schema, allowed)
    param = {"in": "query", "name": name, "required": False, "schema": schema}
    if kind in ("strings", "ints"):
        param.update(style="form", explode=True)
    if name == "channel_type":
        description = "primary channel only"
    if name == "has_channel":
        description = "channel used at any time, not only primary"
    if description:
        param["description"] = description
    return param


FILTER_PARAMETERS = [_parameter(name, kind, allowed) for name, (kind, _, allowed) in SPEC.items()]
PAGE_PARAMETERS = [
    {"in": "query", "name": "page", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1}},
    {"in": "query", "name": "page_size", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE, "default": 100}},
]
EXPORT_PARAMETERS = [
    {"in": "query", "name": "channel_pair", "required": False,
     "schema": {"type": "string", "pattern": "^0*[1-9][0-9]*,0*[1-9][0-9]*$"},
     "description": "two channel_type integers, comma-separated (2,5); only listeners active on both (2,2: on 2)"},
    {"in": "query", "name": "format", "required": False, "schema": {"type": "string", "enum": ["json", "csv"]},
     "description": "json (default) or csv; `Accept: text/csv` also selects CSV"},
]
