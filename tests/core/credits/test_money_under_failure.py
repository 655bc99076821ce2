"""Money under failure: the balance and the ledger change together or not at all, and a load or pause retried with its
idempotency key changes nothing twice. (A text the database cannot keep, or a key of the wrong form, is refused before
anything is written: test_refused_before_written.py, in memory.)"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from pymongo.errors import DuplicateKeyError

from core.credits import ledger
from core.credits.charges import charge
from core.credits.ledger import account, check, load, set_paused
from core.db.idempotency import records
from core.errors import Conflict

pytestmark = pytest.mark.db


def state(company_id: int) -> tuple:
    """The account's balance and seq, and the ledger's entries: what a failed change must leave as it was."""
    found = ledger.accounts().find_one({"company_id": company_id}) or {}
    return found.get("balance"), found.get("seq"), ledger.entries().count_documents({"company_id": company_id})


def test_a_ledger_write_that_fails_leaves_the_balance_as_it_was(app):
    load(1, 5)
    balance, seq, _ = state(1)
    ledger.entries().insert_one({"company_id": 1, "seq": seq + 1, "kind": "load", "amount": 0})  # takes the next seq
    with pytest.raises(DuplicateKeyError):
        load(1, 10)
    assert state(1)[:2] == (balance, seq)


def test_a_spend_whose_entry_fails_is_not_taken(app):
    load(1, 5)
    balance, seq, _ = state(1)
    ledger.entries().insert_one({"company_id": 1, "seq": seq + 1, "kind": "load", "amount": 0})
    with pytest.raises(DuplicateKeyError), charge(1, "ai_listener_profile"):
        pass
    assert state(1)[:2] == (balance, seq)


def test_a_load_retried_with_its_idempotency_key_loads_once_and_says_it_was_replayed(app):
    first = load(1, 10, "november", "load-2026-11-25-a")
    again = load(1, 10, "november", "load-2026-11-25-a")
    assert (first["replayed"], again["replayed"]) == (False, True)
    assert again["balance"] == 10 and again["loaded"] == 10 and check(1)["agrees"]


def test_an_idempotency_key_reused_for_another_amount_is_a_conflict_and_loads_nothing(app):
    load(1, 10, None, "key-1")
    with pytest.raises(Conflict, match="Idempotency-Key"):
        load(1, 20, None, "key-1")
    assert account(1)["balance"] == 10


def test_the_same_key_at_another_station_is_another_load(app):
    load(1, 10, None, "key-1")
    assert load(2, 10, None, "key-1")["replayed"] is False


def test_a_key_older_than_a_day_is_forgotten_and_loads_again(app):
    load(1, 10, None, "key-1")
    records().update_one({"key": "key-1"}, {"$set": {"at": records().find_one({"key": "key-1"})["at"].replace(
        year=2020)}})
    assert load(1, 10, None, "key-1")["replayed"] is False
    assert account(1)["balance"] == 20


def test_eight_loads_racing_with_one_key_load_once(app, reconciled):
    start = threading.Barrier(8)

    def retry(_):
        start.wait()
        return load(1, 7, "retried", "the-same-key")["replayed"]

    with ThreadPoolExecutor(8) as pool:
        replayed = list(pool.map(retry, range(8)))
    assert replayed.count(False) == 1
    assert account(1)["balance"] == 7 and check(1)["missing_seq"] == []


def test_a_pause_retried_with_its_key_keeps_its_first_time(app):
    first = set_paused(1, True, "audit", "pause-1")
    again = set_paused(1, True, "audit", "pause-1")
    assert (first["replayed"], again["replayed"]) == (False, True)
    assert again["paused_at"] == first["paused_at"]


def test_the_credits_check_command_passes_when_every_ledger_agrees_and_fails_when_one_does_not(app, runner):
    load(1, 5)
    load(2, 3)
    assert runner.invoke(args=["credits", "check"]).exit_code == 0
    ledger.entries().delete_one({"company_id": 2, "seq": 1})
    result = runner.invoke(args=["credits", "check"])
    assert result.exit_code != 0
    assert "company 2" in result.output and "MISMATCH" in result.output
