"""Station overview: /api/v1/segments/{company_id}/summary, breakdown, insights, tags and history."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.arguments import Blueprint, RequestSchema
from core.history.query import INTERVALS, segment_history
from core.segmentation import overview


class SummarySchema(Schema):
    company_id = fields.Int()
    total_listeners = fields.Int()
    as_of = fields.Str(allow_none=True, metadata={"description": "reference time of the latest segmentation"})
    segments = fields.Dict(keys=fields.Str(), values=fields.Int(), metadata={"description": "count per segment key"})


class AveragesSchema(Schema):
    recency_days = fields.Float(allow_none=True)
    interactions_30d = fields.Float(allow_none=True)
    interactions_90d = fields.Float(allow_none=True)
    channels = fields.Float(allow_none=True)
    competition_share = fields.Float(allow_none=True)
    rfm_recency = fields.Float(allow_none=True)
    rfm_frequency = fields.Float(allow_none=True)
    rfm_engagement = fields.Float(allow_none=True)
    churn = fields.Float(allow_none=True, metadata={"description": "mean chance of going quiet in the next 30 days"})


class SegmentStatsSchema(Schema):
    segment = fields.Str()
    label = fields.Str()
    meaning = fields.Str()
    count = fields.Int()
    percentage = fields.Float()
    averages = fields.Nested(AveragesSchema)
    expected_quiet = fields.Int(allow_none=True, metadata={
        "description": "how many of the segment are expected to go quiet within churn_horizon_days (the sum of "
                       "their chances; null before a run scored them)"})


class BreakdownSchema(Schema):
    company_id = fields.Int()
    total_listeners = fields.Int()
    as_of = fields.Str(allow_none=True)
    segments = fields.List(fields.Nested(SegmentStatsSchema))
    churn_horizon_days = fields.Int(metadata={"description": "the days within which expected_quiet counts going "
                                                            "quiet (the station's setting, 30 by default)"})


class InsightSchema(Schema):
    segment = fields.Str()
    label = fields.Str()
    count = fields.Int()
    percentage = fields.Float()
    explanation = fields.Str()
    recommended_action = fields.Str()


class InsightsSchema(Schema):
    company_id = fields.Int()
    total_listeners = fields.Int()
    as_of = fields.Str(allow_none=True)
    headline = fields.Str()
    insights = fields.List(fields.Nested(InsightSchema))


class TagCountSchema(Schema):
    tag = fields.Str()
    total = fields.Int()
    segments = fields.Dict(keys=fields.Str(), values=fields.Int())


class TagsSchema(Schema):
    company_id = fields.Int()
    as_of = fields.Str(allow_none=True)
    tags = fields.List(fields.Nested(TagCountSchema))


class HistoryArgsSchema(RequestSchema):
    start = fields.Date(data_key="from", metadata={
        "description": "first day, YYYY-MM-DD, in the station's time zone (default: 13 months before `to`); a `from` "
                       "after `to` is a span of no day, answered with no points"})
    end = fields.Date(data_key="to", metadata={"description": "last day, YYYY-MM-DD, in the station's time zone "
                                                              "(default: the station's today)"})
    interval = fields.Str(load_default="week", validate=validate.OneOf(INTERVALS), metadata={
        "description": "a point per day, ISO week or month: the last point of each, with the moves, new and lost "
                       "listeners of all its points"})


Moves = fields.Dict(keys=fields.Str(), values=fields.Dict(keys=fields.Str(), values=fields.Int()), metadata={
    "description": "{from segment: {to segment: listeners}}; `new` as a from: listeners heard for the first time"})


class HistoryPointSchema(Schema):
    date = fields.Str(metadata={"description": "YYYY-MM-DD in the station's time zone: the day counted"})
    total = fields.Int(metadata={"description": "listeners heard from by then"})
    segments = fields.Dict(keys=fields.Str(), values=fields.Int(), metadata={"description": "count per segment key"})
    new = fields.Int(metadata={"description": "listeners heard for the first time in the interval"})
    lost = fields.Int(metadata={"description": "listeners who became dormant in the interval"})
    moves = Moves


class HistorySchema(Schema):
    company_id = fields.Int()
    interval = fields.Str()
    timezone = fields.Str()
    points = fields.List(fields.Nested(HistoryPointSchema))
    moves = Moves
    start = fields.Str(attribute="from", data_key="from")
    end = fields.Str(attribute="to", data_key="to")


blp = Blueprint("segments", __name__, url_prefix="/api/v1/segments", description="Segments of a station")


@blp.route("/<company:company_id>/summary")
class Summary(MethodView):
    @blp.response(200, SummarySchema)
    def get(self, company_id: int):
        """Total listeners and count per segment"""
        return overview.station_summary(company_id)


@blp.route("/<company:company_id>")
class Breakdown(MethodView):
    @blp.response(200, BreakdownSchema)
    def get(self, company_id: int):
        """Full segment breakdown with average statistics per segment"""
        return overview.segment_breakdown(company_id)


@blp.route("/<company:company_id>/insights")
class Insights(MethodView):
    @blp.response(200, InsightsSchema)
    def get(self, company_id: int):
        """Segment distribution with percentages and plain-English explanations"""
        return overview.segment_insights(company_id)


@blp.route("/<company:company_id>/tags")
class Tags(MethodView):
    @blp.response(200, TagsSchema)
    def get(self, company_id: int):
        """All tags with their counts per segment"""
        return overview.segment_tags(company_id)


@blp.route("/<company:company_id>/history")
class History(MethodView):
    @blp.arguments(HistoryArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, HistorySchema)
    def get(self, args: dict, company_id: int):
        """Segment sizes over time (by day, week or month), with new and lost listeners and the moves between
        segments"""
        return segment_history(company_id, args.get("start"), args.get("end"), args["interval"])
