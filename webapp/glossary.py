"""The glossary: every segment, measure and filter of the dashboard explained in one line, on one page."""
from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user, login_required

from api.arguments import RequestSchema, Whole
from core.explore.glossary import glossary
from webapp.asking import asked
from webapp.helpers import open_station, stations_of
from webapp.labels import title

bp = Blueprint("glossary", __name__)


class GlossaryArgs(RequestSchema):
    station = Whole(1, 2**63 - 1, metadata={"description": "the station whose menu stays beside the glossary"})


@bp.get("/glossary")
@login_required
def page():
    """The segments in the order their rules are tried, the measures and the filters, each with its explanation;
    inside the station it was opened from (`?station=`, which the menu's link carries; a producer of one station is
    always in theirs), so the station's menu stays beside it."""
    chosen = asked(GlossaryArgs()).get("station", 0)
    mine = stations_of(current_user)
    if not chosen and len(mine) == 1:
        chosen = mine[0]["company_id"]
    context = {"station": open_station(chosen)} if chosen else {}
    return render_template("glossary/page.html", **glossary(title), **context)
