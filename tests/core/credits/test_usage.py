"""The usage history on the ledger: calls and refunds newest first, a range of days selecting by the moments entries
were made at, one station's calls never another's. Which moments a range of days holds, and the refusals made before
the ledger is read, are tests/core/credits/test_usage_days.py, in memory."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.credits import ledger
from core.credits.charges import cached, charge
from core.credits.ledger import load
from core.credits.usage import usage, usage_report

pytestmark = pytest.mark.db

PROFILE = "ai_listener_profile"


@pytest.fixture
def at(monkeypatch):
    """at(datetime) -> the ledger's clock reads that time for the next entries."""

    def move(moment: datetime) -> None:
        monkeypatch.setattr(ledger, "utcnow", lambda: moment)

    return move


def paid_call(company_id: int = 1, subject: str | None = None) -> None:
    with charge(company_id, PROFILE, subject=subject):
        pass


@pytest.fixture
def november(app, at):
    """Company 1: loaded on 1 November, a call at 23:59:59 on the 10th, one at midnight of the 11th, one cached on
    the 12th."""
    at(datetime(2026, 11, 1, 9, 0, tzinfo=UTC))
    load(1, 20)
    at(datetime(2026, 11, 10, 23, 59, 59, 999000, tzinfo=UTC))
    paid_call(subject="last-minute")
    at(datetime(2026, 11, 11, 0, 0, tzinfo=UTC))
    paid_call(subject="midnight")
    at(datetime(2026, 11, 12, 8, 0, tzinfo=UTC))
    cached(1, PROFILE, subject="cached")


def subjects(rows: list[dict]) -> list[str]:
    return [row["subject"] for row in rows]


def test_calls_are_listed_newest_first_without_the_loads(november):
    assert subjects(usage(1)) == ["cached", "midnight", "last-minute"]


def test_a_one_day_range_is_that_whole_day(november):
    assert subjects(usage(1, "2026-11-11", "2026-11-11", tz="UTC")) == ["midnight"]


def test_limit_cuts_the_newest_and_the_total_counts_them_all(november):
    report = usage_report(1, limit=2)
    assert subjects(report["usage"]) == ["cached", "midnight"] and report["total"] == 3


def test_an_entry_says_what_it_cost_and_a_refund_gives_it_back(app):
    load(1, 5)
    with pytest.raises(RuntimeError), charge(1, PROFILE):
        raise RuntimeError("provider down")
    refund, spend = usage(1)
    assert (spend["kind"], spend["status"]) == ("spend", "refunded")
    assert refund["kind"] == "refund" and refund["refund_of"] == spend["seq"]
    assert spend["credits"] + refund["credits"] == 0 and spend["credits"] > 0


def test_a_range_that_runs_backwards_selects_nothing(november):
    report = usage_report(1, "2026-11-12", "2026-11-10")
    assert (report["usage"], report["total"]) == ([], 0)


def test_another_companys_calls_are_not_listed(november):
    assert usage(2) == []
