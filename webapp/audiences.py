"""Saved audiences: the list; the create form with its paid preview (the queries the theme was turned into and the
listeners they found, each with its score and matching query) before saving; the detail with its members and a CSV
export; refresh with who joined, who left and who stayed; deletion behind a confirmation page.

Every paid button shows its price before the click; a refusal (not enough credits, AI paused, the provider not
answering) is said on the page in plain words. Forms that change something post as plain forms (hx-boost off), so
that a refusal comes back with its page and status; the preview is swapped in by htmx (200 even for a refusal,
since htmx swaps only 2xx answers) and is a page of its own without scripts.
"""
from __future__ import annotations

import json
import re

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_login import login_required
from marshmallow import fields

from api.arguments import RequestSchema, Whole
from api.filter_args import FilterArgs
from core.audiences import rules, store
from core.audiences.arms import HOLDOUT_LIMITS, HOLDOUT_PERCENT
from core.audiences.custom import custom_segment
from core.audiences.export import audience_rows
from core.audiences.results import audience_results
from core.errors import Conflict, ValidationFailed
from core.explore.spec import SPEC
from core.text.cells import CsvText
from core.text.wording import plural
from webapp.asking import PageForm, asked
from webapp.charts import arms_chart
from webapp.helpers import (
    REFUSALS,
    credits_text,
    filter_pairs,
    link,
    open_station,
    price_of,
    refusal,
    wants_fragment,
)
from webapp.labels import chip_words, title

bp = Blueprint("audiences", __name__)

PREVIEW, AUDIENCE = "custom_segment", "audience"
"""The price table's names of a preview (a custom segment) and of an audience's creation or refresh."""
DEFAULTS = {"limit": rules.AUDIENCE_LIMIT, "min_score": rules.MIN_SCORE, "expiry_days": rules.EXPIRY_DAYS,
            "holdout_percent": HOLDOUT_PERCENT}
BOUNDS = {"limit": rules.AUDIENCE_LIMITS, "expiry_days": rules.EXPIRY_LIMITS, "holdout_percent": HOLDOUT_LIMITS,
          "preview": rules.SEGMENT_LIMITS[1],
          "name": rules.NAME_MAX, "theme": rules.THEME_MAX, "description": rules.DESCRIPTION_MAX}
"""The contract's defaults and bounds, read from core so that the form cannot drift from them; a preview finds at
most as many listeners as a custom segment may."""
FORM_NAMES = {"name": "audience_name"}
"""Core's names of the values whose form field is named otherwise."""
SHOWN = 100
"""Members listed per page of the detail (the CSV holds them all)."""
MAX_PAGE = 10_000
NOT_A_SCORE = "Not a valid number: give one like 0.68."


class AudienceForm(FilterArgs, PageForm):
    """The create form (and the address that prefills it): the audience's settings with the contract's defaults
    and core's bounds, the shared filters (loading into `flt`), and the preview's queries with what they were made
    for (`previewed`); its empty fields mean "the default" (webapp.asking, `filled`). Core checks the rest."""

    audience_name = fields.Str(load_default="")
    theme = fields.Str(load_default="")
    description = fields.Str(load_default=None)
    limit = Whole(*rules.AUDIENCE_LIMITS, load_default=DEFAULTS["limit"])
    min_score = fields.Float(load_default=DEFAULTS["min_score"],
                             error_messages={"invalid": NOT_A_SCORE, "special": NOT_A_SCORE})
    expiry_days = Whole(*rules.EXPIRY_LIMITS, load_default=DEFAULTS["expiry_days"])
    holdout_percent = Whole(*HOLDOUT_LIMITS, load_default=DEFAULTS["holdout_percent"])
    previewed = fields.Str(load_default="")
    plan_id = fields.Str(load_default=None)
    queries = fields.List(fields.Str(), load_default=list)


class MembersArgs(RequestSchema):
    """An audience's page of members."""

    page = Whole(1, MAX_PAGE, load_default=1)


@bp.get("/stations/<int:company_id>/audiences")
@login_required
def page(company_id: int):
    """The station's audiences: name, theme, members, reachable, status and expiry; a link to make a new one."""
    station = open_station(company_id)
    return render_template("audiences/page.html", station=station, found=store.list_audiences(company_id),
                           price=price_of(AUDIENCE))


@bp.get("/stations/<int:company_id>/audiences/new")
@login_required
def new(company_id: int):
    """The create form, prefilled from the query string: a theme, a name and the shared filters that "Save as
    audience" carries from the search page or the explorer."""
    station = open_station(company_id)
    try:
        asked(AudienceForm(), filled=True)
    except ValidationFailed as error:
        return _form_page(station, typed_form(request.args), problems=field_problems(error.items)), error.status
    return _form_page(station, typed_form(request.args))


