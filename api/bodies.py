"""JSON request bodies: every body read once, before any view, by the one strict reader (core.text.strict_json) and
kept for the views' parser, so that a view sees exactly what was checked; a schema that refuses unknown fields, naming
the closest known one (nothing a client sends is silently ignored), and text the database cannot keep; and fields that
take JSON values as sent rather than guessing ("10" is not a number, 1 is not true, 0.30000000000000004 is not 0.3)."""
from __future__ import annotations

from decimal import Decimal

import flask_smorest
from flask import Request, request
from marshmallow import RAISE, Schema, ValidationError, fields, missing, validates_schema
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import BadRequest

from api.errors import is_api_request
from core.errors import ValidationFailed
from core.text import strict_json
from core.text.query import unknown_name
from core.text.storable import text_problem
from core.text.wording import plural

_READ = "lss.json_body"
"""Where the body read by the strict reader is kept for the rest of the request (the WSGI environment is the
request's own: flask.g may outlive one request)."""


def check_request_body() -> None:
    """Before every API request with a JSON body: 422 naming the place of a key given twice, an integer past
    strict_json.MAX_INTEGER, NaN or a number beyond a float, or nesting deeper than strict_json.MAX_DEPTH; 400 when
    the body is not JSON at all."""
    if is_api_request() and request.is_json:
        request_body()


def request_body():
    """The request's JSON body as the strict reader reads it, read once per request (marshmallow's `missing` when
    the body is empty, as webargs has it)."""
    if _READ not in request.environ:
        request.environ[_READ] = _read(request.get_data(cache=True))
    return request.environ[_READ]


def _read(data: bytes):
    if not data:
        return missing
    try:
        return strict_json.loads(data)
    except strict_json.RefusedJson as refused:
        raise ValidationFailed.one(["body", *refused.loc], refused.msg) from None
    except strict_json.MalformedJson:
        raise BadRequest("Malformed JSON body") from None


class StrictJsonParser(FlaskParser):
    """webargs' parser, reading a JSON body as check_request_body read it: one reader, and the body read once."""

    def _raw_load_json(self, req):
        return request_body() if is_json_request(req) else missing


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint whose arguments are parsed by StrictJsonParser: the API's blueprints are made here."""

    ARGUMENTS_PARSER = StrictJsonParser()


class StrictJsonRequest(Request):
    """Flask's request whose get_json reads with the strict reader (Flask-WTF calls it for a page posted as JSON): a
    refusal is a ValueError, which Flask answers 400, never the 500 of a RecursionError."""

    @property
    def json_module(self):
        """The strict reader, whatever Flask hands the request (it sets the app's JSON provider on each one, and that
        provider also reads responses, a test client's among them, which it should keep reading as they are)."""
        return strict_json

    @json_module.setter
    def json_module(self, _provider):
        del _provider  # the strict reader stays


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


class JsonNumber(fields.Float):
    """A JSON number as sent: "10" and true are refused rather than read as 10 and 1 (core checks the amount). With
    `places`, a number written with more decimals is refused, judged by its text (0.30000000000000004 is not 0.3),
    and the document says multipleOf."""

    def __init__(self, *, places: int | None = None, **kwargs):
        if places is not None:
            kwargs["metadata"] = {"multipleOf": float(Decimal(1).scaleb(-places)), **kwargs.get("metadata", {})}
        super().__init__(**kwargs)
        self.places = places

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        if self.places is not None and not strict_json.has_places(value, self.places):
            raise ValidationError(f"Give at most {plural(self.places, 'decimal')}.")
        return value if isinstance(value, int) else float(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return value  # credits are whole when they can be (10, not 10.0)


class JsonBoolean(fields.Boolean):
    """true or false only: "yes", 1 and "true" are refused rather than guessed."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictBodySchema(Schema):
    """A body that refuses unknown fields (documented as additionalProperties: false), once, naming the closest one,
    and any text the database could not keep (a lone surrogate, NUL), wherever it is in the body."""

    CHECK_TEXT = True
    """False where each value is read by core, which answers per value (live rows: a warning on the row)."""

    class Meta:
        unknown = RAISE

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def refuse_unstorable_text(self, _data, original, **_kwargs):
        if self.CHECK_TEXT and isinstance(original, dict):
            found = text_problems(original, [])
            if found:
                raise ValidationError(found)

    def handle_error(self, error: ValidationError, data, *, many: bool, **kwargs):
        """marshmallow's own refusal of an unknown field (Meta.unknown), said once and naming the closest known
        field."""
        if many and isinstance(error.messages, dict):
            messages = {index: self._named(item) for index, item in error.messages.items()}
        else:
            messages = self._named(error.messages)
        raise ValidationError(messages, data=error.data, valid_data=error.valid_data)

    def _named(self, messages):
        """One item's messages with each "Unknown field." replaced by the sentence that names the closest field."""
        if not isinstance(messages, dict):
            return messages
        known = [field.data_key or name for name, field in self.load_fields.items()]
        unknown = self.error_messages["unknown"]
        return {name: [unknown_name(name, known, "field") if msg == unknown else msg for msg in problems]
                if isinstance(problems, list) else problems for name, problems in messages.items()}


def longest(choices) -> int:
    """The maxLength of a text that must be one of `choices`, so that the document bounds every string."""
    return max(map(len, choices))


class JsonInteger(fields.Integer):
    """A JSON whole number as sent: "10", true and 1.5 are refused rather than read as 10, 1 and 1 (core checks the
    bounds)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
            raise self.make_error("invalid")
        return int(value)
