"""Loads and pauses a client gets wrong are refused before the ledger is reached (core.credits.ledger): an amount
that is not a positive number of credits, a note or reason too long or that the database cannot keep, an idempotency
key of the wrong form. In memory: the ledger's stores are replaced by ones that fail the test when reached, so a
refusal here is one that changed nothing. (What a load or a pause writes, and its failures under load, are
tests/core/credits/test_ledger.py and test_money_under_failure.py, on the database.)"""
from __future__ import annotations

import pytest

from core.credits import ledger
from core.credits.ledger import load, set_paused
from core.db import idempotency
from core.errors import ValidationFailed


@pytest.fixture(autouse=True)
def unreachable_ledger(monkeypatch):
    """Every store of the ledger and of idempotency keys fails the test when reached."""
    def reached(*_args, **_kwargs):
        raise AssertionError("the ledger was reached by a request it should have refused")

    for module, name in [(ledger, "accounts"), (ledger, "entries"), (ledger, "ensure_account"),
                         (ledger, "atomically"), (idempotency, "records"), (idempotency, "earlier")]:
        monkeypatch.setattr(module, name, reached)


def refused(change, *args) -> list:
    """Where the refusal says the request was wrong."""
    with pytest.raises(ValidationFailed) as refusal:
        change(*args)
    return [item["loc"] for item in refusal.value.items]


@pytest.mark.parametrize("credits", [0, -1, float("nan"), float("inf"), "10", True, 1e7, 0.001, None])
def test_a_load_that_is_not_a_positive_amount_of_at_most_a_million_with_2_decimals_is_422(credits):
    assert refused(load, 1, credits) == [["body", "credits"]]


@pytest.mark.parametrize("credits", [1_000_000, 0.01, 10.75, 1])
def test_a_load_of_a_hundredth_up_to_a_million_credits_goes_on_to_the_ledger(credits):
    with pytest.raises(AssertionError, match="the ledger was reached"):
        load(1, credits)


def test_a_note_longer_than_500_characters_is_422():
    assert refused(load, 1, 5, "x" * 501) == [["body", "note"]]


def test_a_reason_longer_than_500_characters_is_422():
    assert refused(set_paused, 1, True, "x" * 501) == [["body", "reason"]]


@pytest.mark.parametrize("note", ["\ud800", "top-up \udfff", "nul\x00here"])
def test_a_load_whose_note_cannot_be_stored_is_422(note):
    assert refused(load, 1, 10, note) == [["body", "note"]]


@pytest.mark.parametrize("reason", ["\ud800", "\x00"])
def test_a_pause_whose_reason_cannot_be_stored_is_422(reason):
    assert refused(set_paused, 1, True, reason) == [["body", "reason"]]


@pytest.mark.parametrize("key", ["", " ", "a b", "é", "x" * 256])
def test_an_idempotency_key_that_is_not_1_to_255_printable_ascii_characters_is_422(key):
    assert refused(load, 1, 10, None, key) == [["header", "Idempotency-Key"]]
    assert refused(set_paused, 1, True, None, key) == [["header", "Idempotency-Key"]]
