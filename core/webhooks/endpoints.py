"""A station's endpoints: added (URL checked, secret kept and never shown again), listed, removed with their queued
events; their delivery log; a delivery replayed and a test event sent, both through the worker's queue."""
from __future__ import annotations

import secrets

from core.clock import as_utc, utcnow
from core.db import queue
from core.errors import Conflict, NotFound, ValidationFailed
from core.stations.companies import get_company
from core.webhooks import outbox
from core.webhooks.events import (
    DELIVER_JOB,
    EVENT_TYPES,
    SHAREABLE,
    TEST_EVENT,
    Event,
    batch_document,
    queue_events,
    schedule,
    take_seq,
)
from core.webhooks.models import WebhookBatch, WebhookDelivery, WebhookEndpoint
from core.webhooks.urls import check_url

MAX_ENDPOINTS = 10
SECRET_MIN, SECRET_MAX, URL_MAX = 16, 200, 2000
LOG_LIMIT = 100


class WebhookNotFound(NotFound):
    """An endpoint (or delivery) unknown to the station; another station's id is unknown too."""

    def __init__(self, detail: str = "Webhook not found"):
        super().__init__(detail)


def add_endpoint(company_id: int, url: str, secret: str, events: list[str], share: list[str] = ()) -> dict:
    """Save an endpoint for the chosen events and shared fields; the endpoint as listed (without its secret)."""
    get_company(company_id)
    _checked(url, secret, events, share)
    if WebhookEndpoint.objects(company_id=company_id).count() >= MAX_ENDPOINTS:
        raise Conflict(f"A station keeps at most {MAX_ENDPOINTS} webhooks; remove one first.")
    endpoint = WebhookEndpoint(company_id=company_id, webhook_id=f"wh_{secrets.token_urlsafe(9)}", url=url.strip(),
                               secret=secret, events=list(dict.fromkeys(events)),
                               shared_fields=list(dict.fromkeys(share)), created_at=utcnow())
    endpoint.save()
    return shown(endpoint.to_mongo().to_dict())


def list_endpoints(company_id: int) -> dict:
    """The station's endpoints, oldest first, each with its latest delivery and how many events wait."""
    get_company(company_id)
    docs = WebhookEndpoint._get_collection().find({"company_id": company_id}, sort=[("created_at", 1)])
    return {"company_id": company_id, "webhooks": [shown(doc, with_state=True) for doc in docs]}


def delete_endpoint(company_id: int, webhook_id: str) -> dict:
    """Remove the endpoint, its queued events and its log."""
    _find(company_id, webhook_id)
    WebhookEndpoint._get_collection().delete_one({"webhook_id": webhook_id})
    for document in (WebhookBatch, WebhookDelivery):
        document._get_collection().delete_many({"webhook_id": webhook_id})
    return {"company_id": company_id, "webhook_id": webhook_id, "deleted": True}


def list_deliveries(company_id: int, webhook_id: str, failed_only: bool = False, limit: int = LOG_LIMIT) -> dict:
    """The endpoint's latest deliveries, newest first (only the failed ones when asked)."""
    endpoint = _find(company_id, webhook_id)
    docs = sorted(WebhookDelivery._get_collection().find({"webhook_id": webhook_id}), key=lambda d: d["at"],
                  reverse=True)
    shown_docs = [delivery_shown(d) for d in docs if not (failed_only and d["ok"])][:limit]
    return {**shown(endpoint, with_state=True), "deliveries": shown_docs}


