"""What every page shares: htmx-aware rendering, safe redirects, the station being opened, the layout's context
and its formatting filters. Page modules import this module and never each other."""
from __future__ import annotations

import secrets
from datetime import date, datetime
from urllib.parse import urlencode, urlsplit

from flask import abort, current_app, g, make_response, render_template, request, url_for
from flask_login import current_user

from core.clock import as_utc, zone_of
from core.config import active
from core.credits.ledger import account
from core.credits.money import hundredths, phrase
from core.errors import AiPaused, CreditsExhausted, ProviderUnavailable
from core.explore.glossary import TEXTS
from core.explore.spec import SPEC
from core.segmentation.rules import LABELS, MEANINGS, SEGMENTS
from core.stations.companies import get_company, list_companies
from core.text.wording import day_words

NAVIGATION = (
    ("Overview", "overview.page", "overview"),
    ("Explorer", "explorer.page", "explorer"),
    ("Imports", "imports.page", "imports"),
    ("Search", "search.page", "search"),
    ("AI insights", "ai.page", "ai"),
    ("Audiences", "audiences.page", "audiences"),
    ("Alerts", "alerts.page", "alerts"),
    ("Briefs", "briefs.page", "briefs"),
    ("Campaigns", "campaigns.page", "campaigns"),
    ("Credits", "credits.page", "credits"),
    ("Webhooks", "webhooks.page", "webhooks"),
)
"""(label, endpoint, icon) of the station pages. An area's page view is `<area>.page(company_id)`; until its blueprint
is registered the entry is shown as "soon" and is not a link, so the navigation never leads to a 404."""


AREA_OF = {"listener": "explorer", "segment": "overview", "plans": "briefs", "tags": "overview"}
"""Blueprints whose pages belong to another area of the navigation (a listener is opened from the explorer)."""


