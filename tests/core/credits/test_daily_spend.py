"""Spend over time: credits and answered AI calls per UTC day, every day of the range, refunds on their own day; a
range refused before the ledger is read is tests/core/credits/test_usage_days.py, in memory."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from core.credits import ledger
from core.credits.charges import cached, charge
from core.credits.ledger import load
from core.credits.usage import daily_spend

pytestmark = pytest.mark.db

PROFILE, INSIGHTS = "ai_listener_profile", "ai_segment_insights"


@pytest.fixture
def at(monkeypatch):
    """at(datetime) -> the ledger's clock reads that time for the next entries."""

    def move(moment: datetime) -> None:
        monkeypatch.setattr(ledger, "utcnow", lambda: moment)

    return move


def paid_call(operation: str = PROFILE, fails: bool = False) -> None:
    try:
        with charge(1, operation):
            if fails:
                raise RuntimeError("the provider failed")
    except RuntimeError:
        pass


@pytest.fixture
def november(app, at):
    """Company 1: loaded on the 1st; on the 10th two calls (1 + 5 credits), the last at 23:59:59; on the 11th a
    cached answer at midnight and a call that failed and was refunded."""
    at(datetime(2026, 11, 1, 9, 0, tzinfo=UTC))
    load(1, 50)
    at(datetime(2026, 11, 10, 8, 0, tzinfo=UTC))
    paid_call()
    at(datetime(2026, 11, 10, 23, 59, 59, 999000, tzinfo=UTC))
    paid_call(INSIGHTS)
    at(datetime(2026, 11, 11, 0, 0, tzinfo=UTC))
    cached(1, PROFILE)
    paid_call(fails=True)


def test_every_day_of_the_range_is_in_the_series_even_without_spend(november):
    series = daily_spend(1, "2026-11-09", "2026-11-12", tz="UTC")
    assert [row["day"] for row in series] == ["2026-11-09", "2026-11-10", "2026-11-11", "2026-11-12"]
    assert series[0] == {"day": "2026-11-09", "credits": 0, "calls": 0}


def test_a_day_adds_up_its_calls_until_its_last_second(november):
    assert daily_spend(1, date(2026, 11, 10), date(2026, 11, 10), tz="UTC") == [
        {"day": "2026-11-10", "credits": 6, "calls": 2}]


def test_a_refunded_call_costs_nothing_and_is_not_counted_as_answered(november):
    assert daily_spend(1, "2026-11-11", "2026-11-11", tz="UTC") == [{"day": "2026-11-11", "credits": 0, "calls": 1}]


def test_loads_are_not_spend(november):
    assert daily_spend(1, "2026-11-01", "2026-11-01") == [{"day": "2026-11-01", "credits": 0, "calls": 0}]


def test_another_company_s_spend_is_not_counted(november):
    assert sum(row["credits"] for row in daily_spend(2, "2026-11-01", "2026-11-30")) == 0


def test_a_range_that_ends_before_it_starts_is_empty(november):
    assert daily_spend(1, "2026-11-12", "2026-11-10") == []
