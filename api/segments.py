"""Station overview: /api/v1/segments/{company_id}/summary, breakdown, insights and tags."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api.schemas import (BreakdownSchema, InsightsSchema, SummarySchema, TagsSchema)
from core import overview

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
