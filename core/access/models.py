"""The stored documents of access: API keys (hashes only), local dashboard accounts, the sessions of platform users
and the counters of failed sign-ins."""
from __future__ import annotations

from mongoengine import BooleanField, DateTimeField, DictField, Document, IntField, ListField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare


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


UNUSED_PLATFORM_SESSION_DAYS = 30


@stored
class PlatformSession(Document):
    """A campaign platform user's sign-in: their tokens, kept here only and sealed (core.access.session_tokens), and the
    campaigns and stations the platform last said they may access. Goes by itself once unused for
    UNUSED_PLATFORM_SESSION_DAYS."""

    id = StringField(primary_key=True)  # the SHA-256 of the random id that only the person's cookies hold
    username = StringField(required=True)  # the platform username (an email), as typed
    access_token = StringField(required=True)  # sealed under a key derived from the random id
    refresh_token = StringField(required=True)  # sealed likewise
    scope = StringField(default="")
    expires_at = DateTimeField(required=True)  # of the access token
    campaigns = ListField(DictField())
    companies = ListField(IntField())
    campaigns_at = DateTimeField()  # when the campaigns were last fetched
    campaigns_tried_at = DateTimeField()  # when they were last asked for, answered or not
    created_at = DateTimeField(default=utcnow)
    used_at = DateTimeField(default=utcnow)
    meta = {"collection": "platform_sessions",
            "indexes": [{"fields": ["used_at"], "expireAfterSeconds": UNUSED_PLATFORM_SESSION_DAYS * 86400}]}

    def __repr__(self) -> str:
        """Who and until when, never the tokens."""
        return f"<PlatformSession of {self.username} until {self.expires_at}>"


# Access holds the service's own people and clients, never a listener: a key's name says which system uses it, a
# sign-in's counters are keyed by a client address or an account's email.
API_KEYS = declare(Store("api_keys", "api_keys", free=(
    "_id", "name", "key_hash", "prefix", "companies", "all_companies", "created_at", "revoked_at")))
USERS = declare(Store("users", "users", free=(
    "_id", "email", "password_hash", "name", "companies", "admin", "created_at", "session_version")))
RATE_LIMITS = declare(Store("rate_limit_windows", "rate_limit_windows", free=("_id", "entries", "expireAt")))
RATE_COUNTERS = declare(Store("rate_limit_counters", "rate_limit_counters", free=("_id", "count", "expireAt")))
"""The limits library's fixed-window counters, beside its windows (core.access.throttle names the collection)."""
PLATFORM_SESSIONS = declare(Store("platform_sessions", "platform_sessions", free=(
    "_id", "username", "access_token", "refresh_token", "scope", "expires_at", "campaigns", "companies",
    "campaigns_at", "campaigns_tried_at", "created_at", "used_at")))
