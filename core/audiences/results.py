"""Did the campaign work (docs/decisions.md, "Campaign results"): the audience's target arm, whom the campaign could
contact, against its holdout, whom nobody contacted, over the campaign's window and by its goal.

What a member did before the audience existed is no response to its campaign: results count from the moment the
audience was made (not from midnight of that day), whatever `from` asks, and a member who joined at a later refresh
from when they joined; before a campaign is recorded nothing is counted. The members counted are the audience's live
members (an erased listener is in neither arm) who were the station's listeners when the audience was made: a
listener who joined the station later (heard from first, and first sent to us, after it) is counted in neither arm.
Interactions are read once for all of them, as a bound search reads them (core.search.station_events), and counted
with numpy; the statistics are core.audiences.lift's.
"""
from __future__ import annotations

import math
from datetime import date, datetime, timedelta

import numpy as np

from core.audiences import campaign as campaigns
from core.audiences import lift as stats
from core.audiences.arms import HOLDOUT, TARGET, arms_of
from core.audiences.members import live_rows
from core.audiences.models import Audience
from core.audiences.rules import Problems
from core.audiences.store import stored_audience
from core.audiences.stored import as_read
from core.clock import as_utc, from_epoch, station_today, zone_of
from core.listeners import sealed_profiles, snapshot
from core.listeners.events import Events
from core.listeners.snapshot import Snapshot
from core.search import station_events
from core.stations.companies import get_company
from core.stations.shows import show_titles
from core.text.wording import agree, day_words, plural

NO_HOLDOUT = ("This audience keeps no holdout, so there is nobody to compare its listeners with: a campaign's effect "
              "can only be measured against listeners it did not reach. Make the audience again with a holdout "
              "(10% is usual) before the campaign starts.")
NOT_RECORDED = ("No campaign is recorded for this audience yet, so nothing is counted: record when it starts (not "
                "before the day the audience was made) and what counts as a response, and its results count from "
                "then.")


def audience_results(company_id: int, audience_id: str, asked: dict | None = None,
                     now: datetime | None = None) -> dict:
    """The audience's results over its recorded window and goal, or those `asked` (`from`, `to`, `campaign_type`,
    `channel_type`, `timeslot_id`) instead: per arm `members`, `responded` and `rate`, the `lift`, a `verdict`,
    the `sample_size` the hoped-for lift needs and each day's response (`daily`), counted from the audience's making
    (`window.counted_from`); before a campaign is recorded, none of them (`campaign` null, the reason said)."""
    doc, company, snap = stored_audience(company_id, audience_id), get_company(company_id), snapshot.current(company_id)
    recorded = campaigns.of(doc)
    window = _window(doc, recorded, asked or {}, snap, company.timezone, now)
    if recorded["starts"] is None:
        return _not_recorded(doc)
    goal = {name: window.pop(name) for name in campaigns.GOAL}
    members, since, excluded = counted_members(doc, snap)
    arms = np.asarray(arms_of(doc["audience_id"], int(doc.get("holdout_percent") or 0),
                              snap.originators[members].tolist()), dtype=object) == HOLDOUT
    responded, daily = responses(snap, members, goal, window["starts_ts"], window["days"], since)
    later = int((since > window["starts_ts"][0]).sum())
    return {"company_id": company_id, "audience_id": doc["audience_id"], "name": doc["name"], "campaign": recorded,
            **_compared(doc, arms, responded, window, now), "excluded": excluded,
            "window": _shown_window(window, company.timezone, later),
            "goal": {**goal, "words": campaigns.goal_words(goal, company.channel_names(), show_titles(company_id))},
            "daily": _daily(daily, arms, window)}


def _not_recorded(doc: dict) -> dict:
    """The answer before a campaign is recorded: nothing counted, and why."""
    return {"company_id": doc["company_id"], "audience_id": doc["audience_id"], "name": doc["name"],
            "campaign": None, "holdout_percent": int(doc.get("holdout_percent") or 0), "arms": None, "lift": None,
            "sample_size": None, "verdict": "No campaign recorded yet: nothing is counted.", "reason": NOT_RECORDED,
            "excluded": None, "window": None, "goal": None, "daily": []}


