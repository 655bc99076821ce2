"""AI in the dashboard: the station's AI insights page (what each segment means and what to do, with how good the
local AI and the churn score measured), and the listener page's "Infer with AI" panel with its promotion to declared.

Every paid call shows its price before the click and what it cost after it; the refusals a producer can meet (not
enough credits, AI paused, the provider not answering) are said in the panel or on the page in plain words.
"""
from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, url_for
from flask_login import login_required

from core import measured
from core.ai.insights import OPERATION as INSIGHTS
from core.ai.insights import ai_segment_insights, shown_again
from core.ai.profile import OPERATION as PROFILE
from core.ai.profile import ai_listener_profile, fresh_profile
from core.ai.promote import PROMOTABLE, THRESHOLD, promote_demographics, promotion_history
from core.clock import as_utc
from core.credits.ledger import account
from core.errors import AiPaused
from core.explore.listener import find_listener, get_listener
from core.intelligence.risk import station_backtest
from core.text.wording import join_words
from webapp.helpers import REFUSALS, credits_text, open_station, price_of, refusal, wants_fragment
from webapp.labels import value_label

bp = Blueprint("ai", __name__)

INFERRED = (("inferred_gender", "Gender"), ("inferred_age_group", "Age group"), ("inferred_language", "Language"),
            ("inferred_location", "Location"), ("inferred_lsm", "LSM"))
FIELD_WORDS = {"gender": "gender", "age_group": "age group", "language": "language", "location": "location"}
PRIORITIES = ("high", "medium", "low")
BANDS = (("<0.5", "Below 0.50"), ("0.5-0.7", "0.50 to 0.69"), (">=0.7", "0.70 and up"))
"""The confidence bands of measured/inference.json, as the quality table heads them."""


@bp.get("/stations/<int:company_id>/ai")
@login_required
def page(company_id: int):
    """The AI insights page: the last answer while the station's data is unchanged (shown again for nothing), the
    button with its price, and how good the AI measured."""
    station = open_station(company_id)
    found = shown_again(company_id)
    return _insights_page(station, found=most_urgent_first(found) if found else None)


@bp.post("/stations/<int:company_id>/ai")
@login_required
def insights(company_id: int):
    """Ask for the segment insights (paid unless the station's data is unchanged since the last answer); a refusal
    is said on the page, with its status."""
    station = open_station(company_id)
    try:
        found = ai_segment_insights(company_id)
    except REFUSALS as error:
        return _insights_page(station, problem=refusal(error, company_id, INSIGHTS)), error.status
    flash("AI insights from the cache: the station's data has not changed, so they were free." if found["cached"]
          else f"New AI insights: they cost {credits_text(found['cost'])}.")
    return redirect(url_for("ai.page", company_id=company_id), code=303)  # post/redirect/get


def _insights_page(station: dict, found: dict | None = None, problem: str | None = None) -> str:
    company_id = station["company_id"]
    return render_template("ai/page.html", station=station, insights=found, problem=problem,
                           price=price_of(INSIGHTS), credits=account(company_id), threshold=THRESHOLD,
                           quality=inference_quality(measured.read("inference")),
                           churn_backtest=station_backtest(company_id))


@bp.get("/stations/<int:company_id>/listeners/<originator>/ai")
@login_required
def panel(company_id: int, originator: str):
    """The listener page's AI panel before the click (the price, or that a cached profile is free): loaded by
    htmx once the page is shown, or a page of its own without scripts. 404 for an unknown or erased listener."""
    station = open_station(company_id)
    find_listener(company_id, originator, {"originator": 1})
    return _panel(station, originator)


@bp.post("/stations/<int:company_id>/listeners/<originator>/ai")
@login_required
def infer(company_id: int, originator: str):
    """Infer the listener's profile with AI (1 credit, or free from the 30-day cache) and show it in the panel; a
    refusal is said in the panel. 404 for an unknown or erased listener."""
    station = open_station(company_id)
    try:
        profile = ai_listener_profile(company_id, originator)
        return _panel(station, originator, profile=profile, inferred_listener=get_listener(company_id, originator))
    except REFUSALS as error:
        return _panel(station, originator, problem=refusal(error, company_id, PROFILE), status=error.status)


