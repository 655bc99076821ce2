"""The glossary: every segment, measure and filter of the dashboard explained in one line, on one page."""
from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import login_required

from core.explore.glossary import glossary
from webapp.labels import title

bp = Blueprint("glossary", __name__)


@bp.get("/glossary")
@login_required
def page():
    """The segments in the order their rules are tried, the measures and the filters, each with its explanation."""
    return render_template("glossary/page.html", **glossary(title))
