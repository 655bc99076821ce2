"""Filtered listener operations: filter, aggregate, completeness, cross-channel and export."""
from __future__ import annotations

from flask import Response, request, stream_with_context
from flask.views import MethodView
from marshmallow import Schema, fields

from api.arguments import Blueprint
from api.filter_args import ExportArgs, FilterArgs, FilterPageArgs
from core.explore import operations as explorer
from core.explore.export import export_stream


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
    churn_risk = fields.Dict(metadata={"description": "listeners at each level of their chance of going quiet"})
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


blp = Blueprint("filters", __name__, url_prefix="/api/v1/segments",
                description="Filter, count and export listeners with the shared filter set")


@blp.route("/<company:company_id>/filter")
class Filter(MethodView):
    @blp.arguments(FilterPageArgs, location="query", as_kwargs=False)
    @blp.response(200, FilterPageSchema)
    def get(self, args: dict, company_id: int):
        """Paginated matching listeners"""
        return explorer.filter_listeners(company_id, args["flt"], args["page"], args["page_size"])


@blp.route("/<company:company_id>/aggregate")
class Aggregate(MethodView):
    @blp.arguments(FilterArgs, location="query", as_kwargs=False)
    @blp.response(200, AggregateSchema)
    def get(self, args: dict, company_id: int):
        """Breakdown counts for the filtered dataset"""
        return explorer.aggregate(company_id, args["flt"])


@blp.route("/<company:company_id>/completeness")
class Completeness(MethodView):
    @blp.arguments(FilterArgs, location="query", as_kwargs=False)
    @blp.response(200, CompletenessSchema)
    def get(self, args: dict, company_id: int):
        """Declared-profile completeness statistics scoped to the active filters"""
        return explorer.completeness(company_id, args["flt"])


@blp.route("/<company:company_id>/cross-channel")
class CrossChannel(MethodView):
    @blp.arguments(FilterArgs, location="query", as_kwargs=False)
    @blp.response(200, CrossChannelSchema)
    def get(self, args: dict, company_id: int):
        """Co-engagement matrix: listeners active on each pair of channels, with uniques and percentages"""
        return explorer.cross_channel(company_id, args["flt"])


def wants_csv(fmt: str | None) -> bool:
    """format=csv, or no format and an Accept header that prefers text/csv."""
    if fmt:
        return fmt == "csv"
    accept = request.accept_mimetypes
    return accept["text/csv"] > accept["application/json"]


@blp.route("/<company:company_id>/export")
class Export(MethodView):
    @blp.arguments(ExportArgs, location="query", as_kwargs=False)
    @blp.doc(responses={"200": {"description": "All matching listener records (JSON array or CSV), streamed"}})
    def get(self, args: dict, company_id: int):
        """All matching listener records, no pagination"""
        fmt = "csv" if wants_csv(args.get("format")) else "json"
        export = export_stream(company_id, args["flt"], args.get("channel_pair"), fmt)
        return Response(stream_with_context(export.chunks), mimetype=export.mimetype,
                        headers={"Content-Disposition": f'attachment; filename="{export.filename}"'})