@bp.post("/stations/<int:company_id>/audiences/preview")
@login_required
def preview(company_id: int):
    """Who the theme finds within the filters, before saving (paid like a custom segment): the queries, the members
    with their scores and matching query, and what it cost."""
    station = open_station(company_id)
    form = typed_form(request.form)
    context, status = {}, 200
    try:
        settings = asked(AudienceForm(), "form", filled=True)
        context["found"] = custom_segment(company_id, settings["theme"], settings["description"],
                                          min(settings["limit"], BOUNDS["preview"]), settings["min_score"],
                                          flt=settings["flt"])
        context["previewed"] = fingerprint(settings)
    except ValidationFailed as error:
        context["problems"], status = field_problems(error.items), error.status
    except REFUSALS as error:
        context["problem"], status = refusal(error, company_id, PREVIEW), error.status
    if wants_fragment():
        return render_template("audiences/_preview.html", station=station, form=form, **_prices(), **context)
    return _form_page(station, form, **context), status


@bp.post("/stations/<int:company_id>/audiences")
@login_required
def create(company_id: int):
    """Save the audience (paid), re-using the previewed queries when the theme, description and filters are still
    those of the preview; then its page. A refused value is said beside its field, a refusal above the form."""
    station = open_station(company_id)
    form = typed_form(request.form)
    try:
        settings = asked(AudienceForm(), "form", filled=True)
        queries = settings["queries"] if settings["previewed"] == fingerprint(settings) else None
        made = store.create_audience(company_id, settings["audience_name"], settings["theme"],
                                     settings["description"], settings["limit"], settings["min_score"],
                                     settings["expiry_days"], flt=settings["flt"], queries=queries or None,
                                     holdout_percent=settings["holdout_percent"], plan_id=settings["plan_id"])
    except (ValidationFailed, Conflict) as error:
        items = error.items if isinstance(error, ValidationFailed) else [{"loc": ["body", "name"],
                                                                           "msg": error.detail}]
        return _form_page(station, form, problems=field_problems(items)), error.status
    except REFUSALS as error:
        return _form_page(station, form, problem=refusal(error, company_id, AUDIENCE)), error.status
    flash(f"Audience “{made['name']}” saved with {plural(made['member_count'], 'member')}; it cost "
          f"{credits_text(made['cost'])}.")
    return redirect(url_for("audiences.detail", company_id=company_id, audience_id=made["audience_id"]), code=303)


@bp.get("/stations/<int:company_id>/audiences/<audience_id>")
@login_required
def detail(company_id: int, audience_id: str):
    """One audience: its settings, how many are reachable, its members a page at a time; export, refresh, delete;
    its campaign and the results (as the API answers them: core.audiences.results)."""
    station = open_station(company_id)
    audience = store.get_audience(company_id, audience_id)
    return _detail_page(station, audience, changes=audience["changes"])


@bp.post("/stations/<int:company_id>/audiences/<audience_id>/refresh")
@login_required
def refresh(company_id: int, audience_id: str):
    """Re-run the saved strategy (paid), then back to the audience's page (post/redirect/get: reloading it spends
    nothing), which shows who joined, who left and how many stayed until the next refresh."""
    station = open_station(company_id)
    try:
        found = store.refresh_audience(company_id, audience_id)
    except REFUSALS as error:
        return _detail_page(station, store.get_audience(company_id, audience_id),
                            problem=refusal(error, company_id, AUDIENCE)), error.status
    changes = found["changes"]
    flash(f"Audience refreshed: {plural(len(changes['joined']), 'listener')} joined, {len(changes['left']):,} left "
          f"and {changes['stayed']:,} stayed; it cost {credits_text(found['cost'])}.")
    return redirect(url_for("audiences.detail", company_id=company_id, audience_id=audience_id), code=303)


@bp.get("/stations/<int:company_id>/audiences/<audience_id>/export.csv")
@login_required
def export_csv(company_id: int, audience_id: str):
    """The target arm's members with their profile, as CSV (no cell can run as a spreadsheet formula); the holdout
    is never in it, and the `X-Held-Out` header says how many it keeps out."""
    open_station(company_id)
    table = audience_rows(company_id, audience_id)
    out = CsvText()
    out.row(table.headers)
    for row in table.rows:
        out.row(row)
    filename = f"audience_{slug(table.name) or audience_id}.csv"
    return Response(out.take(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"',
                             "X-Held-Out": str(table.held_out)})