def replay_delivery(company_id: int, webhook_id: str, delivery_id: str) -> dict:
    """Send one delivery's events again, with their ids (the receiver sees a repeat): those delivered since are
    queued again, those still waiting are tried now rather than after their backoff; how many."""
    endpoint = _find(company_id, webhook_id)
    delivery = WebhookDelivery._get_collection().find_one({"delivery_id": delivery_id})  # the unique index alone
    if delivery is None or delivery["webhook_id"] != webhook_id:
        raise WebhookNotFound("Delivery not found")
    wanted, stored = set(delivery["event_ids"]), {}
    for batch in outbox.opened(list(WebhookBatch._get_collection().find({"webhook_id": webhook_id}))):
        for row in batch["events"]:
            if row["event_id"] in wanted and not batch.get("replay_of"):
                stored[row["event_id"]] = (row, batch["delivered"])
    if not stored:
        raise Conflict("The events of this delivery are no longer kept (30 days, or erased), so it cannot be replayed.")
    again = [stored[i][0] for i in delivery["event_ids"] if i in stored and stored[i][1]]
    if again:  # delivered once: sent again, after whatever waits
        outbox.store([batch_document(endpoint, take_seq(webhook_id, 1), again, utcnow(), replay_of=delivery_id)])
    if not queue.hurry(DELIVER_JOB, f"{DELIVER_JOB}:{webhook_id}"):  # still waiting: its retry is now
        schedule(webhook_id)
    return {"webhook_id": webhook_id, "replay_of": delivery_id, "queued": len(stored)}


def send_test(company_id: int, webhook_id: str) -> dict:
    """Queue a sample event for this endpoint alone (type webhook.test), delivered like any other."""
    endpoint = _find(company_id, webhook_id)
    data = {"message": "A test event from the listener segmentation service.", "originator": None,
            "from_segment": "casual", "to_segment": "loyal"}
    queued = queue_events(company_id, [Event(TEST_EVENT, data)], endpoints=[endpoint])
    return {"webhook_id": webhook_id, "type": TEST_EVENT, "queued": queued}


def shown(doc: dict, with_state: bool = False) -> dict:
    """An endpoint as answers show it: never its secret."""
    out = {"webhook_id": doc["webhook_id"], "company_id": doc["company_id"], "url": doc["url"],
           "events": list(doc.get("events") or []), "share": list(doc.get("shared_fields") or []),
           "created_at": as_utc(doc["created_at"]).isoformat()}
    if with_state:
        out["waiting"] = sum(b["count"] for b in WebhookBatch._get_collection().find(
            {"webhook_id": doc["webhook_id"], "delivered": False}))
        log = list(WebhookDelivery._get_collection().find({"webhook_id": doc["webhook_id"]}))
        out["last_delivery"] = delivery_shown(max(log, key=lambda d: d["at"])) if log else None
    return out


def delivery_shown(doc: dict) -> dict:
    """A delivery as the log shows it."""
    return {"delivery_id": doc["delivery_id"], "at": as_utc(doc["at"]).isoformat(), "ok": bool(doc["ok"]),
            "status": doc.get("status"), "latency_ms": doc.get("latency_ms"), "attempt": doc.get("attempt", 1),
            "error": doc.get("error"), "events": len(doc.get("event_ids") or []), "types": doc.get("types") or [],
            "replay_of": doc.get("replay_of")}


def _find(company_id: int, webhook_id: str) -> dict:
    doc = WebhookEndpoint._get_collection().find_one({"webhook_id": webhook_id})  # the unique index alone
    if doc is None or doc["company_id"] != company_id:
        raise WebhookNotFound()
    return doc


def _checked(url: str, secret: str, events: list[str], share: list[str]) -> None:
    """Every problem of the endpoint asked for, refused before anything is saved."""
    if not url or len(url) > URL_MAX:
        raise ValidationFailed.one(["body", "url"], f"Give an https URL of at most {URL_MAX} characters.")
    if not SECRET_MIN <= len(secret or "") <= SECRET_MAX:
        raise ValidationFailed.one(["body", "secret"], f"Give a secret of {SECRET_MIN} to {SECRET_MAX} characters; "
                                   "it signs every delivery.")
    unknown = [e for e in events if e not in EVENT_TYPES]
    if not events or unknown:
        raise ValidationFailed.one(["body", "events"], "Choose one or more of: " + ", ".join(EVENT_TYPES) + ".")
    if [f for f in share if f not in SHAREABLE]:
        raise ValidationFailed.one(["body", "share"], "Share only these fields: " + ", ".join(SHAREABLE) + ".")
    check_url(url)
