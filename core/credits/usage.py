"""The usage history: each AI call a company paid for or got from a cache, and each refund, newest first.

`from_date` and `to_date` are whole days of the station's calendar (its zone `tz`, which the caller gives: credits
sit below stations in the layers), both included: to_date 2026-11-30 keeps a call at 23:59:59 that day there and
leaves out one at midnight after it; a to_date before from_date selects nothing. The days of the spend chart are the
station's days too, as every other date the producer reads.
"""
from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from core.clock import zone_of
from core.credits.ledger import entries
from core.credits.models import STATUSES
from core.credits.money import as_credits
from core.errors import ValidationFailed

__all__ = ["DEFAULT_LIMIT", "LIMITS", "MAX_DAYS", "STATUSES", "USAGE_KINDS", "daily_spend", "day_window", "usage",
           "usage_report"]

USAGE_KINDS = ("spend", "cached", "refund")
"""What the history lists: AI calls (paid or cached) and refunds, not loads."""
LIMITS = (1, 1000)
DEFAULT_LIMIT = 100


def usage(company_id: int, from_date: date | str | None = None, to_date: date | str | None = None,
          limit: int = DEFAULT_LIMIT, tz: str | None = None) -> list[dict]:
    """The calls (and refunds) within the days, newest first, at most `limit`."""
    return _rows(_query(company_id, from_date, to_date, limit, tz), limit)


def usage_report(company_id: int, from_date: date | str | None = None, to_date: date | str | None = None,
                 limit: int = DEFAULT_LIMIT, tz: str | None = None) -> dict:
    """usage() with what was asked and how many entries the days hold in all."""
    query = _query(company_id, from_date, to_date, limit, tz)
    first, last = _day(from_date, "from_date"), _day(to_date, "to_date")
    return {"company_id": company_id, "from_date": first.isoformat() if first else None,
            "to_date": last.isoformat() if last else None, "limit": limit,
            "total": entries().count_documents(query), "usage": _rows(query, limit)}


def _rows(query: dict, limit: int) -> list[dict]:
    return [_row(entry) for entry in entries().find(query).sort([("at", -1), ("seq", -1)]).limit(limit)]


def _query(company_id: int, from_date, to_date, limit, tz: str | None) -> dict:
    """The ledger query of a company's usage within whole days of the zone `tz`; 422 for a bad date or limit.

    A to_date before from_date selects nothing rather than 422: the OpenAPI document cannot say that one parameter
    must not precede another, and a request the document calls valid is never refused (tests/api/test_contract.py).
    """
    span = day_window(from_date, to_date, tz)
    if isinstance(limit, bool) or not isinstance(limit, int) or not LIMITS[0] <= limit <= LIMITS[1]:
        raise ValidationFailed.one(["query", "limit"], f"Must be between {LIMITS[0]} and {LIMITS[1]}.")
    query = {"company_id": company_id, "kind": {"$in": list(USAGE_KINDS)}}
    if span is None:
        return {**query, "at": {"$in": []}}  # nothing
    window = {op: moment for op, moment in zip(("$gte", "$lt"), span) if moment is not None}
    return {**query, "at": window} if window else query


def day_window(from_date: date | str | None, to_date: date | str | None,
               tz: str | None = None) -> tuple[datetime | None, datetime | None] | None:
    """The moments the zone's days from `from_date` to `to_date` hold, both days included, as (start, end): from
    start included to end left out, UTC as the ledger stores them; an end is None where it is left open (no date, or
    the first or last day of the calendar, which carry no bound of their own). None when to_date precedes from_date:
    those days hold no moment. 422 for a bad date."""
    first, last = _day(from_date, "from_date"), _day(to_date, "to_date")
    if first and last and first > last:
        return None
    return (_midnight(first, tz) if first and first > date.min else None,
            _midnight(last + timedelta(days=1), tz) if last and last < date.max else None)


def _midnight(day: date, tz: str | None) -> datetime:
    """The start of a day in the zone, as the UTC moment the ledger stores (a day of 23 or 25 hours stays whole)."""
    return datetime.combine(day, time.min, zone_of(tz)).astimezone(UTC)


BAD_DATE = "Not a valid date: give YYYY-MM-DD."
"""What a day that is no date is told."""


def _day(value: date | str | None, name: str) -> date | None:
    """An ISO date (YYYY-MM-DD) or a date; 422 for anything else."""
    if value is None or type(value) is date:
        return value
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise ValidationFailed.one(["query", name], BAD_DATE)


def _row(entry: dict) -> dict:
    """One entry as the history shows it: `credits` is what it cost (a refund's is negative, so they add up)."""
    return {"seq": entry["seq"], "at": entry["at"].isoformat(), "kind": entry["kind"],
            "operation": entry.get("operation"), "credits": as_credits(-entry["amount"]),
            "provider": entry.get("provider"), "model": entry.get("model"), "tokens_in": entry.get("tokens_in"),
            "tokens_out": entry.get("tokens_out"), "cached": bool(entry.get("cached")), "status": entry["status"],
            "subject": entry.get("subject"), "refund_of": entry.get("refund_of")}


MAX_DAYS = 366
"""The most days one spend series covers: a year of bars, one each."""
ANSWERED = {"$and": [{"$ne": ["$kind", "refund"]}, {"$eq": ["$status", "ok"]}]}
"""An entry that is an AI call which answered: paid and not refunded, or served from a cache."""


def daily_spend(company_id: int, from_date: date | str, to_date: date | str, tz: str | None = None) -> list[dict]:
    """Credits spent and AI calls answered per day of the zone `tz`, every day of the range (both ends included)
    even when nothing was spent: what a chart of spend over time draws. A refund lowers its own day's credits, so
    the days add up to what the calls cost; 422 for a bad date or a range longer than MAX_DAYS."""
    first, last = _day(from_date, "from_date"), _day(to_date, "to_date")
    if first is None or last is None:
        raise ValidationFailed.one(["query", "from_date" if first is None else "to_date"], "Give a date: YYYY-MM-DD.")
    days = (last - first).days + 1
    if days > MAX_DAYS:
        raise ValidationFailed.one(["query", "to_date"], f"Pick at most {MAX_DAYS} days.")
    found = {row["_id"]: row for row in entries().aggregate([
        {"$match": _query(company_id, first, last, DEFAULT_LIMIT, tz)},
        {"$group": {"_id": {"$dateToString": {"format": "%Y-%m-%d", "date": "$at", "timezone": zone_of(tz).key}},
                    "amount": {"$sum": "$amount"},
                    "calls": {"$sum": {"$cond": [ANSWERED, 1, 0]}}}}])}
    series = []
    for n in range(max(days, 0)):
        day = (first + timedelta(days=n)).isoformat()
        row = found.get(day, {"amount": 0, "calls": 0})
        series.append({"day": day, "credits": as_credits(-row["amount"]), "calls": row["calls"]})
    return series
