"""Why a listener is in their segment, in plain English, from the numbers that decided it."""
from __future__ import annotations

from datetime import datetime

from core.clock import from_epoch, station_today, zone_of
from core.segmentation.rules import DEFAULT_THRESHOLDS
from core.text.wording import heard, number, percent, plural


def reasons(segment: str, n: dict, thresholds: dict | None = None, tz: str | None = None,
            now: datetime | None = None) -> list[str]:
    """Sentences for one listener; `n` holds the rule inputs of segments.md for that listener, the epoch seconds of
    their first and last interactions (`first_ts`, `last_ts`) and of the run that decided them (`as_of`). Days are
    named by the station's calendar (core.text.wording.heard, as the page's "last interaction" is), never as elapsed
    24-hour days: a listener heard at 23:23 is "yesterday" at 08:00, beside a time that says so. A run of an earlier
    day names the date instead, since its "today" is not the reader's and its thresholds held on its day."""
    th = thresholds or DEFAULT_THRESHOLDS
    n = {**n, "first": _day(n.get("first_ts"), n.get("as_of"), tz, now),
         "last": _day(n.get("last_ts"), n.get("as_of"), tz, now)}
    return _BUILDERS[segment](n, th)


def _day(seconds: int | None, as_of: int | None, tz: str | None, now: datetime | None) -> str:
    """The day of an interaction as of the reader's today, or its date when the run was on another day."""
    if not seconds:
        return "never"
    moment = from_epoch(seconds)
    if as_of and station_today(tz, from_epoch(as_of)) != station_today(tz, now):
        local = moment.astimezone(zone_of(tz))
        return f"on {local.day} {local:%b %Y}"
    return heard(moment, tz, now)


def _new(n, th):
    return [f"First interaction {n['first']}, within the {th['new_days']}-day welcome window",
            f"{plural(n['n_total'], 'interaction')} so far"]


def _dormant(n, th):
    if n["n_total"] == 0:
        return ["No interactions at all"]
    return [f"Last interaction {n['last']}, more than {plural(th['dormant_days'], 'day')} ago"]


def _chaser(n, th):
    return [f"Competition entries are {percent(n['competition_share'])} of their "
            f"{plural(n['n_total'], 'interaction')} (threshold {percent(th['competition_share'])})"]


def _at_risk(n, th):
    if n["recency_days"] > th["at_risk_days"]:
        return [f"Last interaction {n['last']}, more than {plural(th['at_risk_days'], 'day')} ago",
                f"{plural(n['n_prev30'], 'interaction')} in the 30 days before the last 30"]
    return [f"Down to {plural(n['n_30'], 'interaction')} in the last 30 days from {number(n['n_prev30'])} the month "
            "before", f"Last interaction {n['last']}"]


def _super_fan(n, th):
    trend = (f"up from {number(n['n_prev30'])}" if n["n_30"] > n["n_prev30"] else "as many as") + " the month before"
    return [f"{plural(n['n_30'], 'interaction')} in the last 30 days on {plural(n['channels_30'], 'channel')}, "
            f"last one {n['last']}, {trend}"]


def _loyalist(n, th):
    return [f"{percent(n['top_show_share_90'])} of show interactions in the last 90 days are with one show",
            f"{plural(n['n_90'], 'interaction')} over {plural(n['active_weeks_90'], 'active week')} in the last "
            "90 days"]


def _occasional(n, th):
    return [f"Active within 30 days: last interaction {n['last']}",
            f"{plural(n['n_30'], 'interaction')} in the last 30 days on {plural(n['channels_30'], 'channel')}"]


_BUILDERS = {"new_listener": _new, "dormant": _dormant, "competition_chaser": _chaser, "at_risk": _at_risk,
             "super_fan": _super_fan, "show_loyalist": _loyalist, "occasional_engager": _occasional}
