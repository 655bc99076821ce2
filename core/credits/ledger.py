"""The account and its ledger: loads, pauses, the account view, and the checks that the balance is the ledger's sum.

Every change of a balance is one atomic update of the account that also bumps its `seq`, written in one transaction
with the ledger entry carrying that seq (core.db.transactions): whatever fails, the two agree. Every text is checked
before the transaction starts, and loads and pauses take an idempotency key (core.db.idempotency), so that an admin
who retries after a failure changes nothing twice. A company without an account reads as balance 0, not paused, and
gets its account at its first write.
"""
from __future__ import annotations

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from core.clock import utcnow
from core.credits.models import CreditAccount, CreditEntry
from core.credits.money import as_credits, load_amount
from core.db import idempotency
from core.db.quirks import updated_creating
from core.db.transactions import atomically
from core.errors import ValidationFailed
from core.text.storable import storable

MAX_TEXT = 500
"""The longest pause reason or load note kept."""
NEW_ACCOUNT = {"balance": 0, "seq": 0, "paused": False, "reason": None, "paused_at": None}
LOAD, PAUSE = "credits_load", "credits_pause"
"""The operations an idempotency key is kept for."""


def accounts():
    """The accounts' collection (pymongo, for atomic updates)."""
    return CreditAccount._get_collection()


def entries():
    """The ledger's collection (pymongo)."""
    return CreditEntry._get_collection()


def change(company_id: int, update: dict) -> dict:
    """Apply an atomic update to the company's account, creating the account first if it has none (never by an
    upsert that returns the document: core.db.quirks.updated_creating); returns the account after the update."""
    return updated_creating(accounts(), {"company_id": company_id}, update, NEW_ACCOUNT)


def ensure_account(company_id: int) -> dict:
    """The company's account, created empty if it has none."""
    return change(company_id, {"$inc": {"seq": 0}})


def changed(session, company_id: int, update: dict, condition: dict | None = None) -> dict | None:
    """The account after an atomic update within a transaction; None when it does not meet `condition`."""
    return accounts().find_one_and_update({"company_id": company_id, **(condition or {})}, update, session=session,
                                          return_document=ReturnDocument.AFTER)


def append(company_id: int, seq: int, kind: str, amount: int, session=None, **details) -> dict:
    """Write the ledger entry of the account change that gave `seq` (within its transaction); returns it."""
    entry = {"company_id": company_id, "seq": seq, "at": utcnow(), "kind": kind, "amount": amount,
             "operation": None, "subject": None, "provider": None, "model": None, "tokens_in": None,
             "tokens_out": None, "cached": False, "status": "ok", "note": None, "refund_of": None, **details}
    entries().insert_one(entry, session=session)
    return entry


def load(company_id: int, credits, note: str | None = None, idempotency_key: str | None = None) -> dict:
    """Add credits to the account (admin only, checked by the caller); returns the account view, the amount and
    whether this was a retry of a load already made under the same idempotency key (then nothing changed)."""
    try:
        amount = load_amount(credits)
    except ValueError as error:
        raise ValidationFailed.one(["body", "credits"], str(error)) from None
    note, key = _text(note, ["body", "note"]), idempotency.checked_key(idempotency_key)
    asked = idempotency.fingerprint({"credits": amount, "note": note})
    if idempotency.earlier(company_id, LOAD, key, asked) is None:
        ensure_account(company_id)

        def add(session) -> None:
            after = changed(session, company_id, {"$inc": {"balance": amount, "seq": 1}})
            append(company_id, after["seq"], "load", amount, session, note=note)
            idempotency.remember(session, company_id, LOAD, key, asked, {"seq": after["seq"]})

        if _first(add, key):
            return {**account(company_id), "loaded": as_credits(amount), "replayed": False}
    idempotency.earlier(company_id, LOAD, key, asked)  # a racing request with the key won: the same one, or 422
    return {**account(company_id), "loaded": as_credits(amount), "replayed": True}


