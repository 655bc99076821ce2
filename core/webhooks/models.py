"""The stored endpoints, queued events and delivery log of a station's webhooks."""
from __future__ import annotations

from datetime import timedelta

from mongoengine import (
    BinaryField,
    BooleanField,
    DateTimeField,
    DictField,
    Document,
    IntField,
    ListField,
    ObjectIdField,
    StringField,
)

from core.db.documents import stored
from core.listeners.models import GROUP_KEY_FIELDS
from core.personal.registry import Store, declare
from core.personal.sealed_groups import OPEN_GROUP_INDEX, GroupKey

KEEP_EVENTS = timedelta(days=30)
"""How long a delivered event stays for a replay, then MongoDB deletes it."""
KEEP_LOG = timedelta(days=30)
"""How long the delivery log keeps an attempt."""


@stored
class WebhookEndpoint(Document):
    """Where a station's chosen events go: the URL, the secret that signs them, and the listener fields it shares."""

    company_id = IntField(required=True)
    webhook_id = StringField(required=True, unique=True)
    url = StringField(required=True)
    secret = StringField(required=True)
    events = ListField(StringField())
    shared_fields = ListField(StringField())
    next_seq = IntField(default=0)  # the next batch's place in the endpoint's order
    next_delivery = IntField(default=0)  # every batch before this place was delivered
    created_at = DateTimeField(required=True)
    meta = {"collection": "webhook_endpoints", "indexes": [("company_id", "created_at")]}


@stored
class WebhookBatch(Document):
    """Events queued for one endpoint together (the outbox), in the endpoint's order (`seq`): each event's idempotency
    id, type, listener and body as sent. One document per batch rather than per event: the embedded database writes
    and sorts documents, not events, so a run's 20,000 events are 100 writes. The listeners' originators are kept
    beside the bodies so that erasure finds them. The bodies are sealed (core.webhooks.outbox)."""

    company_id = IntField(required=True)
    webhook_id = StringField(required=True)
    seq = IntField(required=True)
    events = ListField(DictField())  # [{event_id, type, originator}], oldest first (and body, before sealing)
    sealed_bodies = BinaryField()  # the events' bodies (JSON), sealed in the group `bodies_group`
    bodies_group = ObjectIdField()
    originators = ListField(StringField())
    count = IntField(required=True)
    delivered = BooleanField(default=False)
    attempts = IntField(default=0)
    created_at = DateTimeField(required=True)
    delivered_at = DateTimeField()
    replay_of = StringField()  # the delivery this batch replays
    meta = {"collection": "webhook_batches", "indexes": [
        ("webhook_id", "delivered"), ("webhook_id", "seq"), ("company_id", "originators"),
        ("company_id", "bodies_group"),
        {"fields": ["delivered_at"], "expireAfterSeconds": int(KEEP_EVENTS.total_seconds())}]}


@stored
class WebhookDelivery(Document):
    """One POST to an endpoint: the events it carried (by id), its answer, how long it took and what went wrong."""

    company_id = IntField(required=True)
    webhook_id = StringField(required=True)
    delivery_id = StringField(required=True, unique=True)
    event_ids = ListField(StringField())
    types = ListField(StringField())
    status = IntField()  # the receiver's HTTP status; None when it never answered
    ok = BooleanField(default=False)
    latency_ms = IntField()
    attempt = IntField(default=1)
    error = StringField()
    replay_of = StringField()
    at = DateTimeField(required=True)
    meta = {"collection": "webhook_deliveries", "indexes": [
        ("webhook_id", "-at"), {"fields": ["at"], "expireAfterSeconds": int(KEEP_LOG.total_seconds())}]}


@stored
class WebhookKey(GroupKey):
    """The content key of one group of the outbox's batches (core.webhooks.outbox)."""

    meta = {"collection": "webhook_keys", "indexes": [OPEN_GROUP_INDEX]}


ENDPOINTS = declare(Store("webhook_endpoints", "webhook_endpoints", free=(
    "_id", "company_id", "webhook_id", "url", "secret", "events", "shared_fields", "next_seq", "next_delivery",
    "created_at")))
DELIVERIES = declare(Store("webhook_deliveries", "webhook_deliveries", free=(  # ids, statuses and our own words
    "_id", "company_id", "webhook_id", "delivery_id", "event_ids", "types", "status", "ok", "latency_ms", "attempt",
    "error", "replay_of", "at")))
KEYS = declare(Store("webhook_keys", "webhook_keys", free=GROUP_KEY_FIELDS))
