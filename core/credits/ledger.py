"""The account and its ledger: loads, pauses, the account view, and the checks that the balance is the ledger's sum.

Every change of a balance is one atomic update of the account that also bumps its `seq`, followed by the ledger
entry carrying that seq; never a read followed by a write. A company without an account reads as balance 0, not
paused, and gets its account at its first write.
"""
from __future__ import annotations

from core.clock import utcnow
from core.credits.models import CreditAccount, CreditEntry
from core.credits.money import as_credits, load_amount
from core.db.quirks import updated_creating
from core.errors import ValidationFailed

MAX_TEXT = 500
"""The longest pause reason or load note kept."""
NEW_ACCOUNT = {"balance": 0, "seq": 0, "paused": False, "reason": None, "paused_at": None}


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


def append(company_id: int, seq: int, kind: str, amount: int, **details) -> dict:
    """Write the ledger entry of the account change that gave `seq`; returns it."""
    entry = {"company_id": company_id, "seq": seq, "at": utcnow(), "kind": kind, "amount": amount,
             "operation": None, "subject": None, "provider": None, "model": None, "tokens_in": None,
             "tokens_out": None, "cached": False, "status": "ok", "note": None, "refund_of": None, **details}
    entries().insert_one(entry)
    return entry


def load(company_id: int, credits, note: str | None = None) -> dict:
    """Add credits to the account (admin only, checked by the caller); returns the account view and the amount."""
    try:
        amount = load_amount(credits)
    except ValueError as error:
        raise ValidationFailed.one(["body", "credits"], str(error)) from None
    note = _text(note, ["body", "note"])
    after = change(company_id, {"$inc": {"balance": amount, "seq": 1}})
    append(company_id, after["seq"], "load", amount, note=note)
    return {**account(company_id), "loaded": as_credits(amount)}


def set_paused(company_id: int, paused: bool, reason: str | None = None) -> dict:
    """Pause or unpause the company's AI usage; a reason is kept while paused, and cleared by unpausing."""
    if not isinstance(paused, bool):
        raise ValidationFailed.one(["body", "paused"], "Must be true or false.")
    reason = _text(reason, ["body", "reason"]) if paused else None
    change(company_id, {"$set": {"paused": paused, "reason": reason, "paused_at": utcnow() if paused else None}})
    return account(company_id)


def _text(value: str | None, loc: list) -> str | None:
    """A free text trimmed, None when blank, 422 when longer than MAX_TEXT."""
    text = (value or "").strip()
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


def forget_subject(company_id: int, originator: str, _pseudonym: str = "") -> int:
    """Blank a listener's originator wherever the ledger names it; returns the entries changed. An erasure hook
    (core.privacy.hooks): the money stays, as the balance must remain the ledger's sum."""
    return entries().update_many({"company_id": company_id, "subject": originator},
                                 {"$set": {"subject": None}}).modified_count
