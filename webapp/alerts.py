"""Alerts: the station's rules made from plain choices (what to watch, when, the threshold, how to be told), listed
with a delete button each, and the firings kept. Forms post as plain forms (hx-boost off), so that a refusal comes
back on this page said beside its field; the rules and firings are the page's fragment, refreshed by htmx."""
from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required

from core.alerts.mail import firing_line, mail_warning
from core.alerts.rules import KIND_CHOICES, METRIC_NAMES, delivery_words
from core.alerts.store import create_rule, delete_rule, list_firings, list_rules, rules_of
from core.errors import ValidationFailed
from webapp.helpers import open_station, render_htmx

bp = Blueprint("alerts", __name__)


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
    form = request.form
    given = {key: form.get(key, "") for key in ("metric", "kind", "threshold", "recipients")} | {
        "webhook": bool(form.get("webhook")), "email": bool(form.get("email")), "at_once": bool(form.get("at_once"))}
    email = {"to": re.split(r"[\s,;]+", given["recipients"].strip()) if given["recipients"].strip() else [],
             "at_once": given["at_once"]} if given["email"] else None
    try:
        made = create_rule(company_id, given["kind"], given["metric"], _number(given["threshold"]),
                           given["webhook"], email)
    except ValidationFailed as error:
        problems = {item["loc"][-1]: item["msg"] for item in error.items}
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


def _number(text: str):
    """A number as people type it (1,000 or 10.5), or the text itself for core to refuse in words."""
    try:
        return float(text.replace(",", "").replace(" ", ""))
    except ValueError:
        return text


def _context(station: dict) -> dict:
    company_id = station["company_id"]
    delivery = {rule["rule_id"]: delivery_words(rule) for rule in rules_of(company_id)}
    firings = [{**f, "line": firing_line(f)} for f in list_firings(company_id)["firings"]]
    return {"station": station, "rules": list_rules(company_id)["rules"], "delivery": delivery, "firings": firings,
            "metric_names": METRIC_NAMES, "kind_choices": KIND_CHOICES, "mail_unset": mail_warning(["email"])}
