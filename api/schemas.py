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


class FilterPageSchema(Schema):
    total = fields.Int()
    page = fields.Int()
    page_size = fields.Int()
    pages = fields.Int()
    listeners = fields.List(fields.Dict(), metadata={"description": "listener records: declared fields, tags, "
                                                                     "flags, behavioural profile, segment, RFM, "
                                                                     "inferred values with confidences"})


class AggregateSchema(Schema):
    class Meta:
        unknown = "include"

    total = fields.Int()
    segment = fields.Dict(keys=fields.Str(), values=fields.Int())
    timeslot_counts = fields.Dict(keys=fields.Str(), values=fields.Dict(),
                                  metadata={"description": "timeslot ID -> {title, count}"})
    channel_type = fields.Dict(keys=fields.Str(), values=fields.Dict(),
                               metadata={"description": "primary channel ID -> {name, count}"})
    has_channel = fields.Dict(keys=fields.Str(), values=fields.Dict())
    gender = fields.Dict()
    age_group = fields.Dict()
    ethnicity = fields.Dict()
    language = fields.Dict()
    location = fields.Dict()
    income_bracket = fields.Dict()
    education = fields.Dict()
    employment_status = fields.Dict()
    inferred_gender = fields.Dict()
    inferred_age_group = fields.Dict()
    inferred_language = fields.Dict()
    inferred_location = fields.Dict()
    inferred_lsm = fields.Dict()
    inferred_interests = fields.Dict()
    tags = fields.Dict()
    campaign_type = fields.Dict()
    peak_time_of_day = fields.Dict()
    peak_hour = fields.Dict()
    primary_day_of_week = fields.Dict()
    peak_month = fields.Dict()
    public_holiday = fields.Dict()
    missing_fields = fields.Dict()
    permission = fields.Dict()
    opt_in = fields.Dict()
    profile_complete = fields.Dict()
    weekday_pattern = fields.Dict()


class ShareSchema(Schema):
    count = fields.Int()
    percentage = fields.Float()


class FieldCompletenessSchema(Schema):
    filled = fields.Int()
    filled_percentage = fields.Float()
    missing = fields.Int()
    missing_percentage = fields.Float()


class CompletenessSchema(Schema):
    total = fields.Int()
    complete = fields.Nested(ShareSchema)
    incomplete = fields.Nested(ShareSchema)
    fields_ = fields.Dict(data_key="fields", attribute="fields", keys=fields.Str(),
                          values=fields.Nested(FieldCompletenessSchema))


class ChannelUseSchema(Schema):
    channel_type = fields.Int()
    name = fields.Str()
    listeners = fields.Int()
    percentage = fields.Float()
    unique = fields.Int(metadata={"description": "listeners of the filtered set who use no other channel"})
    unique_percentage = fields.Float()


class ChannelPairSchema(Schema):
    channels = fields.List(fields.Int())
    names = fields.List(fields.Str())
    listeners = fields.Int()
    percentage = fields.Float()


class CrossChannelSchema(Schema):
    total = fields.Int()
    channels = fields.List(fields.Nested(ChannelUseSchema))
    pairs = fields.List(fields.Nested(ChannelPairSchema))


class SegmentAssignmentSchema(Schema):
    key = fields.Str()
    label = fields.Str()
    meaning = fields.Str()
    reasons = fields.List(fields.Str())
    rfm = fields.Dict(keys=fields.Str(), values=fields.Int())


class HistoryEntrySchema(Schema):
    from_ = fields.Str(data_key="from", attribute="from", allow_none=True)
    to = fields.Str()
    at = fields.Str()


class ListenerSchema(Schema):
    company_id = fields.Int()
    originator = fields.Str()
    declared = fields.Dict()
    tags = fields.List(fields.Str())
    permission = fields.Bool(allow_none=True)
    opt_in = fields.Bool(allow_none=True)
    inferred = fields.Dict(metadata={"description": "inferred_* -> {value, confidence} or null"})
    segment = fields.Nested(SegmentAssignmentSchema, allow_none=True)
    profile = fields.Dict(allow_none=True, metadata={"description": "behavioural profile"})
    channel_names = fields.Dict(keys=fields.Str(), values=fields.Str())
    segment_history = fields.List(fields.Nested(HistoryEntrySchema))


class ErasureReceiptSchema(Schema):
    erased = fields.Bool()
    pseudonym = fields.Str()
    suppressed = fields.Bool()
    stores = fields.Dict(keys=fields.Str(), values=fields.Int(), metadata={"description": "records touched per store"})
    at = fields.Str()
