"""Custom segments: /api/v1/ai/segments/{company_id}/custom-segment, the listeners a theme is about, found by the
provider's search queries within the shared filters (query parameters). Charged in credits like every AI call."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields

from api.ai import PAID, CostFields
from api.arguments import NO_NUL, NOT_BLANK, Blueprint, RequestSchema
from api.bodies import JsonInteger, JsonNumber
from api.filter_args import FilterArgs
from api.search import CoverageFields
from core.audiences.custom import custom_segment
from core.audiences.rules import DESCRIPTION_MAX, MIN_SCORE, SEGMENT_LIMIT, SEGMENT_LIMITS, THEME_MAX

SCORE = {"minimum": 0, "maximum": 1, "description": "lowest score kept, (1 + cosine) / 2; higher is stricter"}
MEMBERS = ("listener records as search gives them (declared fields, tags, flags, behavioural profile, segment, RFM, "
           "inferred values), each with `score`, `matched` (the parts of its profile that share words with its query) "
           "and `query` (the query that scored it best)")


def theme_field() -> fields.Str:
    return fields.Str(required=True, metadata={**NOT_BLANK, "maxLength": THEME_MAX,
                                               "description": "what the listeners are about, in plain language"})


def description_field() -> fields.Str:
    return fields.Str(allow_none=True, load_default=None, metadata={"maxLength": DESCRIPTION_MAX, "pattern": NO_NUL,
                                                                    "description": "more of what is meant"})


class CustomSegmentRequestSchema(RequestSchema):
    theme = theme_field()
    description = description_field()
    limit = JsonInteger(load_default=SEGMENT_LIMIT, metadata={"minimum": SEGMENT_LIMITS[0],
                                                              "maximum": SEGMENT_LIMITS[1]})
    min_score = JsonNumber(load_default=MIN_SCORE, metadata=SCORE)


class QueryUseSchema(Schema):
    query = fields.Str()
    members = fields.Int(metadata={"description": "members this query scored best"})


class CustomSegmentSchema(CostFields, CoverageFields):
    company_id = fields.Int()
    theme = fields.Str()
    description = fields.Str(allow_none=True)
    limit = fields.Int()
    min_score = fields.Float()
    filters = fields.Dict(metadata={"description": "the filters applied before ranking: parameter -> value(s)"})
    queries = fields.List(fields.Nested(QueryUseSchema), metadata={
        "description": "the search queries run, the theme first; `provider` made the others (`given`: the caller "
                       "brought them)"})
    total = fields.Int()
    members = fields.List(fields.Dict(), metadata={"description": f"best first: {MEMBERS}"})


blp = Blueprint("custom_segments", __name__, url_prefix="/api/v1/ai",
                description="Custom segments: listeners found from a theme, metered by credits")


@blp.route("/segments/<company:company_id>/custom-segment")
class CustomSegment(MethodView):
    @blp.arguments(FilterArgs, location="query", as_kwargs=False)
    @blp.arguments(CustomSegmentRequestSchema)
    @blp.response(200, CustomSegmentSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    def post(self, args: dict, body: dict, company_id: int):
        """Matching listeners from AI-generated search queries, within the filters given as query parameters"""
        return custom_segment(company_id, body["theme"], body["description"], body["limit"], body["min_score"],
                              args["flt"])
