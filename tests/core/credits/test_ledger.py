"""The account and its ledger: loads, pauses, the account view and the checks that the balance is the ledger's sum."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from core.credits import ledger
from core.credits.charges import charge
from core.credits.ledger import account, check, forget_subjects, load, recomputed_balance, set_paused

pytestmark = pytest.mark.db


def ledger_of(company_id: int) -> list[dict]:
    return list(ledger.entries().find({"company_id": company_id}, {"_id": 0}).sort("seq", 1))


def test_a_new_company_has_0_credits_is_not_paused_and_reading_it_creates_nothing(app):
    view = account(7)
    assert (view["balance"], view["paused"], view["reason"]) == (0, False, None)
    assert view["totals"] == {"loaded": 0, "spent": 0, "refunded": 0, "ai_calls": 0, "cached_calls": 0}
    assert ledger.accounts().count_documents({}) == 0


def test_loads_of_10_5_and_0_25_make_exactly_10_75(app):
    load(1, 10.5)
    answer = load(1, 0.25, note="  top-up  ")
    assert (answer["balance"], answer["loaded"]) == (10.75, 0.25)
    assert [(e["kind"], e["amount"], e["seq"], e["note"]) for e in ledger_of(1)] == [
        ("load", 1050, 1, None), ("load", 25, 2, "top-up")]


def test_pausing_keeps_the_reason_and_unpausing_clears_it(app):
    paused = set_paused(1, True, "  invoice overdue  ")
    assert (paused["paused"], paused["reason"]) == (True, "invoice overdue") and paused["paused_at"]
    resumed = set_paused(1, False, "ignored when unpausing")
    assert (resumed["paused"], resumed["reason"], resumed["paused_at"]) == (False, None, None)


def test_pausing_keeps_the_balance_and_writes_no_money_entry(app):
    load(1, 3)
    set_paused(1, True, None)
    assert account(1)["balance"] == 3 and [e["kind"] for e in ledger_of(1)] == ["load"]


def test_the_totals_add_up_loads_spends_refunds_and_calls(app):
    load(1, 10)
    with charge(1, "ai_segment_insights"):
        pass
    with pytest.raises(RuntimeError), charge(1, "ai_listener_profile"):
        raise RuntimeError("provider down")
    totals = account(1)["totals"]
    assert totals["loaded"] - totals["spent"] + totals["refunded"] == account(1)["balance"]
    assert totals["ai_calls"] == 1 and totals["refunded"] > 0


def test_the_balance_is_the_sum_of_the_ledger_and_check_finds_no_gap(app):
    load(1, 4.5)
    with charge(1, "ai_listener_profile"):
        pass
    assert recomputed_balance(1) == account(1)["balance"]
    assert check(1) == {"balance": account(1)["balance"], "recomputed": account(1)["balance"], "agrees": True,
                        "missing_seq": []}


def test_check_shows_a_write_lost_between_the_account_and_its_entry(app):
    load(1, 5)
    load(1, 2)
    ledger.entries().delete_one({"company_id": 1, "seq": 1})
    found = check(1)
    assert (found["agrees"], found["missing_seq"]) == (False, [1])


def test_forgetting_a_listener_blanks_it_in_every_entry_of_its_company_only(app):
    load(1, 5)
    load(2, 5)
    for company_id in (1, 2):
        with charge(company_id, "ai_listener_profile", subject="27821234567"):
            pass
    with pytest.raises(RuntimeError), charge(1, "ai_listener_profile", subject="27821234567"):
        raise RuntimeError("provider down")
    assert forget_subjects(1, ["27821234567"]) == 3  # the paid call, the failed one and its refund
    assert all(e["subject"] is None for e in ledger_of(1))
    assert [e["subject"] for e in ledger_of(2) if e["kind"] == "spend"] == ["27821234567"]


def test_twenty_first_loads_of_a_new_company_at_once_make_one_account_holding_them_all(app, reconciled):
    start = threading.Barrier(20)

    def first_load(_):
        start.wait()
        load(3, 1.5)

    with ThreadPoolExecutor(20) as pool:
        list(pool.map(first_load, range(20)))
    assert ledger.accounts().count_documents({"company_id": 3}) == 1
    assert check(3) == {"balance": 30, "recomputed": 30, "agrees": True, "missing_seq": []}
