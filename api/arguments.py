"""The one way a request is declared and validated, by the API and the pages alike: a marshmallow schema on the base
here, RequestSchema, read by webargs (through flask-smorest's `@blp.arguments` on the API, `parse` on a page).

The base refuses what nobody declared (an unknown name, naming the closest known one, said once), a value given
twice where one is taken, an empty value (never read as "absent"), and text the database cannot keep; its numbers
are whole numbers in plain digits within their bounds (Whole). The shared filters are arguments generated from
core.explore.spec.SPEC (api.filter_args, loading into the ListenerFilter core takes), and their OpenAPI
parameters come from those same fields. An API operation that declares no query arguments takes none (Blueprint).
"""
from __future__ import annotations

from collections.abc import Mapping

import flask_smorest
from apispec import BasePlugin
from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    missing,
    pre_load,
    validates_schema,
)
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.datastructures import CombinedMultiDict

from api.bodies import request_body
from core.text.query import EMPTY, check_bounds, parse_int, unknown_name
from core.text.storable import text_problem

NO_NUL = r"^[^\u0000]*$"
"""Text without NUL, which core.text.storable refuses in every value (the document says so, so that a client reading
it is not surprised by a 422)."""
NOT_BLANK = {"minLength": 1, "pattern": r"^[^\u0000]*[^\s\u0000][^\u0000]*$"}
"""What the document says of every free-text query value, because the base refuses blank ones (and NUL)."""
ONCE = "Give this parameter once."


def _lists(data) -> dict[str, list] | None:
    """A query string's or a form's values by name (None for a JSON body, which says each name once)."""
    if not hasattr(data, "getlist"):
        return None
    return {name: data.getlist(name) for name in data}


def takes_several(field: fields.Field) -> bool:
    """Whether a field takes a name repeated (webargs' own rule)."""
    return isinstance(field, (fields.List, fields.Tuple)) or bool(getattr(field, "is_multiple", False))


def _shape_problem(values: list, field: fields.Field) -> str | None:
    """What is wrong with a name's values as a query string or a form gives them, before any is read (a blank one
    too, unless the field says a blank value means something: metadata `blank`)."""
    if len(values) > 1 and not takes_several(field):
        return ONCE
    for value in values:
        if isinstance(value, str) and not value.strip() and not field.metadata.get("blank"):
            return EMPTY
        if isinstance(value, str) and (problem := text_problem(value)):
            return problem
    return None


class RequestSchema(Schema):
    """The base of every request's schema: a query string, a form or a JSON body."""

    CHECK_TEXT = True
    """False where each value of a body is read by core, which answers per value (live rows: a warning on the row)."""

    class Meta:
        unknown = RAISE

    def _by_name(self) -> dict[str, fields.Field]:
        return {field.data_key or name: field for name, field in self.load_fields.items()}

    def _shape_problems(self, lists: dict[str, list]) -> dict[str, list[str]]:
        known, found = self._by_name(), {}
        for name, values in lists.items():
            if name in known and (problem := _shape_problem(values, known[name])):
                found[name] = [problem]
        return found  # an unknown name is said by Meta.unknown, once

    @pre_load
    def _one_value_each(self, data, **_kwargs):
        """A query string or a form as the fields read it: a list for a field that takes several, else the value;
        the names whose values are refused left out (the validator below says why)."""
        lists = _lists(data)
        if lists is None:
            return data
        known, refused = self._by_name(), self._shape_problems(lists)
        return {name: values if name in known and takes_several(known[name]) else values[0]
                for name, values in lists.items() if name not in refused}

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def _refuse_shapes_and_unstorable_text(self, _data, original, **_kwargs):
        lists = _lists(original)
        if lists is not None:
            found = self._shape_problems(lists)
        elif self.CHECK_TEXT and isinstance(original, Mapping):
            known = self._by_name()
            found = text_problems({k: v for k, v in original.items() if k in known}, [])
        else:
            found = {}
        if found:
            raise ValidationError(found)

    def handle_error(self, error: ValidationError, data, *, many: bool, **kwargs):
        """Each problem said once: an unknown name naming the closest known one; a refused value, not also missing."""
        if many and isinstance(error.messages, dict):
            messages = {index: self._said_once(item, None) for index, item in error.messages.items()}
        else:
            messages = self._said_once(error.messages, _lists(data))
        raise ValidationError(messages, data=error.data, valid_data=error.valid_data)

    NAMES = "parameter"
    """What a query string's or a form's names are called in a refusal ("Unknown parameter 'x'")."""

    def _said_once(self, messages, lists: dict | None):
        if not isinstance(messages, dict):
            return messages
        known, what = list(self._by_name()), "field" if lists is None else self.NAMES
        shapes = self._shape_problems(lists) if lists is not None else {}
        unknown = self.error_messages["unknown"]
        said = {name: shapes.get(name) or [unknown_name(name, known, what) if msg == unknown else msg
                                           for msg in problems]
                if isinstance(problems, list) else problems for name, problems in messages.items()}
        return dict(sorted(said.items(), key=lambda item: item[0] in known))  # what nobody declared first


