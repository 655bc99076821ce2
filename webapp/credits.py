"""The station's AI credits: the balance, whether AI usage is paused and why, what the ledger adds up to, and the
usage of chosen days as a chart of spend per day and a table; for administrators, loading credits and pausing AI
usage. Forms post as plain forms (not through htmx), so that a refused value comes back with its page and status."""
from __future__ import annotations

import secrets
from datetime import date, timedelta

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from marshmallow import fields

from api.credits import LoadCreditsSchema, PauseSchema, UsageArgsSchema
from core.ai.profile import spend_report
from core.clock import station_today
from core.config import active
from core.credits.ledger import MAX_TEXT, account, load, set_paused
from core.credits.usage import daily_spend
from core.errors import ValidationFailed
from webapp.asking import PageForm, TypedNumber, asked
from webapp.helpers import credits_text, format_day, open_station

bp = Blueprint("credits", __name__)

SHOWN = 200  # usage entries listed, newest first; the page says how many the days hold in all
DAYS = 30  # the days shown when none are chosen: the last 30, today included
OPERATIONS = {"ai_listener_profile": "AI listener profile", "ai_segment_insights": "AI segment insights",
              "custom_segment": "Custom segment", "audience": "Audience", "parse_brief": "Campaign brief",
              "recommend": "Campaign recommendations"}
NOT_A_NUMBER = "Must be a number."
KINDS = {"spend": "Paid", "cached": "Cached, free", "refund": "Refund"}


class LoadForm(LoadCreditsSchema, PageForm):
    """The API's load, as the form writes it: the amount as typed (core checks its bounds and decimals, in its own
    words), and the form's key so that a double click loads once; an empty note is no note."""

    credits = TypedNumber(required=True, error_messages={"required": NOT_A_NUMBER, "invalid": NOT_A_NUMBER,
                                                        "special": NOT_A_NUMBER})
    idempotency_key = fields.Str(load_default=None)


class PauseForm(PauseSchema, PageForm):
    """The API's pause, as a form writes it (`paused=true`); an empty reason is no reason (webapp.asking, `filled`)."""

    paused = fields.Bool(required=True)


@bp.get("/stations/<int:company_id>/credits")
@login_required
def page(company_id: int):
    """Balance, pause and totals; the usage of the days asked for (`from_date`, `to_date`: the last 30 days by
    default) as a chart of credits per day and a table. A bad date is said beside its field."""
    station = open_station(company_id)
    report, chart, problems = None, None, {}
    typed = request.args  # the days as typed, shown again beside a problem
    first, last = typed.get("from_date", ""), typed.get("to_date", "")
    try:
        first, last = date_range(**asked(UsageArgsSchema(only=("from_date", "to_date")), filled=True),
                                 tz=station["timezone"])
        report = spend_report(company_id, first, last, SHOWN, station["timezone"])
        chart = spend_chart(daily_spend(company_id, first, last, station["timezone"]))
    except ValidationFailed as error:
        problems = {str(item["loc"][-1]): item["msg"] for item in error.items}
    return render_template("credits/page.html", station=station, account=account(company_id), report=report,
                           chart=chart, problems=problems, dates={"from_date": first, "to_date": last},
                           prices=prices(), operations=OPERATIONS, kinds=KINDS)


@bp.get("/stations/<int:company_id>/credits/admin")
@login_required
def admin(company_id: int):
    """The administrator's forms: load credits, pause or resume AI usage. 403 for anyone else."""
    return _admin_page(admin_station(company_id))


@bp.post("/stations/<int:company_id>/credits/admin/load")
@login_required
def load_credits(company_id: int):
    """Add credits (CSRF-checked), then back to the admin page with the new balance; a refused amount or note is
    said beside its field and nothing is loaded."""
    station = admin_station(company_id)
    try:
        form = asked(LoadForm(), "form", filled=True)
        loaded = load(company_id, form["credits"], form["note"], form["idempotency_key"])
    except ValidationFailed as error:
        return _admin_page(station, problems=field_problems(error)), 422
    done = "This form was sent twice; its credits were loaded once" if loaded["replayed"] else \
        f"Loaded {credits_text(loaded['loaded'])} for {station['name']}"
    flash(f"{done}: the balance is now {credits_text(loaded['balance'])}.")
    return redirect(url_for("credits.admin", company_id=company_id), code=303)


@bp.post("/stations/<int:company_id>/credits/admin/pause")
@login_required
def pause(company_id: int):
    """Pause AI usage with a reason (every AI answer is then refused with it), or resume it; then back to the admin
    page."""
    station = admin_station(company_id)
    try:
        form = asked(PauseForm(), "form", filled=True)
        after = set_paused(company_id, form["paused"], form["reason"])
    except ValidationFailed as error:
        return _admin_page(station, problems=field_problems(error)), 422
    flash(f"AI usage is paused for {station['name']}{': ' + after['reason'] if after['reason'] else ''}."
          if after["paused"] else f"AI usage is running again for {station['name']}.")
    return redirect(url_for("credits.admin", company_id=company_id), code=303)


def admin_station(company_id: int) -> dict:
    """The station, for an administrator only (403 otherwise, as for a station that is not the user's)."""
    station = open_station(company_id)
    if not current_user.admin:
        abort(403, "Only an administrator can load credits or pause AI usage.")
    return station


def _admin_page(station: dict, problems: dict | None = None) -> str:
    """The admin forms; the load form carries a new idempotency key, so that a double click loads once."""
    return render_template("credits/admin.html", station=station, account=account(station["company_id"]),
                           problems=problems or {}, form=request.form, max_text=MAX_TEXT,
                           load_key=secrets.token_urlsafe(16))


def field_problems(error: ValidationFailed) -> dict[str, str]:
    """The refused form fields, each with its message."""
    return {str(item["loc"][-1]): item["msg"] for item in error.items}


def date_range(from_date: date | None = None, to_date: date | None = None, *, tz: str) -> tuple[str, str]:
    """The days asked for; no end is the station's today, no start the DAYS days up to the end."""
    last = to_date or station_today(tz)
    return (from_date or last - timedelta(days=DAYS - 1)).isoformat(), last.isoformat()


def spend_chart(series: list[dict]) -> dict:
    """Credits per day as bars scaled to the busiest day, with the range's sums and the days that had any use."""
    top = max([row["credits"] for row in series] or [0])
    bars = [{**row, "label": format_day(row["day"]),
             "height": max(0.0, 100.0 * row["credits"] / top) if top > 0 else 0.0} for row in series]
    return {"bars": bars, "top": top, "spent": round(sum(row["credits"] for row in series), 2),
            "calls": sum(row["calls"] for row in series), "busy": [b for b in bars if b["credits"] or b["calls"]]}


def prices() -> list[dict]:
    """The price table, as the page lists it."""
    return [{"operation": OPERATIONS.get(name, name.replace("_", " ").capitalize()), "price": price}
            for name, price in active().prices.items()]
