"""A platform's campaigns as this service keeps them: the station each belongs to (the field PLATFORM_COMPANY_FIELD
names) and what a producer reads of it, as short plain text and numbers.

Nothing of the platform's answer is trusted: a field of an unexpected type is left out, texts are cut to a length a
page can show, and a campaign whose station cannot be read is still listed but opens no station.
"""
from __future__ import annotations

import re
from datetime import date

from core.errors import PlatformUnavailable

SHORT, LONG = 200, 2000
"""The longest text kept of a name, date or status, and of a brief or description."""
MAX_CAMPAIGNS = 1000
"""Campaigns kept per user (the stations are read from all of them): enough for any producer's page."""
MAX_DETAILS = 10
FIELDS = {
    "id": ("id", "uuid", "slug"),
    "name": ("name", "title"),
    "starts": ("start_date", "starts_at", "start", "begins_at", "flight_start"),
    "ends": ("end_date", "ends_at", "end", "flight_end"),
    "status": ("status", "state"),
    "advertiser": ("advertiser", "advertiser_name", "client", "client_name", "brand"),
    "brief": ("brief", "description", "summary"),
    "budget": ("budget", "budget_amount"),
    "currency": ("currency", "budget_currency"),
}
"""What the page shows, each from the first of these fields the platform gives."""
DATES = ("starts", "ends")
HIDDEN = re.compile(r"(^|_)(id|ids|url|uri|href|token|secret|password|key|pk)$|token|secret|password", re.I)
"""Fields never shown among a campaign's other details: identifiers, links and anything that sounds secret."""
LABEL = re.compile(r"^[A-Za-z][A-Za-z0-9_ ]{0,39}$")


def campaigns_of(raw: list, company_field: str) -> list[dict]:
    """The campaigns of a platform answer as kept; PlatformUnavailable when one of them is not an object."""
    if not all(isinstance(item, dict) for item in raw):
        raise PlatformUnavailable()
    return [campaign_of(item, company_field) for item in raw]


def campaign_of(item: dict, company_field: str) -> dict:
    """One campaign: its station (None when the field is missing or not a whole number), the fields of FIELDS and up
    to MAX_DETAILS other short fields as [label, text] pairs."""
    found = {"company_id": company_of(item, company_field)}
    used = {company_field.split(".")[0]}
    for name, candidates in FIELDS.items():
        key = next((c for c in candidates if _plain(item.get(c)) is not None), None)
        used.update(candidates)
        value = _plain(item.get(key), LONG if name == "brief" else SHORT) if key else None
        found[name] = _day(value) if name in DATES else value
    found["details"] = [[_label(key), _text(value)] for key, value in item.items()
                        if key not in used and isinstance(key, str) and LABEL.match(key) and not HIDDEN.search(key)
                        and _plain(value) is not None][:MAX_DETAILS]
    return found


def company_of(item: dict, company_field: str) -> int | None:
    """The station a campaign belongs to: the field (a.b reads a nested one) as a whole number or digits."""
    value = item
    for part in company_field.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 12:
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 10**12 else None


def companies_of(campaigns: list[dict]) -> list[int]:
    """The stations of these campaigns, each once, in order."""
    return sorted({c["company_id"] for c in campaigns if c.get("company_id") is not None})


def station_campaigns(campaigns: list[dict], company_id: int) -> list[dict]:
    """The campaigns of one station."""
    return [c for c in campaigns if c.get("company_id") == company_id]


def brief_text(campaign: dict) -> str:
    """What starts a brief from a campaign: its brief or description, else its name."""
    return campaign.get("brief") or campaign.get("name") or ""


def _plain(value, limit: int = SHORT):
    """A text (trimmed, cut to `limit`) or a finite number; None for anything else (objects, lists, booleans)."""
    if isinstance(value, str):
        text = " ".join(value.split()) if limit == SHORT else value.strip()
        return text[:limit] if text else None
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e15:
        return value
    return None


def _text(value) -> str:
    plain = _plain(value)
    return str(int(plain)) if isinstance(plain, float) and plain.is_integer() else str(plain)


def _label(key: str) -> str:
    return key.replace("_", " ").strip().capitalize()


def _day(value) -> str | None:
    """A date as ISO (2026-12-01) when it starts like one, else the text as given."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        return value