@bp.get("/stations/<int:company_id>/audiences/<audience_id>/delete")
@login_required
def confirm_delete(company_id: int, audience_id: str):
    """The confirmation step: what deleting the audience does, with Cancel and Delete."""
    station = open_station(company_id)
    return render_template("audiences/delete.html", station=station,
                           audience=store.get_audience(company_id, audience_id))


@bp.post("/stations/<int:company_id>/audiences/<audience_id>/delete")
@login_required
def delete(company_id: int, audience_id: str):
    """Delete the audience for good, then back to the list with a receipt."""
    open_station(company_id)
    name = store.get_audience(company_id, audience_id)["name"]
    store.delete_audience(company_id, audience_id)
    flash(f"Audience “{name}” was deleted.")
    return redirect(url_for("audiences.page", company_id=company_id), code=303)


def _prices() -> dict:
    return {"preview_price": price_of(PREVIEW), "save_price": price_of(AUDIENCE)}


def _form_page(station: dict, form: dict, **context) -> str:
    base = url_for("audiences.new", company_id=station["company_id"])
    chips = [{"name": n, "value": v, **chip_words(n, v), "remove": link(base, _pairs(form, without=i))}
             for i, (n, v) in enumerate(form["filters"])]
    return render_template("audiences/new.html", station=station, form=form, chips=chips, defaults=DEFAULTS,
                           bounds=BOUNDS, **_prices(), **context)


def _detail_page(station: dict, audience: dict, **context) -> str:
    members = audience.get("members") or []
    number = max(1, min(asked(MembersArgs())["page"], (len(members) + SHOWN - 1) // SHOWN or 1))
    base = url_for("audiences.detail", company_id=station["company_id"], audience_id=audience["audience_id"])
    pages = {"number": number, "count": (len(members) + SHOWN - 1) // SHOWN, "first": (number - 1) * SHOWN + 1,
             "prev": link(base, [("page", number - 1)]) if number > 1 else None,
             "next": link(base, [("page", number + 1)]) if number * SHOWN < len(members) else None}
    filters = [chip_words(n, v) for n, v in filter_pairs(audience.get("filters"))]
    results = audience_results(station["company_id"], audience["audience_id"])
    return render_template("audiences/detail.html", station=station, audience=audience, filters=filters,
                           results=results, chart=arms_chart(results["daily"]),
                           pages=pages, members=members[(number - 1) * SHOWN:number * SHOWN],
                           numbers={q["query"]: i for i, q in enumerate(audience["queries"], 1)},
                           price=price_of(AUDIENCE), **context)


def typed_form(values) -> dict:
    """The create form as typed (text trimmed), to show again (AudienceForm reads it): the shared filters it
    carries as (name, value) pairs (blank ones left out, as on every page) and the previewed queries."""
    form = {name: (values.get(name) or "").strip() for name in ("audience_name", "theme", "description", "limit",
                                                               "min_score", "expiry_days", "holdout_percent",
                                                               "previewed", "plan_id")}
    form["filters"] = [(name, v.strip()) for name in SPEC for v in values.getlist(name) if v.strip()]
    form["queries"] = [q.strip() for q in values.getlist("queries") if q.strip()]
    return form


def fingerprint(settings: dict) -> str:
    """What the previewed queries depend on (theme, description, filters): saving re-uses them only while these
    are unchanged."""
    return json.dumps([settings["theme"], settings["description"], settings["flt"].to_params()])


def field_problems(items: list[dict]) -> dict[str, str]:
    """Each refused value's message by its form field (a filter's by "filters"; the audience's name is the field
    `audience_name`, since `name` is a filter)."""
    out: dict[str, str] = {}
    for item in items:
        name = str(item["loc"][-1])
        key = "filters" if item["loc"][0] in ("form", "query") and name in SPEC else FORM_NAMES.get(name, name)
        out[key] = f"{out[key]} {title(name)}: {item['msg']}" if key in out else (
            f"{title(name)}: {item['msg']}" if key == "filters" else item["msg"])
    return out


def _pairs(form: dict, without: int) -> list[tuple[str, str]]:
    kept = [(k, form[k]) for k in ("audience_name", "theme", "description", "holdout_percent", "plan_id")
            if form[k]]
    return kept + [pair for i, pair in enumerate(form["filters"]) if i != without]


def slug(text: str) -> str:
    """Lower-case letters, digits and hyphens: a file name any system takes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]
