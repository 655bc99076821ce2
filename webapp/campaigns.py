"""The station's campaigns on the campaign platform, for a user signed in with a platform account: each with its
dates, status, advertiser, budget, brief and whatever else short the platform says of it, and a link that starts a
brief from it on the briefs page. A local account has no campaigns here: the page says where they come from.

Everything shown is the platform's text, which Jinja escapes like any other."""
from __future__ import annotations

from urllib.parse import quote_plus

from flask import Blueprint, render_template, url_for
from flask_login import current_user, login_required

from core.access.platform_campaigns import brief_text, station_campaigns
from webapp.helpers import date_span, open_station

bp = Blueprint("campaigns", __name__)

MAX_QUERY = 3000
"""The longest brief a "Start a brief" link carries, URL-encoded: servers refuse request lines much over 4 KB
(gunicorn at 4094 bytes), so a longer brief is cut at a word and ends with "…"."""


@bp.get("/stations/<int:company_id>/campaigns")
@login_required
def page(company_id: int):
    """The station's campaigns of the signed-in platform user (None for a local account)."""
    station = open_station(company_id)
    mine = current_user.campaigns
    campaigns = None if mine is None else [shown(c, company_id) for c in station_campaigns(mine, company_id)]
    return render_template("campaigns/page.html", station=station, campaigns=campaigns)


def shown(campaign: dict, company_id: int) -> dict:
    """A campaign as the page lists it: its name, its dates and budget in words, and the link that starts a brief."""
    return {**campaign, "name": campaign.get("name") or "Untitled campaign",
            "dates": date_span(campaign.get("starts"), campaign.get("ends")),
            "budget": budget_text(campaign.get("budget"), campaign.get("currency")),
            "details": [tuple(pair) for pair in campaign.get("details") or ()],
            "brief_url": url_for("briefs.page", company_id=company_id, brief=linked_brief(brief_text(campaign)))}


def budget_text(amount, currency: str | None) -> str | None:
    """A budget as people read money: "ZAR 50,000", "R 1,250.50"; a budget given as text is shown as it is."""
    if amount is None:
        return None
    if isinstance(amount, int | float):
        amount = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
    return f"{currency} {amount}" if currency else str(amount)


def linked_brief(text: str) -> str:
    """The brief as a link can carry it: whole when short enough, else cut at a word to fit MAX_QUERY."""
    if len(quote_plus(text)) <= MAX_QUERY:
        return text
    while len(quote_plus(text + " …")) > MAX_QUERY:
        text = text[: int(len(text) * 0.9)].rsplit(" ", 1)[0]
    return text + " …"
