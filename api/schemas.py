"""Marshmallow schemas of the API: request arguments (XArgsSchema) and response bodies (XSchema)."""
from __future__ import annotations

from marshmallow import Schema, fields

SEGMENT_KEYS = ("new_listener", "super_fan", "show_loyalist", "competition_chaser", "occasional_engager", "at_risk",
                "dormant")


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


class SegmentStatsSchema(Schema):
    segment = fields.Str()
    label = fields.Str()
    meaning = fields.Str()
    count = fields.Int()
    percentage = fields.Float()
    averages = fields.Nested(AveragesSchema)


class BreakdownSchema(Schema):
    company_id = fields.Int()
    total_listeners = fields.Int()
    as_of = fields.Str(allow_none=True)
    segments = fields.List(fields.Nested(SegmentStatsSchema))


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
