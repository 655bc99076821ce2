"""Webhooks: the station's endpoints for segment events (added with a URL, a secret, the events and the listener
fields they share; removed), a test event per endpoint, and the delivery log of the one chosen with its failures
said in words and a replay per delivery. Forms post as plain forms (hx-boost off) so that a refusal comes back on
this page with its status; the log is the page's fragment, swapped in by htmx when another endpoint is chosen."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required
from marshmallow import fields

from api.arguments import RequestSchema
from api.webhook_schemas import CreateWebhookRequestSchema
from core.errors import Conflict, ValidationFailed
from core.text.wording import plural
from core.webhooks import endpoints
from core.webhooks.events import EVENT_TYPES, SHAREABLE
from webapp.asking import PageForm, asked
from webapp.helpers import open_station, render_htmx

bp = Blueprint("webhooks", __name__)

EVENT_WORDS = {"listener.entered_segment": "A listener entered a segment",
               "listener.left_segment": "A listener left a segment",
               "audience.members_changed": "A listener joined or left a saved audience",
               "alert.fired": "An alert fired"}
"""What each event type means, as the form says it."""


class ChosenArgs(RequestSchema):
    """The endpoint whose log is shown (the first when none or an unknown one is asked for)."""

    webhook = fields.Str()


class WebhookForm(CreateWebhookRequestSchema, PageForm):
    """The API's endpoint, as the page's form posts it."""


@bp.get("/stations/<int:company_id>/webhooks")
@login_required
def page(company_id: int):
    """The endpoints, the form to add one, and the chosen endpoint's delivery log (the fragment alone for htmx)."""
    station = open_station(company_id)
    return render_htmx("webhooks/page.html", "webhooks/_fragment.html",
                       **_context(station, asked(ChosenArgs()).get("webhook")))


@bp.post("/stations/<int:company_id>/webhooks")
@login_required
def add(company_id: int):
    """Add an endpoint; a refusal is said beside its field and nothing is saved."""
    station = open_station(company_id)
    try:
        form = asked(WebhookForm(), "form")
        made = endpoints.add_endpoint(company_id, form["url"], form["secret"], form["events"], form["share"])
    except (ValidationFailed, Conflict) as error:
        problems = ({str(item["loc"][1 if len(item["loc"]) > 1 else 0]): item["msg"] for item in error.items}
                    if isinstance(error, ValidationFailed) else {"form": error.detail})
        typed = request.form  # what was typed, shown again beside the problems
        given = {"url": typed.get("url", ""), "events": typed.getlist("events"), "share": typed.getlist("share")}
        context = {**_context(station, None), "problems": problems, "given": given}
        return render_template("webhooks/page.html", **context), 422
    flash(f"Added. {plural(len(made['events']), 'kind')} of event will be sent to {made['url']}.")
    return redirect(url_for("webhooks.page", company_id=company_id, webhook=made["webhook_id"]), code=303)


@bp.post("/stations/<int:company_id>/webhooks/<webhook_id>/delete")
@login_required
def remove(company_id: int, webhook_id: str):
    """Remove an endpoint with its queued events and its log."""
    open_station(company_id)
    endpoints.delete_endpoint(company_id, webhook_id)
    flash("Removed. Nothing more will be sent to that URL.")
    return redirect(url_for("webhooks.page", company_id=company_id), code=303)


@bp.post("/stations/<int:company_id>/webhooks/<webhook_id>/test")
@login_required
def test(company_id: int, webhook_id: str):
    """Queue a sample event for the endpoint; the log shows how it went once the worker sent it."""
    open_station(company_id)
    endpoints.send_test(company_id, webhook_id)
    flash("A test event is on its way. Its delivery shows in the log below within a few seconds.")
    return redirect(url_for("webhooks.page", company_id=company_id, webhook=webhook_id), code=303)


@bp.post("/stations/<int:company_id>/webhooks/<webhook_id>/deliveries/<delivery_id>/replay")
@login_required
def replay(company_id: int, webhook_id: str, delivery_id: str):
    """Send one delivery's events again."""
    open_station(company_id)
    try:
        done = endpoints.replay_delivery(company_id, webhook_id, delivery_id)
        flash(f"{plural(done['queued'], 'event')} will be sent again, with the ids they had.")
    except Conflict as error:
        flash(error.detail)
    return redirect(url_for("webhooks.page", company_id=company_id, webhook=webhook_id), code=303)


def _context(station: dict, chosen: str | None) -> dict:
    """The endpoints and the log of the chosen one (the first when none or an unknown one is asked for)."""
    found = endpoints.list_endpoints(station["company_id"])["webhooks"]
    ids = [w["webhook_id"] for w in found]
    chosen = chosen if chosen in ids else (ids[0] if ids else None)
    log = endpoints.list_deliveries(station["company_id"], chosen) if chosen else None
    return {"station": station, "webhooks": found, "chosen": chosen, "log": log, "event_types": EVENT_TYPES,
            "event_words": EVENT_WORDS, "shareable": SHAREABLE, "problems": {}, "given": {},
            "secret_min": endpoints.SECRET_MIN}
