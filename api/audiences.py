"""Saved audiences: /api/v1/audiences/{company_id}, a theme's listeners saved with the strategy that found them;
listed without members, read with members enriched, refreshed by re-running the strategy, deleted. Creating and
refreshing are charged in credits."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields

from api.ai import PAID, MeteredFields
from api.arguments import NOT_BLANK, Blueprint, RequestSchema
from api.bodies import JsonInteger, JsonNumber
from api.campaign_results import AudienceNamedSchema, CampaignRequestSchema, CampaignSchema
from api.custom_segments import SCORE, QueryUseSchema, description_field, theme_field
from api.filter_args import FilterArgs
from api.search import CoverageFields
from core.audiences.arms import HOLDOUT, HOLDOUT_LIMITS, HOLDOUT_PERCENT, TARGET
from core.audiences.rules import AUDIENCE_LIMIT, AUDIENCE_LIMITS, EXPIRY_DAYS, EXPIRY_LIMITS, MIN_SCORE, NAME_MAX
from core.audiences.store import (
    create_audience,
    delete_audience,
    get_audience,
    list_audiences,
    refresh_audience,
)


class CreateAudienceRequestSchema(RequestSchema):
    name = fields.Str(required=True, metadata={**NOT_BLANK, "maxLength": NAME_MAX,
                                               "description": "unique per station, ignoring case"})
    theme = theme_field()
    description = description_field()
    limit = JsonInteger(load_default=AUDIENCE_LIMIT, metadata={"minimum": AUDIENCE_LIMITS[0],
                                                               "maximum": AUDIENCE_LIMITS[1]})
    min_score = JsonNumber(load_default=MIN_SCORE, metadata=SCORE)
    expiry_days = JsonInteger(load_default=EXPIRY_DAYS, metadata={
        "minimum": EXPIRY_LIMITS[0], "maximum": EXPIRY_LIMITS[1],
        "description": "days until the audience is marked expired (still readable; a refresh renews it)"})
    holdout_percent = JsonInteger(load_default=HOLDOUT_PERCENT, metadata={
        "minimum": HOLDOUT_LIMITS[0], "maximum": HOLDOUT_LIMITS[1],
        "description": "the share of members, at random, held out of the campaign and never exported or sent "
                       "(each listener's arm is kept by every refresh); 0: no holdout"})
    campaign = fields.Nested(CampaignRequestSchema, metadata={
        "description": "when the campaign runs and what counts as a response (may be recorded later)"})


class ChangeCountsSchema(Schema):
    joined = fields.Int()
    left = fields.Int()
    stayed = fields.Int()


class AudienceSummarySchema(Schema):
    audience_id = fields.Str()
    company_id = fields.Int()
    name = fields.Str()
    theme = fields.Str()
    description = fields.Str(allow_none=True)
    limit = fields.Int()
    min_score = fields.Float()
    expiry_days = fields.Int()
    filters = fields.Dict(metadata={"description": "the saved filters: parameter -> value(s)"})
    queries = fields.List(fields.Nested(QueryUseSchema), metadata={"description": "the saved search queries"})
    provider = fields.Str(metadata={"description": "who made the queries: local, openai or given"})
    model = fields.Str(allow_none=True)
    member_count = fields.Int()
    reachable = fields.Int(metadata={"description": "members with both opt-in and permission"})
    holdout_percent = fields.Int(metadata={"description": "the share of members held out of the campaign"})
    target_count = fields.Int(metadata={"description": "members the campaign may contact: the only ones exported or "
                                                       "sent"})
    holdout_count = fields.Int(metadata={"description": "members held out: never exported or sent"})
    campaign = fields.Nested(CampaignSchema, metadata={
        "description": "when the campaign runs and what counts as a response (nulls: not recorded)"})
    plan_id = fields.Str(allow_none=True, metadata={"description": "the saved plan the audience was made from"})
    created_at = fields.Str(metadata={"description": "ISO 8601, UTC"})
    refreshed_at = fields.Str(allow_none=True)
    expires_at = fields.Str()
    status = fields.Str(metadata={"enum": ["active", "expired"]})
    last_changes = fields.Nested(ChangeCountsSchema, allow_none=True,
                                 metadata={"description": "what the last refresh changed (null: never refreshed)"})


class MemberSchema(Schema):
    originator = fields.Str()
    score = fields.Float()
    query = fields.Str(allow_none=True, metadata={"description": "the saved query that scored the member best"})
    segment = fields.Str(allow_none=True)
    gender = fields.Str(allow_none=True)
    age_group = fields.Str(allow_none=True)
    language = fields.Str(allow_none=True)
    location = fields.Str(allow_none=True)
    inferred_gender = fields.Str(allow_none=True)
    inferred_age_group = fields.Str(allow_none=True)
    inferred_language = fields.Str(allow_none=True)
    inferred_location = fields.Str(allow_none=True)
    inferred_lsm = fields.Str(allow_none=True)
    inferred_interests = fields.List(fields.Str())
    channels = fields.List(fields.Str(), metadata={"description": "names of the channels the listener uses"})
    opt_in = fields.Bool(allow_none=True)
    permission = fields.Bool(allow_none=True)
    reachable = fields.Bool(metadata={"description": "opt-in and permission both given"})
    arm = fields.Str(metadata={"enum": [TARGET, HOLDOUT], "description": "target: the campaign may contact the "
                                                                         "listener; holdout: never contacted"})


class AudienceListSchema(Schema):
    company_id = fields.Int()
    total = fields.Int()
    audiences = fields.List(fields.Nested(AudienceSummarySchema), metadata={"description": "newest first"})


class AudienceTraitSchema(Schema):
    words = fields.Str(metadata={"description": "the words of the theme"})
    field = fields.Str(metadata={"description": "the shared filter they name"})
    labels = fields.List(fields.Str(), metadata={"description": "the values, as the station names them"})
    members = fields.Int(metadata={"description": "how many members have it"})


class AudienceSchema(AudienceSummarySchema):
    traits = fields.List(fields.Nested(AudienceTraitSchema), metadata={
        "description": "each thing the theme asks for, read as search reads it, with how many members have it"})
    members = fields.List(fields.Nested(MemberSchema), metadata={"description": "best score first"})


class AudienceSpentSchema(AudienceSchema, MeteredFields, CoverageFields):
    """The audience, and what creating or refreshing it cost (its provider and model are the strategy's)."""


class ChangesSchema(Schema):
    joined = fields.List(fields.Str(), metadata={"description": "new members, best first"})
    left = fields.List(fields.Str(), metadata={"description": "members no longer found"})
    stayed = fields.Int()


class RefreshedSchema(AudienceSpentSchema):
    changes = fields.Nested(ChangesSchema)


class DeletedSchema(AudienceNamedSchema):
    deleted = fields.Bool()


blp = Blueprint("saved_audiences", __name__, url_prefix="/api/v1/audiences",
                description="Saved audiences: a theme's listeners with the strategy that found them")


@blp.route("/<company:company_id>")
class Audiences(MethodView):
    @blp.response(200, AudienceListSchema)
    def get(self, company_id: int):
        """All audiences of the company, member lists omitted"""
        return list_audiences(company_id)

    @blp.arguments(FilterArgs, location="query", as_kwargs=False)
    @blp.arguments(CreateAudienceRequestSchema)
    @blp.response(200, AudienceSpentSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    @blp.alt_response(409, response="CONFLICT", description="the station already has an audience of that name")
    def post(self, args: dict, body: dict, company_id: int):
        """Create and save an audience from a theme, within the filters given as query parameters"""
        return create_audience(company_id, flt=args["flt"], **body)


@blp.route("/<company:company_id>/<audience_id>")
class Audience(MethodView):
    @blp.response(200, AudienceSchema)
    def get(self, company_id: int, audience_id: str):
        """One audience with members enriched with profile data"""
        return get_audience(company_id, audience_id)

    @blp.response(200, DeletedSchema)
    def delete(self, company_id: int, audience_id: str):
        """Delete an audience; cannot be undone"""
        return delete_audience(company_id, audience_id)


@blp.route("/<company:company_id>/<audience_id>/refresh")
class AudienceRefresh(MethodView):
    @blp.response(200, RefreshedSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    def put(self, company_id: int, audience_id: str):
        """Re-run the audience's saved search strategy; answers who joined, who left and how many stayed"""
        return refresh_audience(company_id, audience_id)
