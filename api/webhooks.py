"""Webhooks: /api/v1/webhooks/{company_id}, the station's endpoints for segment events (added, listed, removed),
each one's delivery log, a delivery replayed and a test event sent (both delivered by the worker)."""
from __future__ import annotations

from flask.views import MethodView

from api.arguments import Blueprint
from api.webhook_schemas import (
    CreateWebhookRequestSchema,
    DeliveriesArgsSchema,
    DeliveryLogSchema,
    QueuedSchema,
    WebhookDeletedSchema,
    WebhookListSchema,
    WebhookSchema,
)
from core.webhooks.endpoints import (
    add_endpoint,
    delete_endpoint,
    list_deliveries,
    list_endpoints,
    replay_delivery,
    send_test,
)

blp = Blueprint("webhook_endpoints", __name__, url_prefix="/api/v1/webhooks",
                description="Webhooks: segment events sent, signed, to the station's other systems")


@blp.route("/<company:company_id>")
class Webhooks(MethodView):
    @blp.response(200, WebhookListSchema)
    def get(self, company_id: int):
        """The station's webhook endpoints, with how many events wait and the latest delivery"""
        return list_endpoints(company_id)

    @blp.arguments(CreateWebhookRequestSchema)
    @blp.response(200, WebhookSchema)
    @blp.alt_response(409, response="CONFLICT", description="the station has as many webhooks as it may keep")
    def post(self, body: dict, company_id: int):
        """Add a webhook endpoint for the chosen events; its secret signs every delivery and is never answered"""
        return add_endpoint(company_id, body["url"], body["secret"], body["events"], body["share"])


@blp.route("/<company:company_id>/<webhook_id>")
class Webhook(MethodView):
    @blp.response(200, WebhookDeletedSchema)
    def delete(self, company_id: int, webhook_id: str):
        """Remove a webhook endpoint with its queued events and its log"""
        return delete_endpoint(company_id, webhook_id)


@blp.route("/<company:company_id>/<webhook_id>/deliveries")
class Deliveries(MethodView):
    @blp.arguments(DeliveriesArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, DeliveryLogSchema)
    def get(self, args: dict, company_id: int, webhook_id: str):
        """The endpoint's latest deliveries: status, latency, attempt and error of each POST"""
        return list_deliveries(company_id, webhook_id, failed_only=args["failed"])


@blp.route("/<company:company_id>/<webhook_id>/deliveries/<delivery_id>/replay")
class Replay(MethodView):
    @blp.response(200, QueuedSchema)
    @blp.alt_response(409, response="CONFLICT", description="the delivery's events are no longer kept")
    def post(self, company_id: int, webhook_id: str, delivery_id: str):
        """Send one delivery's events again, with their ids (the receiver sees a repeat)"""
        return replay_delivery(company_id, webhook_id, delivery_id)


@blp.route("/<company:company_id>/<webhook_id>/test")
class Test(MethodView):
    @blp.response(200, QueuedSchema)
    def post(self, company_id: int, webhook_id: str):
        """Send a sample event (webhook.test) to this endpoint"""
        return send_test(company_id, webhook_id)
