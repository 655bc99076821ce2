"""The explorer: the whole shared filter set as a GET form; matching listeners, charts, completeness and export."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, Response, request, stream_with_context, url_for
from flask_login import login_required
from marshmallow import ValidationError, fields

from api.arguments import Whole
from api.filter_args import ChannelPair, ExportArgs, FilterPageArgs
from core.clock import station_today
from core.errors import ValidationFailed
from core.explore import operations as explorer
from core.explore.export import export_stream
from core.explore.filters import ListenerFilter
from core.explore.spec import EXCLUSIONS, SPEC
from core.listeners.fields import INFERRED, INFERRED_VOCABULARIES
from core.stations.labels import tag_labels
from webapp.asking import asked
from webapp.charts import charts, counts_of, heat_map
from webapp.helpers import filter_pairs, grouped, link, open_station, render_htmx
from webapp.labels import FIELD_LABELS, chip_words, title, value_label

bp = Blueprint("explorer", __name__)

PAGE_SIZES = (25, 50, 100)
GROUPS = (
    ("Segment", ("segment", "churn_risk", "tags")),
    ("Declared", ("gender", "age_group", "ethnicity", "language", "location", "income_bracket", "education",
                  "employment_status")),
    ("Contact", ("name", "email", "originator")),
    ("Inferred", ("inferred_gender", "inferred_age_group", "inferred_language", "inferred_location", "inferred_lsm",
                  "inferred_interests")),
    ("Channel", ("channel_type", "has_channel", "campaign_type")),
    ("Time patterns", ("peak_time_of_day", "peak_hour", "primary_day_of_week", "peak_month", "weekday_pattern",
                       "public_holiday")),
    ("Engagement", ("permission", "opt_in", "profile_complete", "missing_fields", "last_interaction_after",
                    "last_interaction_before")),
    ("Show", ("timeslot_id",)),
)
"""Every parameter of core.explore.spec.SPEC but the exclusions (the form carries them unseen: `excluded`), grouped
as the spec groups them (a test holds the two together)."""
WIDGETS = {"strings": "checks", "ints": "checks", "all_of": "checks", "string": "select", "int": "select",
           "bool": "yesno", "exact": "text", "partial": "text", "datetime": "date"}
PRESET_DAYS = (7, 30, 90)
NEWEST_FIRST = ("last_active", "interactions_30d", "churn")
"""Columns whose first click sorts the largest first."""
NO_INFERENCE = ("No listener has inferred values yet, so these filters match nobody for now. They fill in once "
                "AI inference has run on this station's listeners.")


def _sort_of(value: str) -> None:
    try:
        explorer.parse_sort(value)
    except ValidationFailed as refused:
        raise ValidationError(refused.items[0]["msg"]) from None


class ExplorerArgs(FilterPageArgs):
    """The explorer's query: the shared filters, a page (of PAGE_SIZES[0] rows unless said), the table's order and
    the heat map's channel pair. Its GET form's empty fields mean no filter (webapp.asking, `filled`)."""

    page_size = Whole(1, explorer.MAX_PAGE_SIZE, load_default=PAGE_SIZES[0])
    sort = fields.Str(load_default=explorer.DEFAULT_SORT, validate=_sort_of)
    channel_pair = ChannelPair()


@bp.get("/stations/<int:company_id>/explorer")
@login_required
def page(company_id: int):
    """The explorer; for htmx (filters changed, another page) only its results."""
    station = open_station(company_id)
    context = explore(company_id, station["timezone"])
    return render_htmx("explorer/page.html", "explorer/_fragment.html", station=station, **context)


@bp.get("/stations/<int:company_id>/explorer/export.csv")
@login_required
def export_csv(company_id: int):
    """Every listener matching the filters of the query string, as CSV."""
    return _export(company_id, "csv")


@bp.get("/stations/<int:company_id>/explorer/export.json")
@login_required
def export_json(company_id: int):
    """Every listener matching the filters of the query string, as a JSON array."""
    return _export(company_id, "json")


def _export(company_id: int, fmt: str) -> Response:
    open_station(company_id)
    args = asked(ExportArgs(exclude=("format",)), filled=True)  # the format is the address's
    export = export_stream(company_id, args["flt"], args.get("channel_pair"), fmt)
    return Response(stream_with_context(export.chunks), mimetype=export.mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{export.filename}"'})


def explore(company_id: int, tz: str | None = None) -> dict:
    """Everything the explorer shows for its query (ExplorerArgs; refused ones become `problems`, never a 500)."""
    base = url_for("explorer.page", company_id=company_id)
    try:
        args = asked(ExplorerArgs(), filled=True)
    except ValidationFailed as error:
        params = {name: kept for name, values in request.args.lists() if (kept := [v for v in values if v.strip()])}
        station = explorer.aggregate(company_id, ListenerFilter())
        pairs, names = raw_pairs(params), _names(station, company_id)
        return {**_context(station, names, base), "groups": form_groups(station, pairs, names),
                "excluded": excluded(pairs), "chips": chips(base, pairs, [], names),
                "problems": problems(base, params, error.items)}
    flt, number, size, sort, pair = (args["flt"], args["page"], args["page_size"], args["sort"],
                                     args.get("channel_pair"))
    view = explorer.explore(company_id, flt, number, size, sort, pair)
    station, results, names = view["station"], view["results"], _names(view["station"], company_id)
    pairs = filter_pairs(flt.as_values()) + ([("channel_pair", f"{pair[0]},{pair[1]}")] if pair else [])
    keep = ([] if size == PAGE_SIZES[0] else [("page_size", str(size))]) + \
        ([] if sort == explorer.DEFAULT_SORT else [("sort", sort)])
    presets = {"last_interaction_after": date_presets(base, pairs, keep, tz)}
    return {**_context(station, names, base), "groups": form_groups(station, pairs, names, view["facets"], presets),
            "excluded": excluded(pairs), "chips": chips(base, pairs, keep, names), "results": results,
            "pager": pager(base, pairs + keep, results),
            "charts": charts(view["aggregate"], names, base, pairs), "aggregate": view["aggregate"],
            "completeness": view["completeness"], "heat": heat_map(view["cross_channel"], base, pairs),
            "page_sizes": sorted({*PAGE_SIZES, size}), "problems": None, "sorts": sort_links(base, pairs, size, sort),
            "exports": {fmt: link(url_for(f"explorer.export_{fmt}", company_id=company_id), pairs)
                        for fmt in ("csv", "json")},
            "save_audience": link(url_for("audiences.new", company_id=company_id), filter_pairs(flt.as_values()))}


def date_presets(base: str, pairs: list, keep: list, tz: str | None) -> list[dict]:
    """"Last 7 / 30 / 90 days": links setting `last_interaction_after` to that many days before the station's today."""
    today, chosen = station_today(tz), dict(pairs).get("last_interaction_after", "")[:10]
    others = [p for p in pairs if p[0] != "last_interaction_after"]
    out = []
    for days in PRESET_DAYS:
        since = (today - timedelta(days=days)).isoformat()
        out.append({"label": f"Last {days} days", "on": chosen == since,
                    "url": link(base, others + [("last_interaction_after", since)] + keep)})
    return out


