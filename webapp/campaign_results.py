"""An audience's campaign on the dashboard: the form that records when it runs and what counts as a response, and
the words its results are said in, on the audience's page, the plan's page and the plan's PDF.

The form posts as a plain form (hx-boost off, as the audience page's other forms): a campaign recorded goes back to
the audience's page (post/redirect/get); a refused one comes back as the form alone with each problem beside its
field and status 422. Every figure said is core.audiences.results' (what the API answers), never counted again here:
this module only puts them into words a producer or an advertiser reads, without the statistics' terms."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required
from marshmallow import fields

from core.audiences import store
from core.audiences.campaign import GOAL, HOPED_LIMITS, goal_choices
from core.audiences.lift import about, points
from core.errors import ValidationFailed
from core.listeners import snapshot
from core.stations.companies import get_company
from core.stations.shows import show_titles
from core.text.wording import agree, number, plural
from webapp.asking import PageForm, TypedNumber, asked
from webapp.charts import ARM_LABELS, share_text
from webapp.helpers import date_span, open_station
from webapp.labels import title

bp = Blueprint("audience_campaign", __name__)

FIELDS = ("starts", "ends", *GOAL, "hoped_lift_points")
NOT_A_NUMBER = "Not a valid number: give one like 2 or 2.5."
NOT_CHOSEN = "Not one of the choices offered."


class CampaignForm(PageForm):
    """The campaign as the form sends it; an empty field (a goal left at "any") is not given. Core checks the
    dates, the goal against the station and the hoped-for lift's bounds, and says what is wrong in words."""

    starts = fields.Str(load_default=None)
    ends = fields.Str(load_default=None)
    campaign_type = fields.Str(load_default=None)
    channel_type = fields.Int(load_default=None, error_messages={"invalid": NOT_CHOSEN})
    timeslot_id = fields.Int(load_default=None, error_messages={"invalid": NOT_CHOSEN})
    hoped_lift_points = TypedNumber(load_default=None, error_messages={"invalid": NOT_A_NUMBER,
                                                                       "special": NOT_A_NUMBER})


@bp.post("/stations/<int:company_id>/audiences/<audience_id>/campaign")
@login_required
def record(company_id: int, audience_id: str):
    """Record when the audience's campaign runs and what counts as a response, then back to its page with its
    results; a refused value is said beside its field (422) and nothing is recorded."""
    station = open_station(company_id)
    try:
        store.record_campaign(company_id, audience_id, asked(CampaignForm(), "form", filled=True))
    except ValidationFailed as error:
        audience = store.get_audience(company_id, audience_id)
        typed = {name: (request.form.get(name) or "").strip() for name in FIELDS}
        return render_template("audiences/campaign.html", station=station, audience=audience, form=typed,
                               problems=problems_of(error.items)), error.status
    flash("Campaign recorded: the results below count its window and what it counts as a response.")
    return redirect(url_for("audiences.detail", company_id=company_id, audience_id=audience_id,
                            _anchor="results-title"), code=303)


@bp.app_template_global("campaign_choices")
def campaign_choices(company_id: int) -> dict:
    """What the form's goal selects offer: the station's campaign types, channels and shows, by their names."""
    company = get_company(company_id)
    return {**goal_choices(snapshot.current(company_id), company.channel_names(), show_titles(company_id)),
            "hoped_limits": HOPED_LIMITS}


def problems_of(items: list[dict]) -> dict[str, str]:
    """Each refused value's message by its form field; one of no field of the form (the campaign as a whole) is
    said above them, named."""
    out: dict[str, str] = {}
    for item in items:
        name = str(item["loc"][-1])
        key = name if name in FIELDS else "campaign"
        out[key] = f"{out[key]} {item['msg']}" if key in out else (
            item["msg"] if key == name else f"{title(name)}: {item['msg']}")
    return out


@bp.app_template_filter("in_words")
def in_words(found: dict) -> dict:
    """What the pages and the PDF say of audience_results' figures: each arm's share responding, the range the
    difference lies in, the listeners the hoped-for lift needs, the window, the goal and who is left out; nothing
    before a campaign is recorded (there is no figure to say)."""
    if found["campaign"] is None:
        return {}
    arms, lift, needed = found["arms"], found["lift"], found["sample_size"]
    joined = found["excluded"]["joined_after"]
    return {"shares": {arm: share_text(arms[arm]["rate"]) if arms[arm]["rate"] is not None else "–"
                       for arm in ARM_LABELS},
            "range": range_words(lift["interval"]) if lift else None,
            "needed": needed_words(needed, arms) if needed else None,
            "window": window_words(found["window"]),
            "goal": f"A response is {found['goal']['words']} in the window, by a member of either group.",
            "excluded": (f"{plural(joined, 'member')} who joined the station after the audience was made "
                         f"{agree(joined, 'is')} counted in neither group.") if joined else None}


def range_words(interval: list[float]) -> str:
    """The difference's 95% range as a sentence: "We are 95% sure the difference lies between 1.2 and 5.0 points
    more of the target responding than of the holdout." (a range across none names both sides)."""
    low, high = interval
    if low >= 0:
        words = f"between {points(low, unit=False)} and {points(high)} more"
    elif high <= 0:
        words = f"between {points(-high, unit=False)} and {points(-low)} fewer"
    else:
        words = f"between {points(-low)} fewer and {points(high)} more"
    return f"We are 95% sure the difference lies {words} of the target responding than of the holdout."


def needed_words(needed: dict, arms: dict) -> str:
    """How many listeners each group needs for the hoped-for lift to show, beside how many it has."""
    chances, counts = number(10 * needed["power"]), [number(arms[arm]["members"]) for arm in ARM_LABELS]
    return (f"To be fairly sure of seeing a lift of {points(needed['lift'])} ({chances} chances in 10), about "
            f"{about(needed['target'])} listeners are needed in the target and {about(needed['holdout'])} in the "
            f"holdout; this audience counts {counts[0]} and {counts[1]}.")


def window_words(window: dict) -> str:
    """The window on the station's calendar and how much of it is counted."""
    days = window["days_counted"]
    state = ("not started: no day counted yet" if not days else
             f"still running: {plural(days, 'day')} counted so far" if window["running"] else
             f"{plural(days, 'day')} counted")
    return f"{date_span(window['from'], window['to'])} (the station's calendar, {window['timezone']}); {state}."
