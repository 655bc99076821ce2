"""What an alert rule may say and when it holds, on a station's history points (pure: no database).

A rule watches a metric (a segment's size, the station's total, or its new listeners) and holds when, as of a day:
- `grows_by` / `falls_by`: the metric moved by at least `threshold` percent since the same day a week before
  (sizes: the latest point of each day; new listeners: those of the 7 days to the day against the 7 before);
- `below` / `above`: the metric is under / over `threshold` (sizes as of the day, new listeners over its 7 days);
- `under_monthly_mean`: the metric of the 7 days to the day is under its weekly mean over the 4 weeks before them
  (by at least `threshold` percent; 0: by any amount), as in "new listeners this week under last month's weekly mean".
Percentages are compared exactly (10% of 1,000 is 100, never 99.99...), and a change of nothing (last week 0) never
holds: no percentage of nothing means anything. A rule fires at most once in each period: the station's ISO week.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from core.errors import ValidationFailed
from core.segmentation.rules import LABELS, SEGMENTS
from core.text.wording import join_words, number, sentence

PERCENT_KINDS = ("grows_by", "falls_by")
COUNT_KINDS = ("below", "above")
MEAN_KIND = "under_monthly_mean"
KINDS = (*PERCENT_KINDS, *COUNT_KINDS, MEAN_KIND)
METRICS = (*SEGMENTS, "total", "new")
DELIVERIES = ("email", "webhook")
THRESHOLD_LIMITS = (0, 100_000_000)
MAX_RECIPIENTS = 10
EMAIL = r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$"
"""An address as a mail server takes it (ASCII, so that the API document's pattern means the same to every reader)."""
METRIC_NAMES = {**{key: LABELS[key] for key in SEGMENTS}, "total": "All listeners", "new": "New listeners this week"}
"""How a rule names what it watches ("new" is listeners heard for the first time, whatever their segment now)."""
KIND_NAMES = {"grows_by": "grows by", "falls_by": "falls by", "below": "falls below", "above": "rises above",
              MEAN_KIND: "under last month's weekly mean"}


@dataclass(frozen=True)
class Reading:
    """A rule's values as of a day: the metric, what it is compared with, and the change in percent (or None)."""

    value: int
    compared: float | None = None
    change_percent: float | None = None

    def as_dict(self) -> dict:
        """As a firing keeps it."""
        return {"value": self.value, "compared": self.compared, "change_percent": self.change_percent}


def checked_rule(kind, metric, threshold, webhook: bool = False, email: dict | None = None) -> dict:
    """The rule's fields as stored, checked: every problem named at once (422). `email` is {"to": [addresses],
    "at_once": bool} (None: no mail); a rule without any delivery is kept and shown only."""
    problems: list[dict] = []

    def refuse(field: str, msg: str) -> None:
        problems.append({"loc": ["body", field], "msg": msg, "type": "value_error"})

    if kind not in KINDS:
        refuse("kind", f"Must be one of: {', '.join(KINDS)}.")
    if metric not in METRICS:
        refuse("metric", f"Must be one of: {', '.join(METRICS)}.")
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or \
            not THRESHOLD_LIMITS[0] <= threshold <= THRESHOLD_LIMITS[1]:
        refuse("threshold", f"Give a number from 0 to {number(THRESHOLD_LIMITS[1])}.")
    recipients = _recipients(email, refuse)
    if problems:
        raise ValidationFailed(problems)
    delivery = (["email"] if email is not None else []) + (["webhook"] if webhook else [])
    return {"kind": kind, "metric": metric, "threshold": float(threshold), "delivery": delivery,
            "recipients": recipients, "email_now": bool(email and email.get("at_once"))}


def _recipients(email: dict | None, refuse) -> list[str]:
    """The addresses of e-mail delivery, trimmed, in lower case, once each."""
    if email is None:
        return []
    found = [a.lower() for a in email.get("to") or () if isinstance(a, str)]
    if not found or len(found) > MAX_RECIPIENTS or any(len(a) > 254 or not re.match(EMAIL, a) for a in found):
        refuse("email", f"Give 1 to {MAX_RECIPIENTS} e-mail addresses such as producer@station.co.za.")
    return sorted(set(found))


def described(rule: dict) -> str:
    """The rule in words: "At risk grows by 10% week on week", "Super fans falls below 1,000"."""
    kind, name = rule["kind"], METRIC_NAMES[rule["metric"]]
    if kind == MEAN_KIND:
        by = f" by {number(rule['threshold'])}% or more" if rule["threshold"] else ""
        return f"{name} under last month's weekly mean{by}"
    if kind in PERCENT_KINDS:
        return f"{name} {KIND_NAMES[kind]} {number(rule['threshold'])}% week on week"
    return f"{name} {KIND_NAMES[kind]} {number(rule['threshold'])}"


KIND_CHOICES = {"grows_by": "grows by this percent week on week", "falls_by": "falls by this percent week on week",
                "below": "falls below this many listeners", "above": "rises above this many listeners",
                MEAN_KIND: "is under last month's weekly mean by this percent (0: by any amount)"}
"""How a form offers each kind, the threshold's unit said."""


def delivery_words(rule: dict) -> str:
    """How a rule's firings reach people: "Webhook and e-mail to a@x.fm (at once and in the weekly digest)"."""
    ways = ["Webhook"] if "webhook" in rule.get("delivery", ()) else []
    if "email" in rule.get("delivery", ()):
        when = "at once and in the weekly digest" if rule.get("email_now") else "in the weekly digest"
        ways.append(f"e-mail to {join_words(rule.get('recipients', []))} ({when})")
    return sentence(join_words(ways)) if ways else "Kept and shown here only."


def period_of(day: date) -> str:
    """The period a rule fires once in: the ISO week of the station's day (2026-W47)."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def reading(rule: dict, points: list[dict], day: date) -> Reading | None:
    """The rule's values as of `day` from the station's points (dicts with date, total, segments, new), oldest
    first; None when the history does not reach far enough back to say."""
    if rule["kind"] == MEAN_KIND:
        return _against_mean(rule["metric"], points, day)
    this, last = _value(rule["metric"], points, day), _value(rule["metric"], points, day - timedelta(days=7))
    if this is None:
        return None
    if rule["kind"] in COUNT_KINDS:
        return Reading(this)
    if last is None:
        return None
    return Reading(this, last, _change(this, last))


def holds(rule: dict, found: Reading | None) -> bool:
    """Whether the rule holds on its reading, compared exactly."""
    if found is None:
        return False
    kind, value, threshold = rule["kind"], Decimal(found.value), Decimal(str(rule["threshold"]))
    if kind == MEAN_KIND:
        mean = Decimal(str(found.compared))
        return value < mean and (mean - value) * 100 >= threshold * mean
    if kind == "below":
        return value < threshold
    if kind == "above":
        return value > threshold
    last = Decimal(str(found.compared))
    if not last:
        return False
    moved = value - last if kind == "grows_by" else last - value
    return moved * 100 >= threshold * last


def _against_mean(metric: str, points: list[dict], day: date) -> Reading | None:
    """The metric of the 7 days to `day` against its weekly mean over the 4 weeks before them (new listeners: their
    sum over the 4 weeks, divided by 4; sizes: the mean of the weeks that have one)."""
    this = _value(metric, points, day)
    if metric == "new":
        month = new_between(points, day - timedelta(days=7), 28)
        mean = None if month is None else month / 4
    else:
        sizes = [v for v in (_value(metric, points, day - timedelta(weeks=k)) for k in range(1, 5)) if v is not None]
        mean = sum(sizes) / len(sizes) if sizes else None
    return None if this is None or mean is None else Reading(this, round(mean, 2), _change(this, mean))


def _change(this: float, before: float) -> float | None:
    return round(100 * (this - before) / before, 2) if before else None


def _value(metric: str, points: list[dict], day: date) -> int | None:
    """A size as of `day` (the latest point of the 7 days to it), or the new listeners of those 7 days."""
    if metric == "new":
        return new_between(points, day, 7)
    point = latest_point(points, day)
    if point is None:
        return None
    return int(point["total"] if metric == "total" else point["segments"].get(metric, 0))


def latest_point(points: list[dict], day: date, within_days: int = 7) -> dict | None:
    """The last point on or before `day` and within `within_days` of it (an older one says nothing of that day)."""
    start, end = (day - timedelta(days=within_days)).isoformat(), day.isoformat()
    found = [p for p in points if start < p["date"] <= end]
    return found[-1] if found else None


def new_between(points: list[dict], day: date, days: int) -> int | None:
    """Listeners first heard in the `days` days to `day`, from the points in them; None when there are none."""
    start, end = (day - timedelta(days=days)).isoformat(), day.isoformat()
    found = [int(p.get("new", 0)) for p in points if start < p["date"] <= end]
    return sum(found) if found else None
