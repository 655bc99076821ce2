"""JSON request bodies: every body read once, before any view, by the one strict reader (core.text.strict_json) and
kept for the parser of api.arguments, so that a view sees exactly what was checked; and fields that take JSON values
as sent rather than guessing ("10" is not a number, 1 is not true, 0.30000000000000004 is not 0.3). What a body may
hold is declared on api.arguments.RequestSchema, as every request is."""
from __future__ import annotations

from decimal import Decimal

from flask import Request, request
from marshmallow import ValidationError, fields, missing
from werkzeug.exceptions import BadRequest

from api.errors import is_api_request
from core.errors import ValidationFailed
from core.text import strict_json
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
