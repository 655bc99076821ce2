"""Why a listener is in their segment, in plain English, from the numbers that decided it."""
from __future__ import annotations

from core.segmentation.rules import DEFAULT_THRESHOLDS
from core.text.wording import days_ago, number, percent, plural


def reasons(segment: str, n: dict, thresholds: dict | None = None) -> list[str]:
    """Sentences for one listener; `n` holds the rule inputs of segments.md for that listener."""
    th = thresholds or DEFAULT_THRESHOLDS
    builder = _BUILDERS[segment]
    return builder(n, th)


def _new(n, th):
    return [f"First interaction {days_ago(n['since_first_days'])}, within the {th['new_days']}-day welcome window",
            f"{plural(n['n_total'], 'interaction')} so far"]


def _dormant(n, th):
    if n["n_total"] == 0:
        return ["No interactions at all"]
    return [f"Last interaction {days_ago(n['recency_days'])}, more than {plural(th['dormant_days'], 'day')} ago"]


def _chaser(n, th):
    return [f"Competition entries are {percent(n['competition_share'])} of their "
            f"{plural(n['n_total'], 'interaction')} (threshold {percent(th['competition_share'])})"]


def _at_risk(n, th):
    if n["recency_days"] > th["at_risk_days"]:
        return [f"Last interaction {days_ago(n['recency_days'])}, more than {plural(th['at_risk_days'], 'day')} ago",
                f"{plural(n['n_prev30'], 'interaction')} in the 30 days before the last 30"]
    return [f"Down to {plural(n['n_30'], 'interaction')} in the last 30 days from {number(n['n_prev30'])} the month "
            "before", f"Last interaction {days_ago(n['recency_days'])}"]


def _super_fan(n, th):
    trend = (f"up from {number(n['n_prev30'])}" if n["n_30"] > n["n_prev30"] else "as many as") + " the month before"
    return [f"{plural(n['n_30'], 'interaction')} in the last 30 days on {plural(n['channels_30'], 'channel')}, "
            f"last one {days_ago(n['recency_days'])}, {trend}"]


def _loyalist(n, th):
    return [f"{percent(n['top_show_share_90'])} of show interactions in the last 90 days are with one show",
            f"{plural(n['n_90'], 'interaction')} over {plural(n['active_weeks_90'], 'active week')} in the last "
            "90 days"]


def _occasional(n, th):
    return [f"Active within 30 days: last interaction {days_ago(n['recency_days'])}",
            f"{plural(n['n_30'], 'interaction')} in the last 30 days on {plural(n['channels_30'], 'channel')}"]


_BUILDERS = {"new_listener": _new, "dormant": _dormant, "competition_chaser": _chaser, "at_risk": _at_risk,
             "super_fan": _super_fan, "show_loyalist": _loyalist, "occasional_engager": _occasional}
