"""JSON request bodies: a schema that refuses unknown fields, naming the closest known one (nothing a client sends is
silently ignored), and fields that take JSON values as sent rather than guessing ("10" is not a number, 1 is not
true)."""
from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validates_schema

from core.text.query import unknown_name


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
    """A body that refuses unknown fields (documented as additionalProperties: false), naming the closest one."""

    class Meta:
        unknown = RAISE

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
