"""The shared filters as request arguments, generated from core.explore.spec.SPEC (the only definition): each
filter a field of the one base (api.arguments.RequestSchema) read by core's own filter parser, loading into the
ListenerFilter core takes; their OpenAPI parameters come from the same fields, so the document and the server agree.
The API's filter operations and the pages' filters (the explorer, search, exports) declare these same arguments.
"""
from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, validate

from api.arguments import RequestSchema, Whole
from core.errors import ValidationFailed
from core.explore.export import parse_channel_pair
from core.explore.filters import ListenerFilter, filter_value
from core.explore.operations import MAX_PAGE, MAX_PAGE_SIZE
from core.explore.spec import EXCLUSIONS, REPEATABLE, SPEC

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
_SAID = {"channel_type": "primary channel only", "has_channel": "channel used at any time, not only primary"}


def filter_schema(name: str) -> dict:
    """The OpenAPI schema of a filter's value (its description under "description"), as SPEC defines it."""
    kind, _, allowed = SPEC[name]
    schema = {**_TYPES[kind]}
    if name in EXCLUSIONS:
        listed = "comma-separated; " if kind == "all_of" else ""
        schema["description"] = (f"{listed}leaves out the listeners that `{EXCLUSIONS[name]}` would keep for any "
                                 "one of these values; a listener whose value is unknown is kept")
    if name in _SAID:
        schema["description"] = _SAID[name]
    if kind == "strings" and allowed:
        schema["items"] = {"type": "string", "enum": list(allowed)}
    if kind == "ints":
        schema["items"] = {"type": "integer", "minimum": allowed[0], "maximum": allowed[1]}
    if kind == "int":
        schema.update(minimum=allowed[0], maximum=allowed[1])
    return schema


def _read(name: str, value):
    try:
        return filter_value(name, value)
    except ValueError as error:
        raise ValidationError(str(error)) from None


class FilterValue(fields.Raw):
    """A filter that takes one value, read by core's filter parser."""

    def __init__(self, name: str, **kwargs):
        super().__init__(metadata=filter_schema(name), **kwargs)
        self.filter_name = name

    def _deserialize(self, value, attr, data, **kwargs):
        return _read(self.filter_name, value)


class FilterValues(fields.List):
    """A filter that takes several values, the name repeated (`segment=a&segment=b`), read by core's filter parser."""

    def __init__(self, name: str, **kwargs):
        schema = filter_schema(name)
        metadata = {"description": schema["description"]} if "description" in schema else {}
        super().__init__(fields.Raw(metadata=schema["items"]), metadata=metadata, **kwargs)
        self.filter_name = name

    def _deserialize(self, value, attr, data, **kwargs):
        return _read(self.filter_name, value)


class _Filters(RequestSchema):
    @post_load
    def _as_filter(self, data: dict, **_kwargs) -> dict:
        """The filters given, as the one ListenerFilter of core, under `flt`; the other arguments as they are."""
        own = {name for name, field in self.load_fields.items() if isinstance(field, (FilterValue, FilterValues))}
        return {"flt": ListenerFilter({name: data[name] for name in SPEC if name in own and name in data}),
                **{name: value for name, value in data.items() if name not in own}}


FilterArgs = _Filters.from_dict({name: FilterValues(name) if name in REPEATABLE else FilterValue(name)
                                 for name in SPEC}, name="FilterArgs")
"""Every shared filter as a query argument; loads into {"flt": ListenerFilter, ...any other argument}."""


class FilterPageArgs(FilterArgs):
    page = Whole(1, MAX_PAGE, load_default=1)
    page_size = Whole(1, MAX_PAGE_SIZE, load_default=100)


class ChannelPair(fields.Str):
    """`channel_pair=2,5` as core reads it: the two channels, in order."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return parse_channel_pair(super()._deserialize(value, attr, data, **kwargs))
        except ValidationFailed as refused:
            raise ValidationError(refused.items[0]["msg"]) from None


class ExportArgs(FilterArgs):
    channel_pair = ChannelPair(metadata={
        "pattern": r"^0*[1-9][0-9]*,0*[1-9][0-9]*$",
        "description": "two channel_type integers, comma-separated (2,5); only listeners active on both (2,2: on 2)"})
    format = fields.Str(validate=validate.OneOf(["json", "csv"]), metadata={
        "description": "json (default) or csv; `Accept: text/csv` also selects CSV"})
