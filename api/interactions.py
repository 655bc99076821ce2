"""Live interactions: POST /api/v1/interactions/{company_id}, a JSON array of interactions in the import format."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, ValidationError, fields, pre_load

from api.arguments import Blueprint, RequestSchema
from core.ingest.live import MAX_ROWS, STATUSES, record_interactions
from core.ingest.rows import text_limit
from core.text.strict_json import MAX_INTEGER

SCALAR = {"not": {"anyOf": [{"type": "array"}, {"type": "object"}]}, "minimum": -MAX_INTEGER, "maximum": MAX_INTEGER}
"""What the document says of every value of a row: one JSON value, not an array or an object (the row reader answers
one per row, as a bad row or a warning), and a number within what the JSON reader takes (core.text.strict_json refuses
a longer integer with the whole body)."""


def _value(description: str, **bounds) -> fields.Raw:
    """A field of any JSON type: the importer's row reader decides (a row it cannot use is a bad row). `bounds` are
    what the document says of it besides SCALAR (maxLength: the row reader's TEXT_LIMITS)."""
    return fields.Raw(allow_none=True, metadata={"description": description, **SCALAR, **bounds})


class InteractionSchema(RequestSchema):
    """One interaction as in an interactions file. Values are read as the importer reads them, so that a value it
    cannot use makes that row bad (answered per row) instead of refusing the whole batch."""

    CHECK_TEXT = False  # an unstorable text is the importer's to judge: a warning or a bad row, never the batch

    company_id = _value("integer: the station of the path")
    originator = _value("string: the listener's number")
    timestamp = _value("string: ISO 8601; without an offset it is the station's local time; from "
                       "2000-01-01T00:00:00Z to one day after the request, else the row is bad")
    channel_type = _value("integer, 1 or more")
    campaign_type = _value(f"string of at most {text_limit('campaign_type')} characters, else the row is bad",
                           maxLength=text_limit("campaign_type"))
    timeslot_id = _value("integer, optional: else the show on air at that time")
    message = _value(f"string, optional; one of more than {text_limit('message'):,} characters is left out with a "
                     "warning", maxLength=text_limit("message"))
    interaction_id = _value(f"string of at most {text_limit('interaction_id')} characters or integer, optional: the "
                            "idempotency key (else a hash of the whole row)", maxLength=text_limit("interaction_id"))

    @pre_load(pass_collection=True)
    def an_array(self, data, many: bool, **_kwargs):
        """The body is a JSON array; marshmallow would fail on anything else instead of refusing it."""
        if many and not isinstance(data, list):
            raise ValidationError("must be a JSON array of interactions")
        return data


class RowAnswerSchema(Schema):
    index = fields.Int(metadata={"description": "position of the row in the request, from 0"})
    status = fields.Str(metadata={"enum": list(STATUSES)})
    reasons = fields.List(fields.Str(), metadata={"description": "why a bad row could not be used"})
    warnings = fields.List(fields.Dict(keys=fields.Str(), values=fields.Str()),
                           metadata={"description": "optional fields left out: {field, reason}"})


class ListenerSegmentSchema(Schema):
    originator = fields.Str()
    segment = fields.Str()


class LiveBatchSchema(Schema):
    company_id = fields.Int()
    counts = fields.Dict(keys=fields.Str(), values=fields.Int(), metadata={"description": "rows per status"})
    rows = fields.List(fields.Nested(RowAnswerSchema))
    listeners = fields.List(fields.Nested(ListenerSegmentSchema),
                            metadata={"description": "every listener that got a new event, with its new segment"})


blp = Blueprint("interactions", __name__, url_prefix="/api/v1/interactions", description="Live interactions")

BODY = {"content": {"application/json": {"schema": {"type": "array", "maxItems": MAX_ROWS,
                                                    "items": InteractionSchema}}}}


@blp.route("/<company:company_id>")
class LiveInteractions(MethodView):
    @blp.arguments(InteractionSchema(many=True), location="json", as_kwargs=False)
    @blp.doc(requestBody=BODY)
    @blp.response(200, LiveBatchSchema)
    def post(self, rows: list[dict], company_id: int):
        """Store up to 1000 interactions now; each row's fate and the touched listeners' new segments"""
        return record_interactions(company_id, rows)
