"""The checks of a station's rules: after each full run (on the point the run recorded) and daily (under the daily
job's lease), each rule that holds kept as a firing once per period and delivered; the daily check also queues the
digest of the week just ended."""
from __future__ import annotations

import secrets
from datetime import date, datetime, timedelta

from pymongo.errors import DuplicateKeyError

from core.alerts.delivery import deliver, queue_digest
from core.alerts.models import AlertCheck, AlertFiring
from core.alerts.rules import described, holds, period_of, reading
from core.alerts.store import rules_of
from core.clock import as_utc, station_today, utcnow
from core.history.query import segment_history
from core.segmentation.models import SegmentRun
from core.stations.companies import timezone_of

REACH = timedelta(days=42)
"""The history a check reads: the 7 days to the day and the 4 weeks before them, with room to spare."""


def after_run(run: SegmentRun) -> None:
    """Check the station's rules after a full run, on the point that run recorded (history registers first)."""
    if run.kind == "full":
        check_station(run.company_id, run.now, "run")


def daily_check(company_id: int, now: datetime | None = None) -> list[dict]:
    """The daily job: check the rules, queue the digest of the week just ended, and remember when."""
    now = as_utc(now)
    fired = check_station(company_id, now, "daily")
    queue_digest(company_id, station_today(timezone_of(company_id), now))
    AlertCheck.objects(company_id=company_id).update_one(upsert=True, set__checked_at=now)
    return fired


def last_checked(company_id: int) -> datetime | None:
    """When the daily check of the station last ran (None: never)."""
    doc = AlertCheck._get_collection().find_one({"company_id": company_id}, {"checked_at": 1})
    return doc["checked_at"] if doc else None


def check_station(company_id: int, now: datetime | None = None, source: str = "daily") -> list[dict]:
    """Check every rule of the station as of `now`'s day; the firings made (none for a rule already fired in
    the period)."""
    rules = rules_of(company_id)
    if not rules:
        return []
    day = station_today(timezone_of(company_id), as_utc(now))
    points = segment_history(company_id, day - REACH, day, "day")["points"]
    done = set(AlertFiring._get_collection().distinct("rule_id", {"company_id": company_id,
                                                                   "period": period_of(day)}))
    fired = []
    for rule in (rule for rule in rules if rule["rule_id"] not in done):  # fired this week already: nothing to do
        found = reading(rule, points, day)
        if holds(rule, found):
            firing = _fire(rule, found.as_dict(), day, source)
            if firing is not None:
                fired.append(deliver(firing, rule))
    return fired


def _fire(rule: dict, values: dict, day: date, source: str) -> dict | None:
    """Keep the firing, unless the rule already fired in this period (the unique index decides, so that two checks
    at once keep one)."""
    firing = {"company_id": rule["company_id"], "firing_id": secrets.token_urlsafe(8), "rule_id": rule["rule_id"],
              "period": period_of(day), "date": day.isoformat(), "values": values, "source": source,
              "rule": {key: rule.get(key) for key in ("kind", "metric", "threshold", "delivery", "recipients")}
              | {"description": described(rule)}, "fired_at": utcnow(), "delivered": {}}
    try:
        AlertFiring._get_collection().insert_one(dict(firing))
    except DuplicateKeyError:
        return None
    return firing
