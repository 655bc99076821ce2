"""Search by meaning: a plain-language query within the search's filters; each listener found with its score and the
parts of their profile that made them match. A GET form, so that a search can be bookmarked; htmx swaps the results."""
from __future__ import annotations

from flask import Blueprint, request, url_for
from flask_login import login_required
from marshmallow import fields, validate

from api.search import SearchArgsSchema
from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.operations import aggregate
from core.explore.spec import EXCLUSIONS, SPEC, included
from core.places.placing import in_place_words
from core.search.search import LIMIT, MIN_SCORE, search_listeners
from webapp.asking import asked
from webapp.charts import counts_of
from webapp.helpers import link, open_station, render_htmx, wants_fragment
from webapp.labels import title, value_label

bp = Blueprint("search", __name__)

CHOICES = ("segment", "gender", "age_group", "language")
"""The search's filters offered as lists of the station's values; `tags` and `location` are typed in."""
FIELDS = ("q", *CHOICES, "tags", "location", "min_score", "limit", "as_text")
DEFAULTS = {"min_score": MIN_SCORE, "limit": LIMIT}
"""The contract's defaults, core's, as the API's are."""


class SearchPageArgs(SearchArgsSchema):
    """The API's search arguments, of which the page offers FIELDS; its query may be left out (the form then shows
    a prompt), and its GET form's empty fields mean "any" (webapp.asking, `filled`)."""

    q = fields.Str(validate=validate.Length(max=500))


@bp.get("/stations/<int:company_id>/search")
@login_required
def page(company_id: int):
    """The search page; for htmx (the form sent) only its results. Invalid values are named on the page, never a
    500; an empty query shows the form with a prompt."""
    station = open_station(company_id)
    args = typed_fields()
    context = {"args": args, "base": url_for("search.page", company_id=company_id), "defaults": DEFAULTS,
               "save_audience": audience_link(company_id, args), **search(company_id, args)}
    if not wants_fragment():
        context["form"] = form(company_id, args)
    return render_htmx("search/page.html", "search/_fragment.html", station=station, **context)


def typed_fields() -> dict[str, list[str]]:
    """The form's fields as typed, without the empty ones (an empty field means "any" on a page): what the links and
    the problems repeat."""
    return {name: kept for name, values in request.args.lists() if (kept := [v.strip() for v in values if v.strip()])}


def search(company_id: int, args: dict) -> dict:
    """The results for these fields: `problems` when some are invalid, `found` None while there is no query."""
    try:
        read = asked(SearchPageArgs(only=FIELDS), filled=True)
    except ValidationFailed as error:
        return {"problems": [problem(args, item) for item in error.items], "found": None, "suggested": []}
    if "q" not in read:
        return {"problems": [], "found": None, "suggested": []}
    found = search_listeners(company_id, read["q"], read["flt"], read.get("location"), read["min_score"],
                             read["limit"], tuple(read.get("as_text", ())))
    return {"problems": [], "found": found, "understood": understood_chips(company_id, args, found["understood"]),
            "suggested": suggested_chips(company_id, found["suggestions"])}


def understood_chips(company_id: int, args: dict, understood: dict) -> list[dict]:
    """How the query was read, a chip per criterion ("Tags: gospel", "Channel used: not SMS") and one per group of
    criteria met by the same interactions ("Same interactions: competition · on WhatsApp"), each with the link that
    reads its words as plain text instead."""
    pairs = [(name, value) for name, values in args.items() for value in values]
    base = url_for("search.page", company_id=company_id)
    alone = [{"title": title(included(c["field"])),
              "label": ("not " if c["field"] in EXCLUSIONS else "") + _label(c), "words": c["words"],
              "remove": link(base, [*pairs, ("as_text", c["words"])])}
             for c in understood["criteria"] if c.get("bound") is None]
    together = [{"title": "Same interactions", "label": group["label"], "words": " ".join(group["words"]),
                 "remove": link(base, [*pairs, *(("as_text", words) for words in group["words"])])}
                for group in understood.get("bound", ())]
    return alone + together + meant_chips(understood)


def suggested_chips(company_id: int, suggestions: list[dict]) -> list[dict]:
    """The station's values closest to a query nobody holds anything of, each a link to the search for it."""
    kinds = {"tags": "Tag", "inferred_interests": "Interest", "timeslot_id": "Show"}
    return [{"title": kinds.get(v["field"], title(v["field"])), "label": shown(v),
             "href": url_for("search.page", company_id=company_id, q=shown(v))} for v in suggestions]


def shown(value: dict) -> str:
    """A station value as a producer reads it (a show by its title, a tag by its name as the station words it)."""
    return value["label"] if value["field"] == "timeslot_id" else value_label(value["field"], value["value"])


def meant_chips(understood: dict) -> list[dict]:
    """A chip per free word the model read as values of the station ("worship" means: praise, faith), which holds
    as the listener's own words do (no link: the word is already read as plain words)."""
    return [{"title": f"“{m['words']}” means", "words": m["words"], "remove": None,
             "label": " or ".join(shown(v) for v in m["values"])}
            for m in understood.get("meant", ())]


def _label(criterion: dict) -> str:
    """A criterion's values as the chip shows them: a place with the station's locations it took."""
    if included(criterion["field"]) == "location":
        return in_place_words(criterion["words"], criterion["labels"])
    return " or ".join(criterion["labels"])


def problem(args: dict, item: dict) -> dict:
    """An invalid field with its message, and the link to the same search without it."""
    name = str(item["loc"][-1])
    labels = {"q": "Query", "min_score": "Minimum score", "limit": "At most"}
    rest = [(k, v) for k, values in args.items() if k != name for v in values]
    return {"name": name, "title": labels.get(name) or title(name), "value": ", ".join(args.get(name, [])),
            "msg": item["msg"], "remove": link(url_for("search.page", company_id=request.view_args["company_id"]),
                                               rest)}


def audience_link(company_id: int, args: dict) -> str:
    """The audience form prefilled with this search: its query as the theme, its filters (the location, which search
    matches in part, becomes the filter that matches it whole)."""
    pairs = [("theme", v) for v in args.get("q", [])[:1]]
    pairs += [(name, v) for name in (*CHOICES, "tags", "location") for v in args.get(name, [])]
    return link(url_for("audiences.new", company_id=company_id), pairs)


def form(company_id: int, args: dict) -> dict:
    """The lists of the form: each filter's values at the station (the allowed ones first), with their counts."""
    station = aggregate(company_id, ListenerFilter())
    out = {"total": station["total"], "fields": []}
    for name in CHOICES:
        counts, allowed = counts_of(name, station), SPEC[name][2]
        values = list(allowed or []) + sorted(v for v in counts if not allowed or v not in allowed)
        chosen = (args.get(name) or [""])[0]
        out["fields"].append({"name": name, "title": title(name), "chosen": chosen.lower(),
                              "options": [(v, value_label(name, v), counts.get(v, 0)) for v in values]})
    return out
