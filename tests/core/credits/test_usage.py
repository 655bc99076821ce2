"""The usage history: calls and refunds newest first, within whole days of the station's zone, both ends included."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from core.credits import ledger
from core.credits.charges import cached, charge
from core.credits.ledger import load
from core.credits.usage import usage, usage_report
from core.errors import ValidationFailed

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


def test_to_date_keeps_its_last_second_and_leaves_out_the_midnight_after_it(november):
    assert subjects(usage(1, to_date=date(2026, 11, 10), tz="UTC")) == ["last-minute"]


def test_from_date_starts_at_its_midnight(november):
    assert subjects(usage(1, from_date="2026-11-11", tz="UTC")) == ["cached", "midnight"]


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


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "2026-11-1", "20261101"])
def test_a_date_that_is_not_yyyy_mm_dd_is_422(app, bad):
    with pytest.raises(ValidationFailed):
        usage(1, from_date=bad)


@pytest.mark.parametrize("limit", [0, 1001])
def test_a_limit_outside_1_to_1000_is_422(app, limit):
    with pytest.raises(ValidationFailed):
        usage(1, limit=limit)


def test_the_last_and_first_days_of_the_calendar_are_ranges_like_any_other(app):
    assert usage(1, "0001-01-01", "9999-12-31") == []


def test_another_companys_calls_are_not_listed(november):
    assert usage(2) == []


@pytest.mark.parametrize(("tz", "on_the_10th"), [("UTC", ["last-minute"]), ("Africa/Johannesburg", []),
                                                ("America/New_York", ["midnight", "last-minute"]),
                                                (None, []), ("Mars/Olympus", [])])
def test_a_day_is_the_station_s_day(november, tz, on_the_10th):
    """23:59:59 UTC on the 10th is 01:59:59 on the 11th in Johannesburg and 18:59:59 on the 10th in New York; a
    station without a zone, or with one nobody knows, has Johannesburg's days (core.clock.zone_of)."""
    assert subjects(usage(1, date(2026, 11, 10), date(2026, 11, 10), tz=tz)) == on_the_10th
