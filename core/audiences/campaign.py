"""When an audience's campaign runs and what counts as a response (docs/decisions.md, "Campaign results"), checked
here once for the API and the pages, and recorded on the audience.

A campaign runs from `starts` to `ends`, both days included, on the station's calendar. A response is any
interaction in that window, or only those of a `campaign_type`, on a `channel_type` or during a show (`timeslot_id`):
each one given narrows it, together. `hoped_lift_points` is the lift the plan hopes for, in percentage points: what
the results say how many listeners would be needed to see.
"""
from __future__ import annotations

import math
import re
from datetime import date, datetime

from core.audiences.models import Audience
from core.audiences.rules import Problems
from core.clock import as_utc, zone_of
from core.errors import AudienceNotFound
from core.explore.spec import SPEC
from core.listeners.snapshot import Snapshot
from core.stations.defaults import channel_name, show_name

GOAL = ("campaign_type", "channel_type", "timeslot_id")
HOPED_LIFT_POINTS = 2.0
"""The lift a plan hopes for when it says none: two points more of the target than of the holdout responding, what
a well-aimed station campaign moves."""
HOPED_LIMITS = (0.1, 50.0)
LONGEST_DAYS = 366
"""A window of at most a year: results are read day by day."""
PLAN_ID = re.compile(r"^[0-9a-f]{16}$")  # core.campaigns.plans: secrets.token_hex(8)
NO_CAMPAIGN = {"starts": None, "ends": None, "campaign_type": None, "channel_type": None, "timeslot_id": None,
               "hoped_lift_points": HOPED_LIFT_POINTS}


def checked(given: dict | None, snap: Snapshot, names: dict | None = None, where: str = "body",
            made_on: date | None = None) -> dict:
    """A campaign as asked (any of `starts`, `ends`, the goal's three and `hoped_lift_points`; dates or YYYY-MM-DD
    text), cleaned, or one 422 naming each field that is wrong; `names` renames fields for the 422 (the results'
    `from` and `to`, given in the query: `where`). `made_on`, for a campaign to record: the day its audience was
    made (`made_day`), before which it may not start, and `starts` is required."""
    given, names, problems = dict(given or {}), names or {}, Problems(where)
    unknown = sorted(set(given) - set(NO_CAMPAIGN))
    for name in unknown:
        problems.add(name, f"Unknown field; known: {', '.join(NO_CAMPAIGN)}.")
    out = {**NO_CAMPAIGN, **{k: v for k, v in given.items() if k in NO_CAMPAIGN and v is not None}}
    missing = out["starts"] is None
    for field in ("starts", "ends"):
        out[field] = _day(problems, names.get(field, field), out[field])
    _span(problems, out, names)
    if made_on is not None:
        _after_made(problems, None if missing else out["starts"], made_on, missing)
    out["campaign_type"] = _campaign_type(problems, out["campaign_type"], snap)
    for field in ("channel_type", "timeslot_id"):
        if out[field] is not None:
            out[field] = problems.whole(field, out[field], SPEC[field][2])
    out["hoped_lift_points"] = _hoped(problems, out["hoped_lift_points"])
    problems.check()
    return out


def record(company_id: int, audience_id: str, campaign: dict) -> None:
    """Keep a checked campaign on the audience (AudienceNotFound when there is none)."""
    found = Audience._get_collection().update_one({"company_id": company_id, "audience_id": str(audience_id)},
                                                  {"$set": {"campaign": campaign}})
    if not found.matched_count:
        raise AudienceNotFound()


def of(doc: dict) -> dict:
    """An audience's campaign as recorded (every field, None where not given)."""
    return {**NO_CAMPAIGN, **(doc.get("campaign") or {})}


def checked_plan_id(plan_id: str | None) -> str | None:
    """The id of the plan an audience came from, as the plans make them, or a 422."""
    if plan_id is None or PLAN_ID.match(str(plan_id)):
        return plan_id
    problems = Problems()
    problems.add("plan_id", "Not a plan's id.")
    problems.check()
    return None


