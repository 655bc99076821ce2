"""Filtered listener operations: filter, aggregate, completeness, cross-channel and export."""
from __future__ import annotations

from flask import Response, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from api.filter_params import EXPORT_PARAMETERS, FILTER_PARAMETERS, PAGE_PARAMETERS
from api.schemas import AggregateSchema, CompletenessSchema, CrossChannelSchema, FilterPageSchema
from core import explorer
from core.errors import ValidationFailed
from core.export import export_stream, parse_channel_pair
from core.filters import parse_filters

blp = Blueprint("filters", __name__, url_prefix="/api/v1/segments",
                description="Filter, count and export listeners with the shared filter set")


def _query() -> dict:
    return request.args.to_dict(flat=False)


@blp.route("/<company:company_id>/filter")
class Filter(MethodView):
    @blp.doc(parameters=FILTER_PARAMETERS + PAGE_PARAMETERS)
    @blp.response(200, FilterPageSchema)
    def get(self, company_id: int):
        """Paginated matching listeners"""
        flt, page, page_size = explorer.parse_filter_page(_query())
        return explorer.filter_listeners(company_id, flt, page, page_size)


@blp.route("/<company:company_id>/aggregate")
class Aggregate(MethodView):
    @blp.doc(parameters=FILTER_PARAMETERS)
    @blp.response(200, AggregateSchema)
    def get(self, company_id: int):
        """Breakdown counts for the filtered dataset"""
        return explorer.aggregate(company_id, parse_filters(_query()))


@blp.route("/<company:company_id>/completeness")
class Completeness(MethodView):
    @blp.doc(parameters=FILTER_PARAMETERS)
    @blp.response(200, CompletenessSchema)
    def get(self, company_id: int):
        """Declared-profile completeness statistics scoped to the active filters"""
        return explorer.completeness(company_id, parse_filters(_query()))


@blp.route("/<company:company_id>/cross-channel")
class CrossChannel(MethodView):
    @blp.doc(parameters=FILTER_PARAMETERS)
    @blp.response(200, CrossChannelSchema)
    def get(self, company_id: int):
        """Co-engagement matrix: listeners active on each pair of channels, with uniques and percentages"""
        return explorer.cross_channel(company_id, parse_filters(_query()))


def wants_csv() -> bool:
    """format=csv, or no format and an Accept header that prefers text/csv."""
    fmt = (request.args.get("format") or "").strip().lower()
    if fmt not in ("", "json", "csv"):
        raise ValidationFailed.one(["query", "format"], "Must be one of: json, csv.")
    if fmt:
        return fmt == "csv"
    accept = request.accept_mimetypes
    return accept["text/csv"] > accept["application/json"]


@blp.route("/<company:company_id>/export")
class Export(MethodView):
    @blp.doc(parameters=FILTER_PARAMETERS + EXPORT_PARAMETERS,
             responses={"200": {"description": "All matching listener records (JSON array or CSV), streamed"}})
    def get(self, company_id: int):
        """All matching listener records, no pagination"""
        flt, pair = parse_filters(_query()), parse_channel_pair(request.args.get("channel_pair"))
        export = export_stream(company_id, flt, pair, "csv" if wants_csv() else "json")
        return Response(stream_with_context(export.chunks), mimetype=export.mimetype,
                        headers={"Content-Disposition": f'attachment; filename="{export.filename}"'})
