"""The stored documents of privacy: the audit trail, which holds no personal data."""
from __future__ import annotations

from mongoengine import DateTimeField, DictField, Document, IntField, StringField

from core.clock import utcnow
from core.db.documents import stored


@stored
class AuditEntry(Document):
    """What was done to whose data, with no personal data in it."""

    company_id = IntField(required=True)
    action = StringField(required=True)
    at = DateTimeField(default=utcnow)
    actor = StringField(default="")
    details = DictField()
    meta = {"collection": "audit", "indexes": [("company_id", "-at")]}
