"""A segment's page: its composite profile set against the whole station, what sets it apart in plain English, and
each value a link into the explorer narrowed to the segment's listeners with it."""
from __future__ import annotations

from flask import Blueprint, url_for
from flask_login import login_required

from api.intelligence import ProfileArgsSchema
from core.errors import NotFound
from core.explore.spec import SPEC
from core.history.query import SPANS, segment_trends
from core.intelligence.risk import station_backtest
from core.intelligence.segment_profile import GROUPS, segment_profile
from core.segmentation.overview import segment_breakdown
from core.segmentation.rules import LABELS, SEGMENTS
from webapp.asking import asked
from webapp.charts import FEWEST_FOR_A_SHARE, TrendArgs, flow_matrix, segment_trend_charts, with_filter
from webapp.helpers import open_station, render_htmx
from webapp.labels import title, value_label

bp = Blueprint("segment", __name__)

GROUP_TITLES = {"declared": "Declared demographics", "inferred": "Inferred demographics",
                "channels": "Channel preferences", "interests": "Interests", "engagement": "Engagement patterns"}
SHOWN = 8  # values per chart, most common in the segment first; the table behind each chart lists them all


class SegmentPageArgs(ProfileArgsSchema, TrendArgs):
    """The listeners profiled (`limit`, as the API's profile takes it) and the trends chosen."""


@bp.get("/stations/<int:company_id>/segments/<segment_key>")
@login_required
def page(company_id: int, segment_key: str):
    """The segment's profile page (`?limit=` listeners profiled, the most engaged first); with HX-Request alone, its
    body. 404 for an unknown segment: its address is one a producer may type."""
    station = open_station(company_id)
    if segment_key not in SEGMENTS:
        raise NotFound("No such segment. The segments are listed on the overview.")
    args = asked(SegmentPageArgs())
    profile = segment_profile(company_id, segment_key, args["limit"])
    base = url_for("explorer.page", company_id=company_id)
    stats = next(row for row in segment_breakdown(company_id)["segments"] if row["segment"] == segment_key)
    trends = segment_trends(company_id, args["interval"], args["weeks"])
    return render_htmx("segment/page.html", "segment/_fragment.html", station=station, profile=profile,
                       trends=trends, trend_charts=segment_trend_charts(trends, segment_key, base, LABELS), SPANS=SPANS,
                       flows=flow_matrix(trends["moves"], base, LABELS), trend_segment=segment_key,
                       trend_url=url_for(".page", company_id=company_id, segment_key=segment_key),
                       stats=stats, FEWEST_FOR_A_SHARE=FEWEST_FOR_A_SHARE, churn_backtest=station_backtest(company_id),
                       groups=[{"key": g, "title": GROUP_TITLES[g], "charts": [chart(profile, name, base)
                                                                             for name in GROUPS[g]]} for g in GROUPS])


def chart(profile: dict, name: str, base: str) -> dict:
    """One facet as bars (the segment's share of each value) with the station's share and the lift beside it."""
    values = next(profile[g][name] for g in GROUPS if name in profile[g])
    top = max([v["segment_share"] for v in values if v["segment_count"] >= FEWEST_FOR_A_SHARE] or [0]) or 1
    pairs = [("segment", profile["segment"])]
    rows = [{"label": v.get("label") or value_label(name, v["value"]), "pct": 100 * v["segment_share"],
             "station_pct": 100 * v["station_share"], "count": v["segment_count"], "lift": v["lift"],
             "width": 100 * v["segment_share"] / top, "few": v["segment_count"] < FEWEST_FOR_A_SHARE,
             "url": with_filter(base, pairs, name, v["value"]) if v["value"] is not None and name in SPEC else None}
            for v in values]
    return {"name": name, "title": title(name), "rows": rows, "shown": rows[:SHOWN],
            "more": max(0, len(rows) - SHOWN)}
