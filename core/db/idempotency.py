"""Idempotency keys (the `Idempotency-Key` header of payment APIs): a request retried with the same key within a day
changes nothing the second time and is told so; the same key with another request is refused (409).

The record is written in the same transaction as the change it guards (core.db.transactions), so a change without
its record, or a record without its change, cannot exist; two requests racing with one key leave one record, and the
loser's transaction fails on the unique index and reads the winner's record.
"""
from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta

from mongoengine import DateTimeField, DictField, Document, IntField, StringField
from pymongo.client_session import ClientSession

from core.clock import utcnow
from core.db.documents import stored
from core.errors import Conflict, ValidationFailed

HEADER = "Idempotency-Key"
KEY_FORM = re.compile(r"[\x21-\x7e]{1,255}")
"""1 to 255 printable ASCII characters, no blanks: what a client's UUID or random token is."""
KEEP = timedelta(hours=24)
LOC = ["header", HEADER]


@stored
class IdempotencyKey(Document):
    """A key seen: the request it came with (as a digest) and what its change gave, kept a day."""

    company_id = IntField(required=True)
    operation = StringField(required=True)
    key = StringField(required=True)
    fingerprint = StringField(required=True)
    outcome = DictField()
    at = DateTimeField(required=True)
    meta = {"collection": "idempotency_keys",
            "indexes": [{"fields": ["company_id", "operation", "key"], "unique": True}]}


def records():
    """The keys' collection (pymongo, for writes inside a transaction)."""
    return IdempotencyKey._get_collection()


def checked_key(key) -> str | None:
    """The key as sent (None when there is none); 422 when it is not 1 to 255 printable ASCII characters."""
    if key is None:
        return None
    if not isinstance(key, str) or not KEY_FORM.fullmatch(key):
        raise ValidationFailed.one(LOC, "Give 1 to 255 printable ASCII characters without blanks, such as a UUID.")
    return key


def fingerprint(request: dict) -> str:
    """What the request asked, as a digest: a retry must ask the same."""
    return hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()


def earlier(company_id: int, operation: str, key: str | None, asked: str) -> dict | None:
    """The record of the first request with this key in the last day (None: this one is the first); 409 when that
    request asked something else (the key is valid, the state of the server is what refuses it)."""
    if key is None:
        return None
    found = records().find_one({"company_id": company_id, "operation": operation, "key": key})
    if found is None or found["at"] <= utcnow() - KEEP:
        return None
    if found["fingerprint"] != asked:
        raise Conflict(f"This {HEADER} was used in the last 24 hours for a different request; use a new key for a "
                       "new request.")
    return found


def remember(session: ClientSession, company_id: int, operation: str, key: str | None, asked: str,
             outcome: dict) -> None:
    """Record the key with what the change gave, inside the change's transaction (an expired record of the key is
    replaced); DuplicateKeyError when another request with the key got there first."""
    if key is None:
        return
    where = {"company_id": company_id, "operation": operation, "key": key}
    records().delete_one({**where, "at": {"$lte": utcnow() - KEEP}}, session=session)
    records().insert_one({**where, "fingerprint": asked, "outcome": outcome, "at": utcnow()}, session=session)
