"""Campaign briefs: a producer pastes an advertiser's brief; "Read the brief" (paid) shows the criteria it was parsed
into as filter chips the producer can edit or remove (free), with what could not be mapped and the dates, budget and
goal; "Recommend" (paid, or free from the 24-hour cache) posts the brief with the edited filters and shows the
recommendation with its figures, the audience's profile, which filters overrode the brief and whether it was cached.

Each step is swapped in by htmx (200 even for a refusal, since htmx swaps only 2xx answers) and is a page of its own
without scripts, with the refusal's status.
"""
from __future__ import annotations

from flask import Blueprint, make_response, render_template, url_for
from flask_login import login_required
from marshmallow import fields, validate

from api.arguments import RequestSchema, Whole
from core.campaigns.brief import MAX_BRIEF, parse_brief
from core.campaigns.plans import list_plans
from core.campaigns.recommend import DEFAULT_SAMPLE, MAX_SAMPLE, recommend
from core.errors import ValidationFailed
from core.explore.filters import TRUE, parse_filters
from core.explore.spec import SPEC, included
from core.text.wording import number
from webapp.asking import PageForm, asked
from webapp.helpers import (
    REFUSALS,
    date_span,
    filter_pairs,
    form_text,
    grouped,
    open_station,
    price_of,
    refusal,
    wants_fragment,
)
from webapp.labels import title, value_label
from webapp.recommendations import reco_context, station_names

bp = Blueprint("briefs", __name__)

PARSE, RECOMMEND = "parse_brief", "recommend"
"""The price table's names of the two paid steps."""
SAMPLE_BOUNDS = (1, MAX_SAMPLE)
MAX_CHIPS = 1000
ORDER = {name: index for index, name in enumerate(SPEC)}
"""The chips' order: the filter set's."""


class BriefArgs(RequestSchema):
    """The briefs page's address: a brief to fill the box with (a campaign starts one so)."""

    brief = fields.Str(load_default="")


class ReadForm(PageForm):
    """The brief to read (core says what a brief must be)."""

    brief = fields.Str(load_default="")


ChipsForm = PageForm.from_dict({
    "brief": fields.Str(load_default=""),
    "remove": Whole(0, MAX_CHIPS - 1),
    "add_field": fields.Str(validate=validate.OneOf(SPEC)),
    "add_value": fields.Str(),
    "sample_size": fields.Str(),
    "dates": fields.Str(load_default=""),
    **{name: fields.List(fields.Str(), load_default=list) for name in SPEC},
}, name="ChipsForm")
"""The recommend form as the chips' buttons post it: the brief, each filter value as typed (the filter type says
what it refuses, beside the chips), the chip removed or the filter added, the reading of the brief's dates picked
("start/end"); its empty fields left out."""


class RecommendForm(ChipsForm):
    """The recommend form as its own button posts it: the sample size is the API's."""

    sample_size = Whole(*SAMPLE_BOUNDS, load_default=DEFAULT_SAMPLE)


@bp.get("/stations/<int:company_id>/briefs")
@login_required
def page(company_id: int):
    """The briefs page: the box to paste a brief into and the price of reading it; `brief` fills the box (a campaign
    starts one so), cut to the longest brief that can be read."""
    return _page(open_station(company_id), "briefs/page.html", 200,
                 brief=asked(BriefArgs(), filled=True)["brief"].strip()[:MAX_BRIEF], plans=list_plans(company_id))


@bp.post("/stations/<int:company_id>/briefs/read")
@login_required
def read(company_id: int):
    """Read the brief (paid): its criteria as filter chips, what could not be mapped, dates, budget and goal."""
    station = open_station(company_id)
    brief = asked(ReadForm(), "form", filled=True)["brief"]
    context, status = {"brief": brief}, 200
    try:
        parsed = parse_brief(company_id, brief)
        names = station_names(company_id)
        context.update(parsed=parsed, criteria=criteria_rows(parsed["criteria"], names), facts=facts(parsed),
                       chips=chips(filter_pairs(parsed["filters"]), names), readings=readings(parsed["questions"]))
    except ValidationFailed as error:
        context["problem"], status = " ".join(item["msg"] for item in error.items), error.status
    except REFUSALS as error:
        context["problem"], status = refusal(error, company_id, PARSE), error.status
    return _page(station, "briefs/_parsed.html", status, **context)


@bp.post("/stations/<int:company_id>/briefs/filters")
@login_required
def edit(company_id: int):
    """Remove a chip or add a filter (free): the chips again, each value as posted."""
    station = open_station(company_id)
    form = asked(ChipsForm(), "form", filled=True)
    pairs = [pair for i, pair in enumerate(posted_pairs(form)) if i != form.get("remove")]
    if "add_field" in form and "add_value" in form:
        pairs.append((form["add_field"], form["add_value"].strip()))
    pairs.sort(key=lambda pair: ORDER[pair[0]])  # the chips' order, which `remove` counts in
    return _page(station, "briefs/_filters.html", 200, brief=form["brief"],
                 chips=chips(pairs, station_names(company_id)), problems=filter_problems(pairs))


