"""The campaign agent: /api/v1/agent/{company_id}/parse-brief and /recommend. Both are AI operations charged in credits
(402 when the balance is short, 403 while paused); a recommendation is kept 24 hours and served again for free.

RecommendRequest carries every shared filter as an optional member, generated from core.explore.spec.SPEC through
the query arguments' own schemas (api.arguments.filter_schema), and checked by the one filter parser."""
from __future__ import annotations

import copy

from flask.views import MethodView
from marshmallow import ValidationError, fields, validate

from api.agent_schemas import ParseBriefAnswerSchema, RecommendAnswerSchema
from api.arguments import NOT_BLANK, Blueprint, RequestSchema
from api.bodies import JsonInteger, longest
from api.filter_args import filter_schema
from core.campaigns.brief import MAX_BRIEF, parse_brief
from core.campaigns.recommend import DEFAULT_SAMPLE, MAX_SAMPLE, recommend
from core.explore.filters import parse_filters
from core.explore.spec import EXCLUSIONS, HELP, SPEC
from core.ingest.rows import text_limit

PAID = "402 when the balance is below the price; 403 while the company's AI usage is paused"
JSON_TYPES = {"strings": (list, str), "ints": (list, int), "all_of": (str, None), "exact": (str, None),
              "partial": (str, None), "string": (str, None), "int": (int, None), "datetime": (str, None),
              "bool": (bool, None)}
"""Filter kind -> the JSON type of its body member, and of its items for a list."""


def _not_blank(text: str) -> None:
    if not text.strip():
        raise ValidationError("The brief may not be blank.")


class FilterMember(fields.Raw):
    """A shared filter as a body member: its JSON type and the length of its texts are checked here, its value by
    parse_filters (one parser)."""

    def __init__(self, kind: str, max_length: int, **kwargs):
        super().__init__(allow_none=True, **kwargs)
        self.kind, self.length = kind, validate.Length(max=max_length)

    def _deserialize(self, value, attr, data, **kwargs):
        outer, inner = JSON_TYPES[self.kind]
        if not _of_type(value, outer) or (inner and not all(_of_type(item, inner) for item in value)):
            raise ValidationError(f"Not a valid {_type_name(outer, inner)}.")
        for text in (value if isinstance(value, list) else [value]):
            if isinstance(text, str):
                self.length(text)
        return value


def _of_type(value, kind: type) -> bool:
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _type_name(outer: type, inner: type | None) -> str:
    names = {list: "list", str: "string", int: "integer", bool: "boolean"}
    return f"list of {names[inner]}s" if inner else names[outer]


def _member_schema(name: str, max_length: int) -> dict:
    """A filter's body schema from its query argument's: the same types, enums and bounds, never blank, and no text
    longer than `max_length`."""
    schema = copy.deepcopy(filter_schema(name))
    schema.pop("description", None)
    values = schema.get("items", schema) if schema.get("type") == "array" else schema
    if values.get("type") == "string" and not {"enum", "format", "pattern"} & values.keys():
        values.update(NOT_BLANK)
    for text in values.get("anyOf", [values]):
        if text.get("type") == "string":
            text["maxLength"] = max_length
    return schema


def _max_length(name: str) -> int:
    """The longest text a filter takes: its longest choice, or the longest value an import keeps of its field."""
    schema = filter_schema(name)
    values = schema.get("items", schema)
    return longest(values["enum"]) if "enum" in values else text_limit(EXCLUSIONS.get(name, name))


def filter_members() -> dict:
    """Every shared filter as an optional, nullable body member (the one definition is SPEC)."""
    members = {}
    for name in SPEC:
        limit = _max_length(name)
        members[name] = FilterMember(SPEC[name][0], limit, metadata={**_member_schema(name, limit),
                                                                      "description": HELP[name]})
    return members


def brief_field() -> fields.Str:
    """The brief member of both requests (a field per schema: marshmallow binds a field to its schema)."""
    return fields.Str(required=True, validate=[validate.Length(min=1, max=MAX_BRIEF), _not_blank],
                      metadata={"pattern": NOT_BLANK["pattern"], "description": "the advertiser's brief"})


class ParseBriefRequestSchema(RequestSchema):
    brief = brief_field()


class RecommendDatesSchema(RequestSchema):
    """The campaign's dates as the client reads them: a reading of a question parse-brief asked, or other dates."""

    start = fields.Date(required=True, metadata={"description": "first day, YYYY-MM-DD"})
    end = fields.Date(required=True, metadata={"description": "last day, YYYY-MM-DD"})


RecommendRequestSchema = RequestSchema.from_dict({
    "brief": brief_field(),
    "sample_size": JsonInteger(load_default=DEFAULT_SAMPLE, validate=validate.Range(1, MAX_SAMPLE), metadata={
        "description": "listeners sampled for the churn mix and the themes of messages"}),
    "dates": fields.Nested(RecommendDatesSchema, metadata={
        "description": "the campaign's dates, in place of the brief's: how a client answers a question about them "
                       "(parse-brief's `questions`); refused (422) when they lie wholly in the past"}),
    **filter_members(),
}, name="RecommendRequestSchema")

blp = Blueprint("campaign_agent", __name__, url_prefix="/api/v1/agent",
                description="The campaign agent: briefs parsed into filters, and recommendations, metered by credits")


@blp.route("/<company:company_id>/parse-brief")
class ParseBrief(MethodView):
    @blp.arguments(ParseBriefRequestSchema, as_kwargs=False)
    @blp.response(200, ParseBriefAnswerSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    def post(self, body: dict, company_id: int):
        """Structured targeting criteria extracted from the brief"""
        return parse_brief(company_id, body["brief"])


@blp.route("/<company:company_id>/recommend")
class Recommend(MethodView):
    @blp.arguments(RecommendRequestSchema, as_kwargs=False)
    @blp.response(200, RecommendAnswerSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    def post(self, body: dict, company_id: int):
        """Campaign recommendation from the brief and the filtered audience; cached 24 hours"""
        flt = parse_filters({name: body[name] for name in SPEC if name in body}, location="body")
        return recommend(company_id, body["brief"], body["sample_size"], flt, body.get("dates"))