def counted_members(doc: dict, snap: Snapshot) -> tuple[np.ndarray, np.ndarray, dict]:
    """The snapshot rows of the members counted, when each joined the audience if at a refresh (epoch seconds, 0
    for those in since it was made), and how many were not counted (joined the station after the audience was
    made)."""
    members, rows = live_rows(snap, doc["members"])
    made = _millis(doc["created_at"])
    first = snap.cols["first_ts"][rows].astype(np.int64) if "first_ts" in snap.cols else np.zeros(len(rows), int)
    maybe = (first == 0) | (first * 1000 > made)  # heard from first after it: when were they first sent to us?
    late = np.zeros(len(rows), dtype=bool)
    if maybe.any():
        joined = _joined(doc["company_id"], [members[i]["originator"] for i in np.flatnonzero(maybe).tolist()])
        late[maybe] = [joined.get(members[i]["originator"], 0) > made for i in np.flatnonzero(maybe).tolist()]
    since = np.array([math.ceil(as_utc(m["joined_at"]).timestamp()) if m.get("joined_at") else 0 for m in members],
                     dtype=np.int64)
    return rows[~late], since[~late], {"joined_after": int(late.sum())}


def responses(snap: Snapshot, rows: np.ndarray, goal: dict, bounds: np.ndarray, days: list[date],
              since: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Whether each member (by snapshot row) responded in the window, and each member's responses by day (members x
    days, boolean): an interaction meeting the goal between bounds[0] and bounds[-1] (epoch seconds of the moment
    counting starts, of each later day's start on the station's calendar, and of the day after the last), and not
    before the member's `since` (epoch seconds, when they joined the audience)."""
    if not len(rows) or not days:
        return np.zeros(len(rows), dtype=bool), np.zeros((len(rows), len(days)), dtype=bool)
    events, owners = station_events.interactions(snap, rows)
    return responses_of(events, owners, rows, goal, bounds, len(snap), since)


