"""Alerts: the station's rules made from plain choices (what to watch, when, the threshold, how to be told), listed
with a delete button each, and the firings kept. Forms post as plain forms (hx-boost off), so that a refusal comes
back on this page said beside its field; the rules and firings are the page's fragment, refreshed by htmx."""
from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required
from marshmallow import ValidationError, fields, post_load, validates_schema
from marshmallow.validate import Range

from api.alerts import AlertRuleRequestSchema, EmailDeliverySchema
from core.alerts.mail import firing_line, mail_warning
from core.alerts.rules import KIND_CHOICES, MAX_RECIPIENTS, METRIC_NAMES, THRESHOLD_LIMITS, delivery_words
from core.alerts.store import create_rule, delete_rule, list_firings, list_rules, rules_of
from core.errors import ValidationFailed
from core.text.wording import number
from webapp.asking import PageForm, TypedNumber, asked
from webapp.helpers import open_station, render_htmx

bp = Blueprint("alerts", __name__)


THRESHOLD_WORDS = f"Give a number from 0 to {number(THRESHOLD_LIMITS[1])}."
"""What a threshold that is no number, or out of bounds, is told (core's words)."""


class AlertForm(AlertRuleRequestSchema, PageForm):
    """The API's rule as the form writes it: ticked boxes, a threshold as typed, the addresses in one field (core
    checks them, as for the API); loads as core's create_rule takes it."""

    threshold = TypedNumber(required=True, validate=Range(*THRESHOLD_LIMITS, error=THRESHOLD_WORDS),
                            error_messages={"invalid": THRESHOLD_WORDS, "special": THRESHOLD_WORDS})
    webhook = fields.Bool(load_default=False)
    email = fields.Bool(load_default=False)
    recipients = fields.Str(load_default="")
    at_once = fields.Bool(load_default=False)

    @validates_schema(skip_on_field_errors=False)
    def _addresses_as_the_api_takes_them(self, data, **_kwargs):
        if data.get("email") and EmailDeliverySchema(only=("to",)).validate({"to": _addresses(data)}):
            raise ValidationError(f"Give 1 to {MAX_RECIPIENTS} e-mail addresses such as producer@station.co.za.",
                                  "email")

    @post_load
    def _as_core_takes_it(self, data, **_kwargs):
        to, at_once = _addresses(data), data.pop("at_once")
        data.pop("recipients")
        data["email"] = {"to": to, "at_once": at_once} if data["email"] else None
        return data


def _addresses(data: dict) -> list[str]:
    recipients = data.get("recipients", "").strip()
    return re.split(r"[\s,;]+", recipients) if recipients else []


@bp.get("/stations/<int:company_id>/alerts")
@login_required
def page(company_id: int):
    """The form, the rules and the firings kept (the fragment alone for htmx)."""
    station = open_station(company_id)
    return render_htmx("alerts/page.html", "alerts/_fragment.html", **_context(station), problems={}, given={})


@bp.post("/stations/<int:company_id>/alerts")
@login_required
def add(company_id: int):
    """Save a rule; a refusal is said beside its field and nothing is saved."""
    station = open_station(company_id)
    try:
        made = create_rule(company_id, **asked(AlertForm(), "form", filled=True))
    except ValidationFailed as error:
        problems = {str(item["loc"][1 if len(item["loc"]) > 1 else 0]): item["msg"] for item in error.items}
        typed = request.form  # what was typed, shown again beside the problems
        given = {key: typed.get(key, "") for key in ("metric", "kind", "threshold", "recipients")} | {
            key: bool(typed.get(key)) for key in ("webhook", "email", "at_once")}
        return render_template("alerts/page.html", **_context(station), problems=problems, given=given), 422
    flash(f"Saved: {made['description']}. It is checked after each full run and every day."
          + (f" {made['warning']}" if made["warning"] else ""))
    return redirect(url_for("alerts.page", company_id=company_id), code=303)


@bp.post("/stations/<int:company_id>/alerts/<rule_id>/delete")
@login_required
def remove(company_id: int, rule_id: str):
    """Delete a rule; its firings stay listed."""
    open_station(company_id)
    delete_rule(company_id, rule_id)
    flash("Deleted. The alerts it fired stay listed below.")
    return redirect(url_for("alerts.page", company_id=company_id), code=303)


def _context(station: dict) -> dict:
    company_id = station["company_id"]
    delivery = {rule["rule_id"]: delivery_words(rule) for rule in rules_of(company_id)}
    firings = [{**f, "line": firing_line(f)} for f in list_firings(company_id)["firings"]]
    return {"station": station, "rules": list_rules(company_id)["rules"], "delivery": delivery, "firings": firings,
            "metric_names": METRIC_NAMES, "kind_choices": KIND_CHOICES, "mail_unset": mail_warning(["email"])}
