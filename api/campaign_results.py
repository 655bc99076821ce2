"""A saved audience's campaign, over /api/v1/audiences/{company_id}/{audience_id}: when it runs and what counts as a
response (`campaign`), and its results against the holdout (`results`): the arms, the lift with its 95% interval, a
verdict in words (core.audiences.results)."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields

from api.arguments import NOT_BLANK, Blueprint, RequestSchema, Whole
from api.bodies import JsonNumber
from core.audiences.campaign import HOPED_LIFT_POINTS, HOPED_LIMITS, LONGEST_DAYS
from core.audiences.results import audience_results
from core.audiences.store import record_campaign
from core.explore.spec import SPEC
from core.ingest.rows import text_limit

DAY = "YYYY-MM-DD, on the station's calendar"
DATE_CHARS = len("YYYY-MM-DD")
GOAL_TEXTS = {
    "campaign_type": "a response is an interaction of this campaign type (one of the station's; case ignored)",
    "channel_type": "a response is an interaction on this channel",
    "timeslot_id": "a response is an interaction during this show",
}


def day_field(description: str, required: bool = False) -> fields.Date:
    """A day given as YYYY-MM-DD (the document bounds its length, as every string's)."""
    return fields.Date(required=required, metadata={"maxLength": DATE_CHARS, "description": description})


def goal_fields() -> dict:
    """The goal's three fields, for the recorded campaign and the results' query alike: each given narrows what
    counts as a response, together."""
    return {"campaign_type": fields.Str(metadata={**NOT_BLANK, "maxLength": text_limit("campaign_type"),
                                                  "description": GOAL_TEXTS["campaign_type"]}),
            **{name: Whole(*SPEC[name][2], metadata={"description": GOAL_TEXTS[name]})
               for name in ("channel_type", "timeslot_id")}}


class CampaignRequestSchema(RequestSchema.from_dict({
        "starts": day_field(f"the campaign's first day, {DAY}: not before the day the audience was made (what "
                            "members did before it existed is no response)", required=True),
        "ends": day_field(f"its last day, included: not before `starts`; a campaign runs at most {LONGEST_DAYS} days"),
        "hoped_lift_points": JsonNumber(load_default=HOPED_LIFT_POINTS, metadata={
            "minimum": HOPED_LIMITS[0], "maximum": HOPED_LIMITS[1],
            "description": "the lift the plan hopes for, in percentage points: the results say how many listeners "
                           "it needs"}),
        **goal_fields()})):
    """When an audience's campaign runs and what counts as a response; the results compare the arms over it, from
    the moment the audience was made at the earliest."""


class CampaignSchema(Schema):
    starts = fields.Str(allow_none=True, metadata={"description": DAY})
    ends = fields.Str(allow_none=True, metadata={"description": DAY})
    campaign_type = fields.Str(allow_none=True)
    channel_type = fields.Int(allow_none=True)
    timeslot_id = fields.Int(allow_none=True)
    hoped_lift_points = fields.Float()


class AudienceNamedSchema(Schema):
    """Which audience an answer is of."""

    company_id = fields.Int()
    audience_id = fields.Str()
    name = fields.Str()


class CampaignRecordedSchema(AudienceNamedSchema):
    campaign = fields.Nested(CampaignSchema)


class ResultsArgsSchema(RequestSchema.from_dict({
        "from": day_field(f"first day counted, {DAY} (default: the campaign's `starts`); whatever it asks, nothing "
                          "before the audience was made is counted (`window.counted_from`)"),
        "to": day_field(f"last day counted, {DAY} (default: the campaign's `ends`, else today): not before the "
                        "day the audience was made"),
        **goal_fields()})):
    """The results' window and goal, over those recorded."""


class ArmSchema(Schema):
    members = fields.Int(metadata={"description": "members counted (live, and listeners when the audience was made)"})
    responded = fields.Int(metadata={"description": "members with a response in the window"})
    rate = fields.Float(allow_none=True, metadata={"description": "responded / members (null: no members)"})


class ArmsSchema(Schema):
    target = fields.Nested(ArmSchema)
    holdout = fields.Nested(ArmSchema)


class LiftSchema(Schema):
    absolute = fields.Float(metadata={"description": "the target's rate less the holdout's (0.031: 3.1 points)"})
    relative = fields.Float(allow_none=True, metadata={"description": "absolute / the holdout's rate (null: no one "
                                                                      "in the holdout responded)"})
    interval = fields.List(fields.Float(), metadata={"description": "95% interval of `absolute` (Agresti-Caffo)"})
    p_value = fields.Float(metadata={"description": "two-sided, of no difference (Agresti-Caffo)"})
    significant = fields.Bool(metadata={"description": "the interval leaves out 0"})


class SampleSizeSchema(Schema):
    target = fields.Int()
    holdout = fields.Int()
    lift = fields.Float(metadata={"description": "the lift hoped for, as a share"})
    power = fields.Float()


class ResultsWindowSchema(Schema):
    start = fields.Str(attribute="from", data_key="from")
    end = fields.Str(attribute="to", data_key="to")
    timezone = fields.Str()
    running = fields.Bool(metadata={"description": "the window goes on past today"})
    days_counted = fields.Int()
    hoped_lift_points = fields.Float()
    counted_from = fields.Str(metadata={"description": "ISO 8601, with the station's offset: the moment counting "
                                                       "starts, never before the audience was made, whatever `from` "
                                                       "asks"})
    counted_words = fields.Str(metadata={"description": "from when the results count, in words (and who counts "
                                                        "from later: members who joined at a refresh)"})


class GoalSchema(Schema):
    campaign_type = fields.Str(allow_none=True)
    channel_type = fields.Int(allow_none=True)
    timeslot_id = fields.Int(allow_none=True)
    words = fields.Str(metadata={"description": "what counts as a response, in words"})


class ResultsDaySchema(Schema):
    date = fields.Str()
    target = fields.Nested(ArmSchema)
    holdout = fields.Nested(ArmSchema)


class ResultsSchema(AudienceNamedSchema):
    campaign = fields.Nested(CampaignSchema, allow_none=True, metadata={
        "description": "the campaign recorded; null: none is, and nothing is counted (`arms`, `window`, `goal` "
                       "null, `reason` says so)"})
    holdout_percent = fields.Int()
    arms = fields.Nested(ArmsSchema, allow_none=True, metadata={"description": "null: no campaign recorded"})
    lift = fields.Nested(LiftSchema, allow_none=True, metadata={"description": "null: nothing to compare (`reason`)"})
    sample_size = fields.Nested(SampleSizeSchema, allow_none=True, metadata={
        "description": "members each arm needs to see the hoped-for lift at 95% confidence and 80% power"})
    verdict = fields.Str(metadata={"description": "what the figures say, in words"})
    reason = fields.Str(allow_none=True, metadata={"description": "why there is no lift, when there is none (no "
                                                                  "campaign recorded, no holdout, not started)"})
    excluded = fields.Dict(keys=fields.Str(), values=fields.Int(), allow_none=True, metadata={
        "description": "members counted in neither arm: `joined_after`, listeners who joined the station after the "
                       "audience was made"})
    window = fields.Nested(ResultsWindowSchema, allow_none=True)
    goal = fields.Nested(GoalSchema, allow_none=True)
    daily = fields.List(fields.Nested(ResultsDaySchema), metadata={
        "description": "each day counted: of the window, from the day the audience was made at the earliest, to today"})


blp = Blueprint("campaign_results", __name__, url_prefix="/api/v1/audiences",
                description="A saved audience's campaign: its window and goal, and its results against the holdout")


@blp.route("/<company:company_id>/<audience_id>/campaign")
class AudienceCampaign(MethodView):
    @blp.arguments(CampaignRequestSchema)
    @blp.response(200, CampaignRecordedSchema)
    def put(self, body: dict, company_id: int, audience_id: str):
        """Record when the audience's campaign runs and what counts as a response, replacing what was recorded"""
        return record_campaign(company_id, audience_id, body)


@blp.route("/<company:company_id>/<audience_id>/results")
class AudienceResults(MethodView):
    @blp.arguments(ResultsArgsSchema, location="query")
    @blp.response(200, ResultsSchema)
    def get(self, args: dict, company_id: int, audience_id: str):
        """The campaign's results: each arm's response over the window, the lift with its 95% interval, a verdict"""
        return audience_results(company_id, audience_id, args)
