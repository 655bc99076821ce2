"""The station overview: totals, the segment distribution, insights, tags and the movements of the latest run."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from core.history.query import SPANS, segment_trends
from core.segmentation import overview
from core.segmentation.requested import SegmentationBusy, segmentation_status, start_segmentation
from core.segmentation.rules import LABELS
from webapp.asking import asked
from webapp.charts import TrendArgs, flow_matrix, overview_trends
from webapp.helpers import open_station, render_htmx

bp = Blueprint("overview", __name__)


@bp.get("/")
@login_required
def index():
    """Home: the station picker, which goes straight on to the only station of a single-station user."""
    return redirect(url_for("auth.stations"))


@bp.get("/stations/<int:company_id>/")
@login_required
def page(company_id: int):
    """The overview page, its trends by week or month over the chosen weeks (`?interval=&weeks=`); with HX-Request
    alone (a refresh), only its body."""
    station = open_station(company_id)
    chosen = asked(TrendArgs())
    trends = segment_trends(company_id, chosen["interval"], chosen["weeks"])
    base = url_for("explorer.page", company_id=company_id)
    return render_htmx("overview/page.html", "overview/_fragment.html", station=station,
                       segmentation=segmentation_status(company_id), **overview.station_overview(company_id),
                       trends=trends, trend_charts=overview_trends(trends, base, LABELS), SPANS=SPANS,
                       flows=flow_matrix(trends["moves"], base, LABELS),
                       trend_url=url_for(".page", company_id=company_id))


@bp.get("/stations/<int:company_id>/segmentation")
@login_required
def segmentation(company_id: int):
    """The run panel alone: what the page polls while a run is under way (any worker can answer it)."""
    station = open_station(company_id)
    return render_template("overview/_run.html", station=station, segmentation=segmentation_status(company_id))


@bp.post("/stations/<int:company_id>/segmentation")
@login_required
def start(company_id: int):
    """Start a segmentation run (CSRF-checked); a click while one runs starts nothing and shows the one running."""
    station = open_station(company_id)
    try:
        start_segmentation(company_id, actor=current_user.email)
    except SegmentationBusy:
        pass  # the panel below shows the run under way, which is what the producer wanted to see
    if request.headers.get("HX-Request") != "true":
        return redirect(url_for("overview.page", company_id=company_id))
    return render_template("overview/_run.html", station=station, segmentation=segmentation_status(company_id))