def wants_fragment() -> bool:
    """True for an htmx request that is not a boosted navigation: it swaps a part of the page in.

    A history restore (the back button after a cache miss) is sent with HX-Request too, and needs the whole page.
    """
    return (request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def render_htmx(page: str, fragment: str, **context):
    """The whole page, or only its fragment when the request `wants_fragment`."""
    response = make_response(render_template(fragment if wants_fragment() else page, **context))
    response.vary.add("HX-Request")
    return response


def stations_of(user) -> list[dict]:
    """The stations the user may open, by id (read once per request: the layout and the picker share it)."""
    if "stations" not in g:
        companies = list_companies(None if user.admin else list(user.companies))
        g.stations = [{"company_id": c.company_id, "name": c.display_name, "timezone": c.timezone}
                      for c in companies]
    return g.stations


def open_station(company_id: int) -> dict:
    """The station the current user asked for; 403 when it is not theirs, whether or not it exists."""
    if not current_user.can_open(company_id):
        abort(403, "This station is not one of yours. Pick one of your stations instead.")
    company = get_company(company_id)
    return {"company_id": company.company_id, "name": company.display_name, "timezone": company.timezone,
            "tag_labels": {pair["tag"]: pair["label"] for pair in company.tag_labels or []}}


def layout_context() -> dict:
    """What every template may use: the segments, the explanations of the help, the user's stations (read lazily)
    and the navigation."""
    def my_stations() -> list[dict]:
        return stations_of(current_user) if current_user.is_authenticated else []

    return {"SEGMENTS": SEGMENTS, "SEGMENT_LABELS": LABELS, "SEGMENT_MEANINGS": MEANINGS, "HELP": TEXTS,
            "my_stations": my_stations, "navigation": navigation, "switch_url": switch_url, "unique_id": unique_id}


def unique_id(prefix: str) -> str:
    """An element id that no other element of the page holds, not even one that htmx swapped in from another
    response (a counter would start again in each)."""
    return f"{prefix}-{secrets.token_hex(4)}"


def navigation(company_id: int) -> list[dict]:
    """The sidebar entries for a station: a URL for areas that exist, None for those still to come."""
    entries = []
    here = AREA_OF.get(request.blueprint, request.blueprint)
    for label, endpoint, icon in NAVIGATION:
        exists = endpoint in current_app.view_functions
        entries.append({"label": label, "icon": icon, "active": here == endpoint.split(".")[0],
                        "url": url_for(endpoint, company_id=company_id) if exists else None})
    return entries


def switch_url(company_id: int) -> str:
    """The same page for another station when the page is a station-wide one, else that station's overview."""
    args = request.view_args or {}
    if request.endpoint and set(args) == {"company_id"}:
        return url_for(request.endpoint, company_id=company_id)
    return url_for("overview.page", company_id=company_id)


def format_day(iso_date: str | None) -> str | None:
    """2026-12-01 -> "1 Dec 2026", as dates are read on every page; a date written otherwise is shown as written,
    None as None."""
    if not iso_date:
        return None
    try:
        day = date.fromisoformat(iso_date)
    except ValueError:
        return iso_date
    return day_words(day)


def date_span(start: str | None, end: str | None) -> str | None:
    """"1 Dec 2026 to 14 Dec 2026", one day alone, "From ..." or "Until ..." when one end is missing, else None."""
    starts, ends = format_day(start), format_day(end)
    if starts and ends:
        return starts if starts == ends else f"{starts} to {ends}"
    return f"From {starts}" if starts else f"Until {ends}" if ends else None


def format_when(iso: str | None, tz: str | None = None) -> str:
    """An ISO time as '20 Nov 2026, 14:00 SAST' in the station's time zone."""
    if not iso:
        return "never"
    moment = datetime.fromisoformat(iso)
    local = as_utc(moment).astimezone(zone_of(tz))
    return f"{local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def credits_text(amount: int | float) -> str:
    """Credits as a sentence says them ("1 credit", "0.25 credits", "1,000 credits"): the filter `credits`."""
    return phrase(hundredths(amount))


REFUSALS = (CreditsExhausted, AiPaused, ProviderUnavailable)
"""What a paid AI call may be refused with that a page explains rather than answers with an error page."""


def price_of(operation: str) -> str:
    """The operation's price in words, from the price table ("1 credit", "5 credits")."""
    return credits_text(active().prices[operation])


def refusal(error: Exception, company_id: int, operation: str) -> str:
    """Why a paid AI call was refused, in words a producer can act on."""
    if isinstance(error, CreditsExhausted):
        balance = credits_text(account(company_id)["balance"])
        return (f"Not enough credits: this costs {price_of(operation)} and the balance is {balance}. "
                "Ask an admin to load more.")
    if isinstance(error, ProviderUnavailable):
        return "The AI service is not answering; nothing was charged. Try again in a minute."
    return error.detail


def form_text(value) -> str:
    """A filter value as a form or a link holds it ("true", "2026-11-01T00:00:00+02:00", "3")."""
    return "true" if value is True else "false" if value is False else str(value)


def filter_pairs(filters: dict | None) -> list[tuple[str, str]]:
    """Filters by name, each a value or a list of values (ListenerFilter.as_values, a saved strategy, an answer), as
    (name, value) pairs in the filter set's order, one per value: what chips and links are made of."""
    pairs = []
    for name in SPEC:
        value = (filters or {}).get(name)
        if value is not None:
            pairs.extend((name, form_text(v)) for v in (value if isinstance(value, (list, tuple)) else [value]))
    return pairs


def grouped(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """(name, value) pairs as the filter type reads them: name -> values."""
    out: dict[str, list[str]] = {}
    for name, value in pairs:
        out.setdefault(name, []).append(value)
    return out


def safe_next(target: str | None) -> str | None:
    """`target` when it is a path on this site (never another host), else None."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def link(base: str, pairs: list) -> str:
    """The URL with these query parameters (none: the bare URL)."""
    return f"{base}?{urlencode(pairs)}" if pairs else base
