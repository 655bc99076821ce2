"""JSON request bodies: a check of every body before any view reads it (no deeper than MAX_DEPTH, numbers finite), a
schema that refuses unknown fields, naming the closest known one (nothing a client sends is silently ignored), and
text the database cannot keep, and fields that take JSON values as sent rather than guessing ("10" is not a number, 1
is not true)."""
from __future__ import annotations

import json
import math

from flask import request
from marshmallow import RAISE, Schema, ValidationError, fields, validates_schema

from api.errors import is_api_request
from core.errors import ValidationFailed
from core.text.query import unknown_name
from core.text.storable import text_problem

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have; none of ours needs more than 4, and a parser that
recursed through 1,000 levels would fail instead of answering."""


class _Refused(ValueError):
    """A body that parses as JSON but that no operation may be given: too deep, or a number beyond a float."""


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"The number {text[:20]} is too large; numbers here are at most about 1.8e308.")
    return number


def _constant(name: str) -> float:
    raise _Refused(f"{name} is not a JSON number; give a number.")


def check_request_body() -> None:
    """Before every API request with a JSON body: 422 when it nests deeper than MAX_DEPTH or holds a number too large
    for a float (or NaN or Infinity, which Python's parser would take). A body that is not JSON at all is left to the
    view's parser (400)."""
    if not is_api_request() or not request.is_json:
        return
    try:
        body = json.loads(request.get_data(cache=True) or b"null", parse_float=_finite, parse_constant=_constant)
    except RecursionError:
        raise ValidationFailed.one(["body"], f"Nested more than {MAX_DEPTH} levels deep.") from None
    except _Refused as refused:
        raise ValidationFailed.one(["body"], str(refused)) from None
    except ValueError:
        return
    if _depth(body) > MAX_DEPTH:
        raise ValidationFailed.one(["body"], f"Nested more than {MAX_DEPTH} levels deep.")


def _depth(value) -> int:
    """How deep arrays and objects nest (0 for a plain value), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (value.values() if isinstance(value, dict) else value))
    return deepest


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
    """A JSON number as sent: "10" and true are refused rather than read as 10 and 1 (core checks the amount)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value  # credits are whole when they can be (10, not 10.0)


class JsonBoolean(fields.Boolean):
    """true or false only: "yes", 1 and "true" are refused rather than guessed."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictBodySchema(Schema):
    """A body that refuses unknown fields (documented as additionalProperties: false), naming the closest one, and
    any text the database could not keep (a lone surrogate, NUL), wherever it is in the body."""

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

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def refuse_unknown(self, _data, original, **_kwargs):
        if isinstance(original, dict):
            unknown = {name: [unknown_name(name, list(self.fields), "field")] for name in original
                       if name not in self.fields}
            if unknown:
                raise ValidationError(unknown)


class JsonInteger(fields.Integer):
    """A JSON whole number as sent: "10", true and 1.5 are refused rather than read as 10, 1 and 1 (core checks the
    bounds)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
            raise self.make_error("invalid")
        return int(value)