@bp.post("/stations/<int:company_id>/briefs/recommend")
@login_required
def recommendation(company_id: int):
    """Recommend (paid, or free from the cache) for the brief within the chips' filters, which win over the brief's
    own criteria; a refused value or a refusal is said in place of the recommendation."""
    station = open_station(company_id)
    form, names = asked(ChipsForm(), "form", filled=True), station_names(company_id)
    brief, pairs = form["brief"], posted_pairs(form)
    context, status = {"brief": brief, "chips": chips(pairs, names)}, 200
    try:
        sample = asked(RecommendForm(), "form", filled=True)["sample_size"]
        found = recommend(company_id, brief, sample_size=sample, flt=parse_filters(grouped(pairs), location="form"),
                          dates=picked_dates(form["dates"]), loc=("form", "dates"))
        context.update(reco_context(found, pairs, names))
    except ValidationFailed as error:
        context["problem"] = "Nothing was charged. " + " ".join(
            f"{title(str(item['loc'][-1]))}: {item['msg']}" for item in error.items)
        status = error.status
    except REFUSALS as error:
        context["problem"], status = refusal(error, company_id, RECOMMEND), error.status
    return _page(station, "briefs/_recommendation.html", status, **context)


def _page(station: dict, fragment: str, status: int, **context):
    """The fragment alone for htmx, with 200 even for a refusal; otherwise the whole page with the status."""
    alone = wants_fragment()
    context.update(station=station, prices={"read": price_of(PARSE), "recommend": price_of(RECOMMEND)},
                   urls={name: url_for(f"briefs.{name}", company_id=station["company_id"])
                         for name in ("read", "edit", "recommendation")},
                   fields=[(name, title(name)) for name in SPEC], sample=DEFAULT_SAMPLE, sample_bounds=SAMPLE_BOUNDS,
                   max_brief=MAX_BRIEF)
    response = make_response(render_template(fragment if alone else "briefs/page.html", **context),
                             200 if alone else status)
    response.vary.add("HX-Request")
    return response


def readings(questions: list[dict]) -> list[dict]:
    """Every reading of the dates the brief's questions offer, once each, with the words it reads: the choices of the
    form (a question about the budget is said, not picked: the plan takes no budget from the form)."""
    out = []
    for q in (q for q in questions if q["field"] == "dates"):
        out += [{**r, "asked": q["words"]} for r in q["readings"] if (r["start"], r["end"]) not in
                {(o["start"], o["end"]) for o in out}]
    return out


def picked_dates(value: str) -> dict | None:
    """The reading of the brief's dates the producer picked ("2026-12-05/2026-12-06"), None for none (core says
    what it refuses of them)."""
    start, _, end = value.strip().partition("/")
    return {"start": start, "end": end or start} if start else None


def posted_pairs(form: dict) -> list[tuple[str, str]]:
    """The filter values of the posted form (ChipsForm), in the order of its chips."""
    return [(name, value.strip()) for name in SPEC for value in form[name]]


def chips(pairs: list[tuple[str, str]], names: dict) -> list[dict]:
    """One chip per filter value: its field's title, the value in words, and how it can be changed (a list of the
    values it may take, yes or no, a date, or a text field)."""
    out = []
    for name, value in pairs:
        kind, options = SPEC[name][0], options_of(name, names)
        if options is not None and value.lower() not in {v.lower() for v, _ in options}:
            options.append((value, value_label(name, value, names)))
        widget = "select" if options else {"bool": "yesno", "datetime": "date"}.get(kind, "text")
        out.append({"name": name, "title": title(name), "value": value, "label": value_label(name, value, names),
                    "widget": widget, "options": options or [], "yes": value.lower() in TRUE})
    return out


def options_of(name: str, names: dict) -> list[tuple[str, str]] | None:
    """The values a filter (or its exclusion) may take at the station, with their words; None when they are not a
    short list."""
    kind, _, allowed = SPEC[name]
    name = included(name)
    if kind == "strings" and allowed:
        return [(a, value_label(name, a)) for a in allowed]
    if name in ("channel_type", "has_channel"):
        return sorted(names["channels"].items(), key=lambda item: int(item[0]))
    if name == "timeslot_id":
        return sorted(names["shows"].items(), key=lambda item: item[1])
    return None


def criteria_rows(criteria: list[dict], names: dict) -> list[dict]:
    """The targeting criteria as the page lists them: the filter's title, its values in words and the brief's words
    they came from (dates, budget and goal are listed as facts instead)."""
    return [{"field": c["field"], "title": title(c["field"]), "words": c.get("words"),
             "values": [value_label(c["field"], form_text(v), names) for v in c["values"]]}
            for c in criteria if c["field"] in SPEC]


def facts(parsed: dict) -> list[dict]:
    """The campaign's dates, budget and goal where the brief states them, in words, with the words they came from."""
    out = []
    if parsed.get("dates"):
        dates = parsed["dates"]
        only = ", weekends only" if dates.get("weekdays") == [6, 7] else ""
        out.append({"label": "Dates", "value": date_span(dates["start"], dates["end"]) + only,
                    "words": dates.get("words")})
    if parsed.get("budget"):
        budget = parsed["budget"]
        out.append({"label": "Budget", "value": f"{budget['currency']} {number(budget['amount'])}",
                    "words": budget.get("words")})
    if parsed.get("goal"):
        out.append({"label": "Goal", "value": str(parsed["goal"]["value"]).replace("_", " ").capitalize(),
                    "words": parsed["goal"].get("words")})
    return out


def filter_problems(pairs: list[tuple[str, str]]) -> list[str]:
    """What the filter type refuses of these values, in sentences (none: they can be recommended on)."""
    try:
        parse_filters(grouped(pairs), location="form")
    except ValidationFailed as error:
        return [f"{title(str(item['loc'][-1]))}: {item['msg']}" for item in error.items]
    return []