def text_problems(value, loc: list) -> dict:
    """Every text (value or key) of a JSON value that the database cannot keep, as marshmallow's {name: [msg]} tree
    at `loc`, without recursion."""
    found: dict = {}
    stack = [(value, loc)]
    while stack:
        value, at = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            problem = text_problem(key) if isinstance(key, str) else None
            if problem or (isinstance(child, str) and (problem := text_problem(child))):
                node = found
                for part in at:
                    node = node.setdefault(part, {})
                node[key] = [problem]
            elif isinstance(child, (dict, list)):
                stack.append((child, [*at, key]))
    return found


class Whole(fields.Integer):
    """A whole number in plain ASCII digits (Python's int() also takes " 2", "+2", "٢" and "2_0", which no client
    means as a number), within its bounds, which the document states."""

    def __init__(self, minimum: int, maximum: int, **kwargs):
        kwargs["metadata"] = {"minimum": minimum, "maximum": maximum, **kwargs.get("metadata", {})}
        super().__init__(**kwargs)
        self.bounds = (minimum, maximum)

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return check_bounds(parse_int(value), *self.bounds)
        except ValueError as error:
            raise ValidationError(str(error)) from None


class NoArguments(RequestSchema):
    """What an operation that declares no query arguments takes: nothing."""


# -- reading them --------------------------------------------------------------------------------------------------

class Parser(FlaskParser):
    """webargs' parser with each schema's own rule for unknown names (the base refuses them, in every location), and
    a JSON body read as api.bodies read it: one strict reader, the body read once."""

    def __init__(self):
        super().__init__(unknown=None)

    __location_map__ = {**FlaskParser.__location_map__, "parts": "load_parts"}

    def _raw_load_json(self, req):
        return request_body() if is_json_request(req) else missing

    def load_parts(self, req, schema):
        """A multipart body's fields and files together, as one form: the parts of an upload."""
        return self._makeproxy(CombinedMultiDict([req.form, req.files]), schema)


parser = Parser()


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint reading arguments with the one parser: every API blueprint is made here. An
    operation that declares no query arguments takes none (NoArguments), so a misspelt one is a 422, never ignored."""

    ARGUMENTS_PARSER = parser

    def add_url_rule(self, rule, endpoint=None, view_func=None, provide_automatic_options=None, **options):
        if isinstance(view_func, type):
            for method in view_func.methods or ():
                handler = getattr(view_func, method.lower())
                setattr(view_func, method.lower(), self._taking_no_query_but_its_own(handler))
        elif view_func is not None:
            view_func = self._taking_no_query_but_its_own(view_func)
        return super().add_url_rule(rule, endpoint, view_func, provide_automatic_options, **options)

    def _taking_no_query_but_its_own(self, handler):
        declared = getattr(handler, "_apidoc", {}).get("arguments", {}).get("parameters", [])
        if any(param.get("in") in ("query", "querystring") for param in declared):
            return handler
        return self.arguments(NoArguments, location="query", as_kwargs=True)(handler)


class NonBlankQueryPlugin(BasePlugin):
    """Documents, on every query parameter of every operation, that a value may not be blank, as the base refuses
    (without it, a client reading the document would send `name=` and be surprised by a 422)."""

    def path_helper(self, path=None, operations=None, parameters=None, **kwargs):
        _mark_not_blank(parameters or [])

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            _mark_not_blank(operation.get("parameters", []))
            if operation.get("parameters") == []:
                del operation["parameters"]  # NoArguments: the operation takes none


def _mark_not_blank(parameters: list) -> None:
    for param in parameters:
        if isinstance(param, dict) and param.get("in") == "query" and isinstance(param.get("schema"), dict):
            schema = param["schema"]
            _free_text(schema.get("items", {}) if schema.get("type") == "array" else schema)


def _free_text(schema: dict) -> None:
    """Strings without an enum, format or pattern of their own say they need a non-blank character."""
    if schema.get("type") == "string" and not {"enum", "format", "pattern"} & schema.keys():
        schema.update(NOT_BLANK)
