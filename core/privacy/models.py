"""The stored documents of privacy: the audit trail, which holds no personal data."""
from __future__ import annotations

from mongoengine import BinaryField, DateTimeField, DictField, Document, IntField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
class AuditEntry(Document):
    """What was done to whose data, with no personal data in it."""

    company_id = IntField(required=True)
    action = StringField(required=True)
    at = DateTimeField(default=utcnow)
    actor = StringField(default="")
    details = DictField()
    meta = {"collection": "audit", "indexes": [("company_id", "-at")]}


@stored
class PendingErasure(Document):
    """An erasure under way, so that one cut short (a killed process) is finished by the next start. Whom it erases
    is sealed under a data key of its own (`erasure:<id>`), destroyed when it ends; `done` holds, per store reached,
    how many records it touched (core.privacy.erasure)."""

    company_id = IntField(required=True)
    sealed = BinaryField(required=True)
    done = DictField()
    started_at = DateTimeField(default=utcnow)
    meta = {"collection": "pending_erasures", "indexes": ["started_at"]}


AUDIT = declare(Store("audit", "audit", personal=("details",),  # an erasure's pseudonym of the listener
                      free=("_id", "company_id", "action", "at", "actor")))
PENDING = declare(Store("pending_erasures", "pending_erasures", personal=("sealed",),  # whom, sealed
                        free=("_id", "company_id", "done", "started_at")))