def sort_links(base: str, pairs: list, size: int, sort: str) -> dict:
    """Per sortable column: the link that sorts by it (reversing it when it is the current order) and its aria-sort."""
    size_pair = [] if size == PAGE_SIZES[0] else [("page_size", str(size))]
    out = {}
    for name in explorer.SORTS:
        first = f"-{name}" if name in NEWEST_FIRST else name
        current = sort.lstrip("-") == name
        target = (name if sort.startswith("-") else f"-{name}") if current else first
        out[name] = {"url": link(base, pairs + size_pair + ([] if target == explorer.DEFAULT_SORT else
                                                           [("sort", target)])),
                     "aria": ("descending" if sort.startswith("-") else "ascending") if current else None}
    return out


def _names(station: dict, company_id: int) -> dict:
    """Channel names and show titles of the station, by id as text, and its own names of tags."""
    return {"channels": {k: v["name"] for k, v in station.get("has_channel", {}).items()},
            "shows": {k: v["title"] for k, v in station.get("timeslot_counts", {}).items()},
            "tags": tag_labels(company_id)}


def _context(station: dict, names: dict, base: str) -> dict:
    return {"station_total": station["total"], "names": names, "base": base, "field_labels": FIELD_LABELS}


def raw_pairs(params: dict) -> list[tuple[str, str]]:
    """The filter parameters as they were typed (when some are invalid), blank ones left out."""
    return [(name, value) for name in SPEC for value in params.get(name, []) if str(value).strip()]


