"""One listener's page: profile, segment reasons, behaviour, segment history and the paged interaction timeline;
erasure behind a confirmation."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, request, url_for
from flask_login import current_user, login_required
from marshmallow import fields

from api.arguments import RequestSchema, Whole
from api.listener import ErasureArgsSchema
from core.explore.listener import get_listener
from core.explore.operations import MAX_PAGE
from core.explore.timeline import listener_timeline
from core.intelligence.risk import listener_churn_risk
from core.listeners.fields import COMPLETENESS
from core.privacy.erasure import erase_listener
from core.search.lookalikes import similar_listeners
from core.stations.shows import show_titles
from core.text.wording import join_words, number
from webapp.asking import PageForm, asked
from webapp.helpers import open_station, render_htmx, wants_fragment
from webapp.labels import DAYS, FIELD_LABELS, MONTHS

bp = Blueprint("listener", __name__)

SIMILAR_SHOWN = 10  # look-alikes in the listener page's panel, at the contract's default lowest score


class TimelineArgs(RequestSchema):
    page = Whole(1, MAX_PAGE, load_default=1, metadata={"description": "the page of the timeline, newest first"})


class ErasureForm(ErasureArgsSchema, PageForm):
    """The erasure's form: the API's `suppress`, and the explorer view to go back to."""

    return_to = fields.Str()


@bp.get("/stations/<int:company_id>/listeners/<originator>")
@login_required
def page(company_id: int, originator: str):
    """The listener's page with page `?page=` of their timeline; an htmx request gets only those timeline entries
    (the "older" link appends them). 404 for a listener who is unknown or was erased."""
    station = open_station(company_id)
    timeline = listener_timeline(company_id, originator, asked(TimelineArgs())["page"])
    context = {"station": station, "timeline": timeline}
    if not wants_fragment():
        context.update(listener=get_listener(company_id, originator), shows=show_titles(company_id),
                       back=explorer_url(company_id, request.referrer), days=DAYS, months=MONTHS,
                       field_labels=FIELD_LABELS, declared_total=len(COMPLETENESS),
                       churn=listener_churn_risk(company_id, originator))
    return render_htmx("listener/page.html", "listener/_timeline_entries.html", **context)


@bp.get("/stations/<int:company_id>/listeners/<originator>/similar")
@login_required
def similar(company_id: int, originator: str):
    """The listeners most like this one: the panel that the listener's page loads with htmx once it is shown (the
    model is never waited for), or a page of its own without scripts. 404 for an unknown or erased listener."""
    station = open_station(company_id)
    found = similar_listeners(company_id, originator, limit=SIMILAR_SHOWN)
    return render_htmx("listener/similar.html", "listener/_similar.html", station=station, originator=originator,
                       found=found)


@bp.post("/stations/<int:company_id>/listeners/<originator>/erase")
@login_required
def erase(company_id: int, originator: str):
    """Erase the listener for good (CSRF-checked like every page POST), then back to the explorer with the receipt."""
    open_station(company_id)
    form = asked(ErasureForm(), "form")
    receipt = erase_listener(company_id, originator, current_app.config["SETTINGS"].secret_key,
                             suppress=form["suppress"], actor=current_user.email)
    flash(receipt_message(originator, receipt))
    return redirect(explorer_url(company_id, form.get("return_to")))


def receipt_message(originator: str, receipt: dict) -> str:
    """The erasure receipt in one sentence: who, every store touched and whether the number is suppressed."""
    stores = join_words([f"{name.replace('_', ' ')} {number(count)}" for name, count in receipt["stores"].items()])
    suppressed = (" Future interactions from this number will be dropped at import." if receipt["suppressed"]
                  else "")
    return (f"Listener {originator} was erased. Records touched: {stores}. Their behaviour stays in the counts "
            f"under a pseudonym ({receipt['pseudonym'][:14]}…).{suppressed}")


def explorer_url(company_id: int, candidate: str | None) -> str:
    """`candidate` when it is this station's explorer on this site (keeping its filters), else the bare explorer."""
    base = url_for("explorer.page", company_id=company_id)
    parts = urlsplit(candidate or "")
    if parts.path == base and (not parts.netloc or parts.netloc == request.host) and parts.scheme in ("", "http",
                                                                                                     "https"):
        return f"{base}?{parts.query}" if parts.query else base
    return base
