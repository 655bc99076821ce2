"""The stored documents of credits: one account per company and the append-only ledger it is the sum of.

Amounts are whole hundredths of a credit. Both are written with atomic pymongo operations (core.credits.ledger);
the documents declare the fields and indexes.
"""
from __future__ import annotations

from mongoengine import BooleanField, DateTimeField, Document, IntField, StringField

from core.db.documents import stored
from core.personal.registry import Store, declare

KINDS = ("load", "spend", "refund", "cached")
STATUSES = ("ok", "refunded")
"""A spend is "ok" until the work it paid for fails; then it is "refunded" and a refund entry follows it."""


@stored
class CreditAccount(Document):
    """A company's balance and pause. `seq` counts the ledger entries, so a gap in theirs shows a lost write."""

    company_id = IntField(required=True, unique=True)
    balance = IntField(default=0)  # hundredths
    seq = IntField(default=0)
    paused = BooleanField(default=False)
    reason = StringField(null=True)
    paused_at = DateTimeField(null=True)
    meta = {"collection": "credit_accounts"}


@stored
class CreditEntry(Document):
    """One event of an account, never changed but for its details and a spend's status (and erased subjects)."""

    company_id = IntField(required=True)
    seq = IntField(required=True)  # the account's seq after the change
    at = DateTimeField(required=True)
    kind = StringField(required=True, choices=KINDS)
    amount = IntField(required=True)  # signed hundredths: load +, spend -, refund +, cached 0
    operation = StringField(null=True)
    subject = StringField(null=True)  # an originator (personal data: erasure blanks it) or an audience id
    provider = StringField(null=True)
    model = StringField(null=True)
    tokens_in = IntField(null=True)
    tokens_out = IntField(null=True)
    cached = BooleanField(default=False)
    status = StringField(default="ok", choices=STATUSES)
    note = StringField(null=True)
    refund_of = IntField(null=True)  # the seq of the spend a refund gives back
    meta = {"collection": "credit_ledger",
            "indexes": [{"fields": ["company_id", "seq"], "unique": True}, {"fields": ["company_id", "at"]}]}


ACCOUNTS = declare(Store("credit_accounts", "credit_accounts", free=(
    "_id", "company_id", "balance", "seq", "paused", "reason", "paused_at")))
ENTRIES = declare(Store("credit_entries", "credit_ledger", free=(
    "_id", "company_id", "seq", "at", "kind", "amount", "operation", "provider", "model", "tokens_in", "tokens_out",
    "cached", "status", "note", "refund_of")))
"""The ledger's own fields; its `subject`, which may be a listener's, is declared personal by the operations that
charge per listener (core.ai.profile)."""