def set_paused(company_id: int, paused: bool, reason: str | None = None, idempotency_key: str | None = None) -> dict:
    """Pause or unpause the company's AI usage; a reason is kept while paused, and cleared by unpausing. A retry
    under the same idempotency key changes nothing (not even when it was paused)."""
    if not isinstance(paused, bool):
        raise ValidationFailed.one(["body", "paused"], "Must be true or false.")
    reason = _text(reason, ["body", "reason"]) if paused else None
    key = idempotency.checked_key(idempotency_key)
    asked = idempotency.fingerprint({"paused": paused, "reason": reason})
    if idempotency.earlier(company_id, PAUSE, key, asked) is None:
        ensure_account(company_id)

        def turn(session) -> None:
            changed(session, company_id, {"$set": {"paused": paused, "reason": reason,
                                                   "paused_at": utcnow() if paused else None}})
            idempotency.remember(session, company_id, PAUSE, key, asked, {})

        if _first(turn, key):
            return {**account(company_id), "replayed": False}
    idempotency.earlier(company_id, PAUSE, key, asked)
    return {**account(company_id), "replayed": True}


def _first(work, key: str | None) -> bool:
    """Run the change in one transaction; False when a request with the same idempotency key got there first."""
    try:
        atomically(work)
        return True
    except DuplicateKeyError:
        if key is None:
            raise
        return False


def _text(value: str | None, loc: list) -> str | None:
    """A free text trimmed, None when blank, 422 when longer than MAX_TEXT or not text the database can keep."""
    text = storable((value or "").strip(), loc)
    if len(text) > MAX_TEXT:
        raise ValidationFailed.one(loc, f"At most {MAX_TEXT} characters.")
    return text or None


def account(company_id: int) -> dict:
    """The balance, the pause and what the ledger adds up to (read only: no account is created)."""
    found = accounts().find_one({"company_id": company_id}) or NEW_ACCOUNT
    paused_at = found.get("paused_at")
    return {"company_id": company_id, "balance": as_credits(found["balance"]), "paused": bool(found["paused"]),
            "reason": found.get("reason"), "paused_at": paused_at.isoformat() if paused_at else None,
            "totals": totals(company_id)}


def totals(company_id: int) -> dict:
    """Credits loaded, spent and refunded, paid AI calls that answered and cached answers."""
    sums = {(row["_id"]["kind"], row["_id"]["status"]): row for row in entries().aggregate([
        {"$match": {"company_id": company_id}},
        {"$group": {"_id": {"kind": "$kind", "status": "$status"}, "amount": {"$sum": "$amount"},
                    "count": {"$sum": 1}}}])}

    def amount(kind: str) -> int:
        return sum(row["amount"] for (k, _), row in sums.items() if k == kind)

    return {"loaded": as_credits(amount("load")), "spent": as_credits(-amount("spend")),
            "refunded": as_credits(amount("refund")), "ai_calls": sums.get(("spend", "ok"), {}).get("count", 0),
            "cached_calls": sum(row["count"] for (k, _), row in sums.items() if k == "cached")}


def recomputed_balance(company_id: int) -> int | float:
    """The balance as the ledger says it should be: the sum of every entry's amount."""
    rows = list(entries().aggregate([{"$match": {"company_id": company_id}},
                                     {"$group": {"_id": None, "amount": {"$sum": "$amount"}}}]))
    return as_credits(rows[0]["amount"] if rows else 0)


def check(company_id: int) -> dict:
    """Whether the balance agrees with the ledger, and the seqs without an entry (a write lost between the two)."""
    found = accounts().find_one({"company_id": company_id}) or NEW_ACCOUNT
    seen = set(entries().distinct("seq", {"company_id": company_id}))
    balance, recomputed = as_credits(found["balance"]), recomputed_balance(company_id)
    return {"balance": balance, "recomputed": recomputed, "agrees": balance == recomputed,
            "missing_seq": [seq for seq in range(1, found["seq"] + 1) if seq not in seen]}


def check_all() -> list[dict]:
    """check() of every company with an account or a ledger entry, each with its company_id, in company order: what
    `flask --app wsgi credits check` reconciles."""
    companies = set(accounts().distinct("company_id")) | set(entries().distinct("company_id"))
    return [{"company_id": company_id, **check(company_id)} for company_id in sorted(companies)]


def forget_subjects(company_id: int, subjects: list[str]) -> int:
    """Blank these subjects (a listener's, as the ledger names them) wherever the ledger names them; returns the
    entries changed."""
    return entries().update_many({"company_id": company_id, "subject": {"$in": subjects}},
                                 {"$set": {"subject": None}}).modified_count