@bp.post("/stations/<int:company_id>/listeners/<originator>/ai/promote")
@login_required
def promote(company_id: int, originator: str):
    """Copy the inferred values of 0.70 and up into the empty declared fields, then back to the listener's page,
    which shows them, with what was promoted and what was not, and why."""
    station = open_station(company_id)
    try:
        result = promote_demographics(company_id, originator)
    except AiPaused as error:
        return _panel(station, originator, problem=error.detail, status=error.status)
    for message in promotion_messages(result):
        flash(message)
    return redirect(url_for("listener.page", company_id=company_id, originator=originator), code=303)


def _panel(station: dict, originator: str, profile: dict | None = None, problem: str | None = None,
           status: int = 200, inferred_listener: dict | None = None):
    """The panel alone for htmx, with 200 even for a refusal (htmx swaps only 2xx answers and the refusal must be
    seen in the panel); without scripts, a page of its own with the refusal's status."""
    company_id = station["company_id"]
    cached = fresh_profile(company_id, originator) if profile is None else None
    context = {"station": station, "originator": originator, "profile": profile, "problem": problem,
               "rows": inferred_rows(profile) if profile else [], "price": price_of(PROFILE),
               "ai_account": account(company_id), "threshold": THRESHOLD,
               "cached_at": as_utc(cached["made_at"]).isoformat() if cached else None,
               "history": promotion_history(company_id, originator)}
    alone = wants_fragment()
    if alone:  # the page's "Inferred" card is swapped too (out of band), so the two never disagree
        context["inferred_listener"] = inferred_listener
    response = make_response(render_template("listener/_ai.html" if alone else "ai/listener.html", **context),
                             200 if alone else status)
    response.vary.add("HX-Request")
    return response


def most_urgent_first(found: dict) -> dict:
    """The insights with the segments of high priority first, then medium, then low (each in the usual order)."""
    return {**found, "segments": sorted(found["segments"], key=lambda s: PRIORITIES.index(s["priority"])
                                        if s["priority"] in PRIORITIES else len(PRIORITIES))}


def inferred_rows(profile: dict) -> list[dict]:
    """Each inferred value with its confidence and evidence; a demographic of 0.70 and up is marked promotable."""
    rows = []
    for name, label in INFERRED:
        guess = profile["inferred"].get(name)
        if guess:
            field = PROMOTABLE.get(name)
            rows.append({"name": name, "label": label, "value": value_label(field or name, guess["value"]),
                         "confidence": guess["confidence"], "evidence": guess.get("evidence"),
                         "promotable": field is not None and (guess["confidence"] or 0) >= THRESHOLD})
        else:
            rows.append({"name": name, "label": label, "value": None})
    return rows


def promotion_messages(result: dict) -> list[str]:
    """What a promotion did in sentences: the values promoted, then each reason some were not."""
    done = [f"{FIELD_WORDS[p['field']]} {value_label(p['field'], p['value'])} ({p['confidence']:.2f})"
            for p in result["promoted"]]
    messages = [f"Promoted to declared: {join_words(done)}." if done else "Nothing was promoted to declared."]
    reasons: dict[str, list[str]] = {}
    for skipped in result["skipped"]:
        value = f" {value_label(skipped['field'], skipped['value'])}" if skipped["value"] else ""
        reasons.setdefault(skipped["reason"], []).append(FIELD_WORDS[skipped["field"]] + value)
    messages += [f"Not promoted, {join_words(fields)}: {reason}." for reason, fields in reasons.items()]
    return messages


def inference_quality(found: dict | None) -> dict | None:
    """The local AI's measured accuracy per field (bench/inference.py), read defensively: a figure it lacks shows
    as a dash rather than breaking the page."""
    fields = (found or {}).get("fields")
    if not isinstance(fields, dict) or not fields:
        return None
    rows = []
    for name, figures in fields.items():
        figures = figures if isinstance(figures, dict) else {}
        bands = figures.get("bands") if isinstance(figures.get("bands"), dict) else {}
        rows.append({"field": FIELD_WORDS.get(name, name.replace("_", " ")).capitalize(),
                     "baseline": _share(figures.get("baseline")), "baseline_value": figures.get("baseline_value"),
                     "overall": _share(figures.get("overall")),
                     "bands": [{"share": _share((bands.get(key) or {}).get("share")),
                                "accuracy": _share((bands.get(key) or {}).get("accuracy"))} for key, _ in BANDS]})
    return {"rows": rows, "bands": [label for _, label in BANDS], "size": found.get("size"),
            "share": _share(found.get("share")), "measured_at": found.get("measured_at")}


def _share(value) -> float | None:
    """A share 0..1 as measured, None when it is missing or not a number."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
