"""The stored documents of access: API keys (hashes only), local dashboard accounts and the counters of failed
sign-ins."""
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
    # Every session and remember-me cookie carries the version it was signed in under; signing out raises it
    session_version = IntField(default=0)
    meta = {"collection": "users"}


@stored
class RateLimitWindow(Document):
    """The recent hits of one rate-limit key, as the limits library writes them (core.access.throttle); declared so
    that its TTL index is made at start-up like every other index, and expired windows go by themselves."""

    id = StringField(primary_key=True)
    expire_at = DateTimeField(db_field="expireAt")
    meta = {"collection": "rate_limit_windows", "strict": False,
            "indexes": [{"fields": ["expire_at"], "expireAfterSeconds": 0}]}
