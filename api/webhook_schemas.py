"""The schemas of /api/v1/webhooks: an endpoint asked for and as answered (never its secret), and its deliveries."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.arguments import NO_NUL, RequestSchema
from api.bodies import longest
from core.webhooks.endpoints import SECRET_MAX, SECRET_MIN, URL_MAX
from core.webhooks.events import EVENT_TYPES, SHAREABLE

PUBLIC_HTTPS = r"^https://(?!localhost)[a-z][a-z0-9-]{0,30}(\.[a-z][a-z0-9-]{0,30}){1,3}(/[a-z0-9_-]{0,40}){0,3}$"
"""What the document says a URL looks like: https to a host name. Core also takes http to an allowed host and refuses
a name that resolves to a private address, which no pattern can say."""


class CreateWebhookRequestSchema(RequestSchema):
    url = fields.Str(required=True, metadata={"maxLength": URL_MAX, "pattern": PUBLIC_HTTPS, "description": (
        "https to a public address, or http to a host the operator allows (WEBHOOK_ALLOW_HOSTS; the pattern "
        "documents the public form); a name that resolves to a private or loopback address is refused")})
    secret = fields.Str(required=True, metadata={
        "minLength": SECRET_MIN, "maxLength": SECRET_MAX, "pattern": NO_NUL,
        "description": "signs every delivery (X-Signature); never answered back"})
    events = fields.List(fields.Str(validate=validate.OneOf(EVENT_TYPES), metadata={"maxLength": longest(EVENT_TYPES)}),
                         required=True, validate=validate.Length(min=1),
                         metadata={"description": "the event types to receive"})
    share = fields.List(fields.Str(validate=validate.OneOf(SHAREABLE), metadata={"maxLength": longest(SHAREABLE)}),
                        load_default=list,
                        metadata={"description": "the listener fields the events carry besides the originator"})


class DeliveriesArgsSchema(RequestSchema):
    failed = fields.Bool(load_default=False, truthy={"true"}, falsy={"false"},
                         metadata={"description": "true: only the deliveries that failed"})


class DeliverySchema(Schema):
    delivery_id = fields.Str()
    at = fields.Str(metadata={"description": "ISO 8601, UTC"})
    ok = fields.Bool(metadata={"description": "the receiver answered 2xx"})
    status = fields.Int(allow_none=True, metadata={"description": "the receiver's HTTP status; null: no answer"})
    latency_ms = fields.Int(allow_none=True)
    attempt = fields.Int(metadata={"description": "how many times these events had been sent, this one included"})
    error = fields.Str(allow_none=True)
    events = fields.Int(metadata={"description": "events in the batch"})
    types = fields.List(fields.Str())
    replay_of = fields.Str(allow_none=True, metadata={"description": "the delivery this one replays"})


class WebhookSchema(Schema):
    webhook_id = fields.Str()
    company_id = fields.Int()
    url = fields.Str()
    events = fields.List(fields.Str())
    share = fields.List(fields.Str(), metadata={"description": "the listener fields its events carry"})
    created_at = fields.Str(metadata={"description": "ISO 8601, UTC"})


class WebhookStateSchema(WebhookSchema):
    waiting = fields.Int(metadata={"description": "events queued, not yet delivered"})
    last_delivery = fields.Nested(DeliverySchema, allow_none=True)


class WebhookListSchema(Schema):
    company_id = fields.Int()
    webhooks = fields.List(fields.Nested(WebhookStateSchema), metadata={"description": "oldest first"})


class DeliveryLogSchema(WebhookStateSchema):
    deliveries = fields.List(fields.Nested(DeliverySchema), metadata={"description": "newest first, at most 100"})


class WebhookDeletedSchema(Schema):
    company_id = fields.Int()
    webhook_id = fields.Str()
    deleted = fields.Bool()


class QueuedSchema(Schema):
    webhook_id = fields.Str()
    queued = fields.Int(metadata={"description": "events queued for the worker to deliver"})
    type = fields.Str()
    replay_of = fields.Str()