def chips(base: str, pairs: list, keep: list, names: dict) -> list[dict]:
    """One removable chip per active filter value ("Segment: not Super fan" for an excluded one); its link is the
    view without it."""
    return [{"name": name, **chip_words(name, value, names), "remove": link(base, pairs[:i] + pairs[i + 1:] + keep)}
            for i, (name, value) in enumerate(pairs)]


def excluded(pairs: list) -> list[tuple[str, str]]:
    """The exclusions among the filters: the form carries them unseen, having no control for them."""
    return [(name, value) for name, value in pairs if name in EXCLUSIONS]


def problems(base: str, params: dict, items: list[dict]) -> list[dict]:
    """Each invalid parameter with its message and the link that drops it."""
    out = []
    for item in items:
        name = str(item["loc"][-1])
        pairs = [(k, v) for k, values in params.items() if k != name for v in values]
        out.append({"name": name, "title": title(name) if name in SPEC else name.replace("_", " ").capitalize(),
                    "value": ", ".join(map(str, params.get(name, []))), "msg": item["msg"],
                    "remove": link(base, pairs)})
    return out


def _choices(name: str, station: dict, names: dict) -> list[str]:
    kind, _, allowed = SPEC[name]
    if name in INFERRED_VOCABULARIES:  # the allowed values, then any other the snapshot holds
        known = list(INFERRED_VOCABULARIES[name])
        return known + [v for v in counts_of(name, station) if v.lower() not in {k.lower() for k in known}]
    if name == "peak_hour":
        return [str(h) for h in range(24)]
    if name in ("primary_day_of_week", "peak_month"):
        return [str(n) for n in range(1, (7 if name == "primary_day_of_week" else 12) + 1)]
    if name in ("channel_type", "has_channel"):
        return sorted(names["channels"], key=int)
    if kind == "strings" and allowed:
        return list(allowed)
    return list(counts_of(name, station))


def inferred_yet(station: dict) -> bool:
    """Whether any listener of the station has an inferred value (until then the inferred filters match nobody)."""
    return any(counts_of(name, station) for name in INFERRED)


def form_groups(station: dict, pairs: list, names: dict, facets: dict | None = None,
                presets: dict | None = None) -> list[dict]:
    """The filter form: groups of fields, each with its widget, options (with their facet counts: what each option
    would match under the other filters, 0 included) and chosen values."""
    facets = facets or {}
    chosen = grouped(pairs)
    groups = []
    for group_title, members in GROUPS:
        fields = []
        for name in members:
            counts, picked = counts_of(name, facets.get(name, station)), chosen.get(name, [])
            values = _choices(name, station, names)
            lowered = {v.lower() for v in values}
            values += [v for v in picked if v.lower() not in lowered]  # a value from the URL the station lacks
            widget = WIDGETS[SPEC[name][0]]
            if widget in ("checks", "select") and not values:
                widget = "none" if name in INFERRED else "text"
            fields.append({"name": name, "title": title(name), "widget": widget,
                           "options": [(v, value_label(name, v, names), counts.get(v, 0)) for v in values],
                           "chosen": {v.lower() for v in picked}, "value": ",".join(picked),
                           "presets": (presets or {}).get(name)})
        groups.append({"title": group_title, "fields": fields,
                       "open": group_title == "Segment" or any(name in chosen for name in members),
                       "note": NO_INFERENCE if set(members) & set(INFERRED) and not inferred_yet(station) else None})
    return groups


def pager(base: str, pairs: list, results: dict) -> dict:
    """Previous/next and a window of page numbers, each a link that keeps `pairs` (filters, page size, sort)."""
    number, pages, size = results["page"], results["pages"], results["page_size"]
    keep = pairs

    def at(n: int) -> str:
        return link(base, keep + ([("page", str(n))] if n > 1 else []))

    shown = sorted({1, pages, *range(max(1, number - 2), min(pages, number + 2) + 1)} - {0})
    window, last = [], 0
    for n in shown:
        if n - last > 1:
            window.append(None)
        window.append({"n": n, "url": at(n), "current": n == number})
        last = n
    first_row = (number - 1) * size + 1
    return {"window": window, "prev": at(number - 1) if number > 1 else None,
            "next": at(number + 1) if number < pages else None, "first": first_row,
            "last": min(number * size, results["total"]), "past_end": number > pages, "first_url": at(1)}
