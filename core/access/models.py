"""The stored documents of access: API keys (hashes only) and local dashboard accounts."""
from __future__ import annotations

from mongoengine import BooleanField, DateTimeField, Document, IntField, ListField, StringField

from core.clock import utcnow
from core.db.documents import stored


@stored
class ApiKey(Document):
    """An API key: only its hash is stored; scoped to some companies or to all."""

    name = StringField(default="")
    key_hash = StringField(required=True, unique=True)
    prefix = StringField(required=True)
    companies = ListField(IntField())
    all_companies = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)
    revoked_at = DateTimeField()
    meta = {"collection": "api_keys"}


@stored
class User(Document):
    """A local dashboard account."""

    email = StringField(required=True, unique=True)
    password_hash = StringField(required=True)
    name = StringField(default="")
    companies = ListField(IntField())
    admin = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)
    meta = {"collection": "users"}
