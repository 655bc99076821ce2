"""Paying for AI work: one atomic charge per call, refused when paused or short, refunded when the work fails,
never spent twice however many requests race for the last credit."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from core.config import active
from core.credits import ledger
from core.credits.charges import cached, charge
from core.credits.ledger import account, check, load, recomputed_balance, set_paused
from core.credits.money import as_credits, hundredths
from core.errors import AiPaused, CreditsExhausted

pytestmark = pytest.mark.db

PROFILE, INSIGHTS = "ai_listener_profile", "ai_segment_insights"


def price(operation: str) -> int | float:
    """The configured price of an operation, in credits."""
    return as_credits(hundredths(active().prices[operation]))


def ledger_of(company_id: int) -> list[dict]:
    return list(ledger.entries().find({"company_id": company_id}, {"_id": 0}).sort("seq", 1))


def test_a_balance_below_the_price_is_402_naming_both_and_nothing_is_written(app):
    load(1, price(INSIGHTS) - 1)
    with pytest.raises(CreditsExhausted, match=f"costs {price(INSIGHTS)} credits and the balance is "
                                               f"{price(INSIGHTS) - 1}"):
        with charge(1, INSIGHTS):
            pytest.fail("the work ran without being paid for")
    assert account(1)["balance"] == price(INSIGHTS) - 1 and [e["kind"] for e in ledger_of(1)] == ["load"]


def test_a_company_that_never_had_credits_is_402_not_an_error(app):
    with pytest.raises(CreditsExhausted), charge(9, PROFILE):
        pass
    assert account(9)["balance"] == 0 and ledger_of(9) == []


def test_a_paid_call_writes_its_spend_with_provider_model_and_tokens_and_says_its_cost(app):
    load(1, 10)
    with charge(1, INSIGHTS, subject="fans") as bill:
        bill.record(provider="openai", model="gpt-4o-mini", tokens_in=812, tokens_out=164)
    assert (bill.cost, bill.balance) == (price(INSIGHTS), 10 - price(INSIGHTS))
    spend = ledger_of(1)[-1]
    assert {k: spend[k] for k in ("kind", "amount", "operation", "subject", "provider", "model", "tokens_in",
                                  "tokens_out", "status")} == {
        "kind": "spend", "amount": -hundredths(price(INSIGHTS)), "operation": INSIGHTS, "subject": "fans",
        "provider": "openai", "model": "gpt-4o-mini", "tokens_in": 812, "tokens_out": 164, "status": "ok"}


def test_the_price_is_taken_before_the_work_runs(app):
    load(1, 10)
    with charge(1, INSIGHTS):
        assert account(1)["balance"] == 10 - price(INSIGHTS)


def test_work_that_fails_is_refunded_and_the_failure_reaches_the_caller(app):
    load(1, 10)
    with pytest.raises(TimeoutError, match="provider timed out"), charge(1, PROFILE, subject="27821234567") as bill:
        bill.record(provider="openai", model="gpt-4o-mini")
        raise TimeoutError("provider timed out")
    assert account(1)["balance"] == 10 and bill.cost == 0
    spend, refund = ledger_of(1)[1:]
    assert (spend["kind"], spend["status"], spend["provider"]) == ("spend", "refunded", "openai")
    assert (refund["kind"], refund["amount"], refund["refund_of"]) == ("refund", -spend["amount"], spend["seq"])
    assert check(1)["agrees"] and check(1)["missing_seq"] == []


def test_a_paused_company_is_refused_with_the_reason_and_pays_nothing(app):
    load(1, 10)
    set_paused(1, True, "invoice overdue")
    with pytest.raises(AiPaused) as refused, charge(1, PROFILE):
        pytest.fail("the work ran while paused")
    assert refused.value.detail == "AI usage is paused for this company: invoice overdue"
    assert refused.value.status == 403 and account(1)["balance"] == 10


def test_a_pause_without_a_reason_says_who_can_lift_it(app):
    set_paused(1, True, None)
    with pytest.raises(AiPaused, match="^AI usage is paused for this company; an admin can unpause it"):
        with charge(1, PROFILE):
            pass


def test_unpausing_lets_calls_through_again(app):
    load(1, 10)
    set_paused(1, True, "audit")
    set_paused(1, False, None)
    with charge(1, PROFILE) as bill:
        pass
    assert bill.cost == price(PROFILE)


def test_a_cached_answer_costs_nothing_and_is_recorded(app):
    load(1, 2)
    assert cached(1, PROFILE, subject="27821234567", provider="openai", model="gpt-4o-mini") == {"cost": 0,
                                                                                                "balance": 2}
    entry = ledger_of(1)[-1]
    assert (entry["kind"], entry["amount"], entry["cached"], entry["subject"]) == ("cached", 0, True, "27821234567")
    assert account(1)["totals"]["cached_calls"] == 1 and check(1)["missing_seq"] == []


def test_a_cached_answer_is_refused_too_while_paused(app):
    set_paused(1, True, "audit")
    with pytest.raises(AiPaused):
        cached(1, PROFILE)
    assert ledger_of(1) == []


def test_a_cached_answer_works_for_a_company_without_an_account(app):
    assert cached(5, PROFILE) == {"cost": 0, "balance": 0}


def race(company_id: int, operation: str, runners: int = 20) -> list[str]:
    """`runners` threads charging at the same moment; each says whether it was served or refused."""
    start = threading.Barrier(runners)

    def attempt(_):
        start.wait()
        try:
            with charge(company_id, operation):
                return "served"
        except CreditsExhausted:
            return "refused"

    with ThreadPoolExecutor(runners) as pool:
        return list(pool.map(attempt, range(runners)))


def test_twenty_requests_racing_for_the_last_price_are_served_once(app, reconciled):
    load(1, price(PROFILE))
    outcome = race(1, PROFILE)
    assert (outcome.count("served"), outcome.count("refused")) == (1, 19)
    assert account(1)["balance"] == 0 == recomputed_balance(1) and check(1)["agrees"]


def test_twenty_requests_racing_over_three_prices_are_served_three_times(app, reconciled):
    load(1, 3 * price(PROFILE))
    outcome = race(1, PROFILE)
    assert outcome.count("served") == 3
    assert account(1)["balance"] == 0 == recomputed_balance(1)
    assert check(1) == {"balance": 0, "recomputed": 0, "agrees": True, "missing_seq": []}
