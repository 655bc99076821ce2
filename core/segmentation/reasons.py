"""Why a listener is in their segment, in plain English, from the numbers that decided it."""
from __future__ import annotations

import math

from core.segmentation.rules import DEFAULT_THRESHOLDS
from core.wording import percent


def _days(value: float) -> str:
    if math.isinf(value):
        return "never"
    whole = int(value)
    return "today" if whole == 0 else ("1 day ago" if whole == 1 else f"{whole} days ago")


def reasons(segment: str, n: dict, thresholds: dict | None = None) -> list[str]:
    """Sentences for one listener; `n` holds the rule inputs of segments.md for that listener."""
    th = thresholds or DEFAULT_THRESHOLDS
    builder = _BUILDERS[segment]
    return builder(n, th)


def _new(n, th):
    return [f"First interaction {_days(n['since_first_days'])}, within the {th['new_days']}-day welcome window",
            f"{n['n_total']} interactions so far"]


def _dormant(n, th):
    if n["n_total"] == 0:
        return ["No interactions at all"]
    return [f"Last interaction {_days(n['recency_days'])}, more than {th['dormant_days']} days ago"]


def _chaser(n, th):
    return [f"{percent(n['competition_share'])} of {n['n_total']} interactions are competition entries "
            f"(threshold {percent(th['competition_share'])})"]


def _at_risk(n, th):
    if n["recency_days"] > th["at_risk_days"]:
        return [f"Last interaction {_days(n['recency_days'])}, more than {th['at_risk_days']} days ago",
                f"{n['n_prev30']} interactions in the 30 days before that window"]
    return [f"Down to {n['n_30']} interactions in the last 30 days from {n['n_prev30']} the month before",
            f"Last interaction {_days(n['recency_days'])}"]


def _super_fan(n, th):
    return [f"{n['n_30']} interactions in the last 30 days on {n['channels_30']} channels, "
            f"last one {_days(n['recency_days'])}, up from {n['n_prev30']} the month before"]


def _loyalist(n, th):
    return [f"{percent(n['top_show_share_90'])} of show interactions in the last 90 days are with one show",
            f"{n['n_90']} interactions over {n['active_weeks_90']} active weeks in the last 90 days"]


def _occasional(n, th):
    return [f"Active within 30 days: last interaction {_days(n['recency_days'])}",
            f"{n['n_30']} interactions in the last 30 days on {n['channels_30']} channel(s)"]


_BUILDERS = {"new_listener": _new, "dormant": _dormant, "competition_chaser": _chaser, "at_risk": _at_risk,
             "super_fan": _super_fan, "show_loyalist": _loyalist, "occasional_engager": _occasional}
