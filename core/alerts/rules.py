"""What an alert rule may say and when it holds, on a station's history points (pure: no database).

A rule watches a metric (a segment's size, the station's total, or its new listeners) and holds when, as of a day:
- `grows_by` / `falls_by`: the metric moved by at least `threshold` percent since the same day a week before
  (sizes: the latest point of each day; new listeners: those of the 7 days to the day against the 7 before);
- `below` / `above`: the metric is under / over `threshold` (sizes as of the day, new listeners over its 7 days);
- `new_under_monthly_mean`: the new listeners of the 7 days to the day are fewer than the weekly mean of the 4 weeks
  before them.
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
from core.text.wording import number

PERCENT_KINDS = ("grows_by", "falls_by")
COUNT_KINDS = ("below", "above")
MEAN_KIND = "new_under_monthly_mean"
KINDS = (*PERCENT_KINDS, *COUNT_KINDS, MEAN_KIND)
METRICS = (*SEGMENTS, "total", "new")
DELIVERIES = ("email", "webhook")
PERCENT_LIMITS = (0.1, 1000.0)
COUNT_LIMITS = (0, 100_000_000)
MAX_RECIPIENTS = 10
EMAIL = re.compile(r"^[^@\s,;<>\"]+@[^@\s,;<>\"]+\.[^@\s,;<>\"]+$")
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


def checked_rule(kind, metric, threshold, delivery, recipients, email_now) -> dict:
    """The rule's fields, checked: every problem named at once (422)."""
    problems: list[dict] = []

    def refuse(field: str, msg: str) -> None:
        problems.append({"loc": ["body", field], "msg": msg, "type": "value_error"})

    if kind not in KINDS:
        refuse("kind", f"Must be one of: {', '.join(KINDS)}.")
    metric = "new" if kind == MEAN_KIND and metric is None else metric
    if metric not in METRICS or (kind == MEAN_KIND and metric != "new"):
        refuse("metric", "Must be new for new_under_monthly_mean." if kind == MEAN_KIND
               else f"Must be one of: {', '.join(METRICS)}.")
    threshold = _threshold(kind, threshold, refuse)
    delivery = sorted(set(delivery or ()))
    if not delivery or set(delivery) - set(DELIVERIES):
        refuse("delivery", "Choose email, webhook or both.")
    recipients = sorted({address.strip().lower() for address in recipients or () if isinstance(address, str)})
    if "email" in delivery and not recipients:
        refuse("recipients", "Give at least one e-mail address for e-mail delivery.")
    if len(recipients) > MAX_RECIPIENTS or any(len(a) > 254 or not EMAIL.match(a) for a in recipients):
        refuse("recipients", f"Give up to {MAX_RECIPIENTS} e-mail addresses such as producer@station.co.za.")
    if email_now and "email" not in delivery:
        refuse("email_now", "A mail at once needs e-mail delivery.")
    if problems:
        raise ValidationFailed(problems)
    return {"kind": kind, "metric": metric, "threshold": threshold, "delivery": delivery,
            "recipients": recipients, "email_now": bool(email_now)}


def _threshold(kind, threshold, refuse) -> float | None:
    """A percentage for the growth kinds, a whole count for the bounds, nothing for the monthly mean."""
    if kind == MEAN_KIND:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        refuse("threshold", "Give a number." if kind in KINDS else "Give a number for the rule's kind.")
        return None
    low, high = PERCENT_LIMITS if kind in PERCENT_KINDS else COUNT_LIMITS
    if kind in COUNT_KINDS and threshold != int(threshold):
        refuse("threshold", "Give a whole number of listeners.")
    elif not low <= threshold <= high:
        refuse("threshold", f"Must be from {number(low)} to {number(high)}.")
    return float(threshold)


def described(rule: dict) -> str:
    """The rule in words: "At risk grows by 10% week on week", "Super fans falls below 1,000"."""
    kind, name = rule["kind"], METRIC_NAMES[rule["metric"]]
    if kind == MEAN_KIND:
        return "New listeners this week under last month's weekly mean"
    if kind in PERCENT_KINDS:
        return f"{name} {KIND_NAMES[kind]} {number(rule['threshold'])}% week on week"
    return f"{name} {KIND_NAMES[kind]} {number(rule['threshold'])}"


def period_of(day: date) -> str:
    """The period a rule fires once in: the ISO week of the station's day (2026-W47)."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def reading(rule: dict, points: list[dict], day: date) -> Reading | None:
    """The rule's values as of `day` from the station's points (dicts with date, total, segments, new), oldest
    first; None when the history does not reach far enough back to say."""
    if rule["kind"] == MEAN_KIND:
        this, month = new_between(points, day, 7), new_between(points, day - timedelta(days=7), 28)
        return None if this is None or month is None else Reading(this, round(month / 4, 2))
    this, last = _value(rule["metric"], points, day), _value(rule["metric"], points, day - timedelta(days=7))
    if this is None:
        return None
    if rule["kind"] in COUNT_KINDS:
        return Reading(this)
    if last is None:
        return None
    change = round(100 * (this - last) / last, 2) if last else None
    return Reading(this, last, change)


def holds(rule: dict, found: Reading | None) -> bool:
    """Whether the rule holds on its reading, compared exactly."""
    if found is None:
        return False
    kind, value = rule["kind"], Decimal(found.value)
    if kind == MEAN_KIND:
        return value < Decimal(str(found.compared))
    threshold = Decimal(str(rule["threshold"]))
    if kind == "below":
        return value < threshold
    if kind == "above":
        return value > threshold
    last = Decimal(str(found.compared))
    if not last:
        return False
    moved = value - last if kind == "grows_by" else last - value
    return moved * 100 >= threshold * last


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