def responses_of(events: Events, owners: np.ndarray, rows: np.ndarray, goal: dict, bounds: np.ndarray,
                 population: int, since: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`responses` over interactions at hand (each with its owner's snapshot row), in one vectorised pass."""
    member = np.full(population + 1, -1, dtype=np.int64)
    member[rows] = np.arange(len(rows))
    keep = (events.ts >= bounds[0]) & (events.ts < bounds[-1]) & (owners >= 0)
    keep &= _meets(events, goal)
    who, ts = member[owners[keep]], events.ts[keep]
    day = np.searchsorted(bounds, ts, side="right") - 1
    mine = who >= 0
    if since is not None:
        mine &= ts >= since[np.maximum(who, 0)]
    by_day = np.zeros((len(rows), len(bounds) - 1), dtype=bool)
    by_day[who[mine], day[mine]] = True
    return by_day.any(axis=1), by_day


def _meets(events: Events, goal: dict) -> np.ndarray:
    """Per interaction, whether it is a response by the goal."""
    meets = np.ones(len(events), dtype=bool)
    if goal["campaign_type"] is not None:
        vocab = list(events.campaign_vocab)
        code = vocab.index(goal["campaign_type"]) if goal["campaign_type"] in vocab else -1
        meets &= events.campaign == code
    if goal["channel_type"] is not None:
        meets &= events.channel == goal["channel_type"]
    if goal["timeslot_id"] is not None:
        meets &= events.timeslot == goal["timeslot_id"]
    return meets


def _compared(doc: dict, held: np.ndarray, responded: np.ndarray, window: dict, now: datetime | None) -> dict:
    """The arms, the lift, the sample size and the verdict; the reason instead of a lift when there is no holdout
    or the campaign has not started."""
    target = stats.arm(int((~held).sum()), int(responded[~held].sum()))
    holdout = stats.arm(int(held.sum()), int(responded[held].sum()))
    percent = int(doc.get("holdout_percent") or 0)
    out = {"holdout_percent": percent, "arms": {TARGET: target, HOLDOUT: holdout}, "lift": None, "sample_size": None}
    if not percent:
        return {**out, "verdict": "No holdout: nothing to compare with.", "reason": NO_HOLDOUT}
    hoped = window["hoped_lift_points"] / 100
    base = holdout["rate"] if holdout["rate"] is not None else target["rate"] or 0.0
    out["sample_size"] = stats.needed(base, hoped, percent / 100)
    if not window["days"]:
        return {**out, "verdict": f"The campaign starts on {window['starts']}: nothing to compare yet.",
                "reason": "not started"}
    out["lift"] = stats.lift(target, holdout)
    verdict = stats.verdict(out["lift"], out["sample_size"], target, holdout)
    if window["running"]:
        verdict = f"So far (the campaign runs until {window['ends']}): {verdict[0].lower()}{verdict[1:]}"
    return {**out, "verdict": verdict, "reason": None}


def _window(doc: dict, recorded: dict, asked: dict, snap: Snapshot, tz: str, now: datetime | None) -> dict:
    """The window and goal to count: the asked values over the recorded ones, checked together; by default the
    days from the audience's making to today. Its days are those up to today (none before it starts), and none
    before the audience was made: counting starts at the later of the first day's start and the making."""
    zone, today = zone_of(tz), station_today(tz, now)
    made_on = campaigns.made_day(doc["created_at"], tz)
    given = {**{k: v for k, v in recorded.items() if v is not None},
             **{{"from": "starts", "to": "ends"}.get(k, k): v for k, v in asked.items() if v is not None}}
    given.setdefault("starts", made_on)
    if "ends" not in given:  # to today, or the first day of a campaign still to come
        given["ends"] = max(today, campaigns.as_day(given["starts"]) or today)
    window = campaigns.checked(given, snap, names={"starts": "from", "ends": "to"}, where="query")
    _refuse_before_made(window, made_on)
    starts = max(date.fromisoformat(window["starts"]), made_on)
    last = min(date.fromisoformat(window["ends"]), today)
    days = [starts + timedelta(days=i) for i in range((last - starts).days + 1)]
    edges = [*days, (days[-1] if days else starts - timedelta(days=1)) + timedelta(days=1)]
    bounds = np.array([int(datetime(d.year, d.month, d.day, tzinfo=zone).timestamp()) for d in edges],
                      dtype=np.int64)
    if starts == made_on:  # its first second counted is the one the audience was made in
        bounds[0] = max(int(bounds[0]), math.ceil(as_utc(doc["created_at"]).timestamp()))
    return {**window, "days": days, "starts_ts": bounds, "running": today < date.fromisoformat(window["ends"]),
            "counted_from": int(bounds[0]), "since_made": starts == made_on}


def _refuse_before_made(window: dict, made_on: date) -> None:
    """A window that ends before the audience was made holds nothing that can be a response: a 422 naming `to`."""
    if date.fromisoformat(window["ends"]) < made_on:
        problems = Problems("query")
        problems.add("to", f"The window ends ({window['ends']}) before the audience was made ({made_on.isoformat()}):"
                           " what members did before the audience existed is no response; ask a later `to`.")
        problems.check()


def _shown_window(window: dict, tz: str, later: int) -> dict:
    counted = from_epoch(window["counted_from"]).astimezone(zone_of(tz))
    return {"from": window["starts"], "to": window["ends"], "timezone": zone_of(tz).key,
            "running": window["running"], "days_counted": len(window["days"]),
            "hoped_lift_points": window["hoped_lift_points"], "counted_from": counted.isoformat(),
            "counted_words": counted_words(counted, window["since_made"], later)}


def counted_words(counted: datetime, since_made: bool, later: int) -> str:
    """From when the results count, in words: "Counted from when the audience was made, 1 Dec 2026 at 23:47: what
    members did before is not a response.", and who counts from later (joined at a refresh)."""
    when = f"{day_words(counted.date())} at {counted:%H:%M}"
    words = (f"Counted from when the audience was made, {when}: what members did before is not a response." if
             since_made else f"Counted from the window's first day, {when} on the station's calendar.")
    if later:
        words += (f" {plural(later, 'member')} who joined at a later refresh {agree(later, 'is')} counted from when "
                  "they joined.")
    return words


def _daily(by_day: np.ndarray, held: np.ndarray, window: dict) -> list[dict]:
    """Each day of the window up to today: how many of each arm responded that day, and the share."""
    target, holdout = by_day[~held].sum(axis=0), by_day[held].sum(axis=0)
    sizes = {TARGET: int((~held).sum()), HOLDOUT: int(held.sum())}
    return [{"date": day.isoformat(), TARGET: stats.arm(sizes[TARGET], int(t)),
             HOLDOUT: stats.arm(sizes[HOLDOUT], int(h))}
            for day, t, h in zip(window["days"], target.tolist(), holdout.tolist(), strict=True)]


def _joined(company_id: int, originators: list[str]) -> dict[str, int]:
    """When each of these listeners was first sent to us (epoch milliseconds, as the database keeps times), by
    originator."""
    found = sealed_profiles.unsealed_fields(company_id, originators, {"created_at": 1})
    return {originator: _millis(doc["created_at"]) for originator, doc in found.items()
            if doc.get("created_at") is not None}


def _millis(moment: datetime) -> int:
    return round(as_utc(moment).timestamp() * 1000)


def audiences_of_plan(company_id: int, plan_id: str) -> list[dict]:
    """The audiences made from a plan (their id and name), newest first."""
    docs = list(Audience._get_collection().find({"company_id": company_id, "plan_id": plan_id}).sort("created_at", -1))
    return [{"audience_id": doc["audience_id"], "name": doc["name"]} for doc in as_read(company_id, docs)]
