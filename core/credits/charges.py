"""Paying for AI work: a charge taken atomically before the work, refunded when the work fails, and the free
record of an answer served from a cache.

    with charge(company_id, "ai_listener_profile", subject=originator) as bill:
        answer = provider.infer(...)
        bill.record(provider="openai", model="gpt-4o-mini", tokens_in=812, tokens_out=164)
    answer["credits"] = {"cost": bill.cost, "balance": bill.balance}

The price is taken by one conditional update (not paused, balance at least the price), so two requests can never
spend the same credit, written in one transaction with its ledger entry, and so is a refund with its entry; a paused
company gets no AI answer at all, not even a cached one.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from core.config import active
from core.credits.ledger import accounts, append, changed, ensure_account, entries
from core.credits.money import as_credits, hundredths, phrase
from core.db.transactions import atomically
from core.errors import AiPaused, CreditsExhausted

ATTEMPTS = 3
"""Conditional updates tried while a read says the last one should have matched (a first charge of a company
creates its account; a load or an unpause may land in between)."""
DETAILS = ("provider", "model", "tokens_in", "tokens_out")


@dataclass
class Charge:
    """A price taken for one AI call: what it cost and the balance left, and what the call reports of itself."""

    company_id: int
    operation: str
    seq: int
    price: int  # hundredths
    left: int  # hundredths
    subject: str | None = None
    refunded: bool = False
    details: dict = field(default_factory=dict)

    def record(self, provider: str | None = None, model: str | None = None, tokens_in: int | None = None,
               tokens_out: int | None = None) -> None:
        """Note who answered and the tokens it used; written to the ledger entry when the block ends."""
        self.details.update(provider=provider, model=model, tokens_in=tokens_in, tokens_out=tokens_out)

    @property
    def cost(self) -> int | float:
        """Credits the call cost (0 once refunded)."""
        return 0 if self.refunded else as_credits(self.price)

    @property
    def balance(self) -> int | float:
        """Credits left after the call."""
        return as_credits(self.left)


@contextmanager
def charge(company_id: int, operation: str, subject: str | None = None) -> Iterator[Charge]:
    """Take the operation's price before the work; if the block raises, give it back and re-raise.

    AiPaused when the company is paused, CreditsExhausted when the balance is below the price; either way nothing
    is written. An operation without a price is a programming error (KeyError).
    """
    price = hundredths(active().prices[operation])
    after = take(company_id, price, "spend", operation=operation, subject=subject)
    bill = Charge(company_id, operation, after["seq"], price, after["balance"], subject)
    try:
        yield bill
    except BaseException:  # the work failed, however: it must not be paid for
        _refund(bill)
        raise
    finally:
        _note_details(bill)


def cached(company_id: int, operation: str, subject: str | None = None, provider: str | None = None,
           model: str | None = None) -> dict:
    """Record an answer served from a cache: free, but refused like any AI answer while the company is paused."""
    after = take(company_id, 0, "cached", operation=operation, subject=subject, provider=provider, model=model,
                 cached=True)
    return {"cost": 0, "balance": as_credits(after["balance"])}


def ensure_open(company_id: int) -> None:
    """Refuse (AiPaused) an AI operation that costs nothing and records nothing, such as a promotion, while the
    company is paused. A read alone: a company without an account is not paused."""
    pause = pause_of(company_id)
    if pause is not None:
        raise AiPaused(pause)


def pause_of(company_id: int) -> str | None:
    """Why the company's AI operations are refused now, in the words the refusal says; None when they are not. Pages
    show it beside every paid button before anyone presses one. A read alone."""
    account = accounts().find_one({"company_id": company_id}, {"paused": 1, "reason": 1}) or {}
    return paused_error(account.get("reason")).detail if account.get("paused") else None


def take(company_id: int, price: int, kind: str, **details) -> dict:
    """Spend `price` hundredths in one conditional update bumping seq, and write its ledger entry of `kind`, in one
    transaction; returns the account after it."""
    def spend(session) -> dict | None:
        after = changed(session, company_id, {"$inc": {"balance": -price, "seq": 1}},
                        {"paused": {"$ne": True}, "balance": {"$gte": price}})
        if after is not None:
            append(company_id, after["seq"], kind, -price, session, **details)
        return after

    for _ in range(ATTEMPTS):
        after = atomically(spend)
        if after is not None:
            return after
        _refuse(ensure_account(company_id), price)
    raise CreditsExhausted("Credits are changing too fast to take this charge; try again.")


def _refuse(account: dict, price: int) -> None:
    """Say why the account cannot pay: paused, or a balance below the price (else the caller tries again)."""
    if account.get("paused"):
        raise paused_error(account.get("reason"))
    if account["balance"] < price:
        raise CreditsExhausted(f"This costs {phrase(price)} and the balance is {phrase(account['balance'])}; "
                               "an admin can load more.")


def paused_error(reason: str | None) -> AiPaused:
    """The 403 of a paused company, with the admin's reason when one was given (docs/decisions.md §6)."""
    if reason:
        return AiPaused(f"AI usage is paused for this company: {reason}")
    return AiPaused("AI usage is paused for this company; an admin can unpause it.")


def _refund(bill: Charge) -> None:
    """Give the price back as a new entry, and mark the spend it undoes as refunded, in one transaction."""
    def give_back(session) -> dict:
        after = changed(session, bill.company_id, {"$inc": {"balance": bill.price, "seq": 1}})
        append(bill.company_id, after["seq"], "refund", bill.price, session, operation=bill.operation,
               subject=bill.subject, refund_of=bill.seq)
        entries().update_one({"company_id": bill.company_id, "seq": bill.seq}, {"$set": {"status": "refunded"}},
                             session=session)
        return after

    bill.refunded, bill.left = True, atomically(give_back)["balance"]


def _note_details(bill: Charge) -> None:
    """Write what the call reported of itself on its spend entry (its amount never changes)."""
    details = {name: bill.details[name] for name in DETAILS if bill.details.get(name) is not None}
    if details:
        entries().update_one({"company_id": bill.company_id, "seq": bill.seq}, {"$set": details})
