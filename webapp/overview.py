"""The station overview: totals, the segment distribution, insights, tags and the movements of the latest run."""
from __future__ import annotations

from flask import Blueprint, redirect, url_for
from flask_login import login_required

from core.segmentation import overview
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
    """The overview page; with HX-Request alone (a refresh), only its body."""
    station = open_station(company_id)
    return render_htmx("overview/page.html", "overview/_fragment.html", station=station,
                       **overview.station_overview(company_id))