def goal_words(campaign: dict, channel_names: dict[int, str], show_titles: dict[int, str]) -> str:
    """What counts as a response, in words: "any interaction", "competition entries on WhatsApp during Breakfast"."""
    parts = [f"{campaign['campaign_type']} interactions" if campaign["campaign_type"] else "any interaction"]
    if campaign["channel_type"] is not None:
        parts.append(f"on {channel_name(channel_names, campaign['channel_type'])}")
    if campaign["timeslot_id"] is not None:
        parts.append(f"during {show_name(show_titles, campaign['timeslot_id'])}")
    return " ".join(parts)


def as_day(value) -> date | None:
    """A date given as a date or as YYYY-MM-DD text; None when it is neither."""
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value)) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(value)) else None
    except ValueError:
        return None


def goal_choices(snap: Snapshot, channel_names: dict[int, str], show_titles: dict[int, str]) -> dict:
    """What a goal may name, as a form offers it: the station's campaign types, its channels and its shows, each as
    (value, label), in their order."""
    return {"campaign_type": [(str(t), str(t)) for t in snap.vocab.get("campaign_types", [])],
            "channel_type": [(n, channel_name(channel_names, n)) for n in sorted(channel_names)],
            "timeslot_id": [(n, show_name(show_titles, n)) for n in sorted(show_titles)]}


def made_day(created_at: datetime, tz: str | None) -> date:
    """The day on the station's calendar an audience was made: no campaign of it starts earlier, since what its
    members did before it existed is no response to the campaign (docs/decisions.md §7b)."""
    return as_utc(created_at).astimezone(zone_of(tz)).date()


def _span(problems: Problems, out: dict, names: dict) -> None:
    """The window ends on or after it starts, and lasts at most LONGEST_DAYS."""
    if not (out["starts"] and out["ends"]):
        return
    if out["ends"] < out["starts"]:
        problems.add(names.get("ends", "ends"), f"The campaign cannot end ({out['ends']}) before it starts "
                                                 f"({out['starts']}).")
    elif (date.fromisoformat(out["ends"]) - date.fromisoformat(out["starts"])).days >= LONGEST_DAYS:
        problems.add(names.get("ends", "ends"), f"A campaign runs at most {LONGEST_DAYS} days.")


def _after_made(problems: Problems, starts: str | None, made_on: date, missing: bool) -> None:
    """A campaign recorded says when it starts, not before its audience was made."""
    if missing:
        problems.add("starts", "Give the campaign's first day: its results count from it.", "missing")
    elif starts is not None and date.fromisoformat(starts) < made_on:
        problems.add("starts", f"The campaign cannot start ({starts}) before its audience was made "
                               f"({made_on.isoformat()}): what members did before the audience existed is no "
                               "response to it.")


def _day(problems: Problems, name: str, value) -> str | None:
    if value is None:
        return None
    day = as_day(value)
    if day is None:
        problems.add(name, "Not a valid date: give YYYY-MM-DD.", "type_error")
    return day.isoformat() if day else None


def _campaign_type(problems: Problems, value, snap: Snapshot) -> str | None:
    """One of the station's campaign types (as its interactions name them, matched ignoring case), so that a typo is
    a 422 rather than a campaign that nobody answered."""
    if value is None:
        return None
    known = [str(v) for v in snap.vocab.get("campaign_types", [])]
    found = next((k for k in known if isinstance(value, str) and k.casefold() == value.strip().casefold()), None)
    if found is None:
        problems.add("campaign_type", f"Not a campaign type of this station; known: {', '.join(known) or 'none'}.")
    return found


def _hoped(problems: Problems, value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        problems.add("hoped_lift_points", "Not a valid number.", "type_error")
    elif not HOPED_LIMITS[0] <= value <= HOPED_LIMITS[1]:
        problems.add("hoped_lift_points", f"Must be between {HOPED_LIMITS[0]} and {HOPED_LIMITS[1]} points.")
    else:
        return float(value)
    return None
