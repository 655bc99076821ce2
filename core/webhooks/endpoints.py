"""A station's endpoints: added (URL checked, secret kept and never shown again), listed, removed with their queued
events; their delivery log; a delivery replayed and a test event sent, both through the worker's queue."""
from __future__ import annotations

import secrets

from core.clock import as_utc, utcnow
from core.errors import Conflict, NotFound, ValidationFailed
from core.stations.companies import get_company
from core.webhooks.events import EVENT_TYPES, SHAREABLE, TEST_EVENT, Event, queue_events, schedule, take_seq
from core.webhooks.models import WebhookDelivery, WebhookEndpoint, WebhookEvent
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
    WebhookEndpoint._get_collection().delete_one({"company_id": company_id, "webhook_id": webhook_id})
    for document in (WebhookEvent, WebhookDelivery):
        document._get_collection().delete_many({"company_id": company_id, "webhook_id": webhook_id})
    return {"company_id": company_id, "webhook_id": webhook_id, "deleted": True}


def list_deliveries(company_id: int, webhook_id: str, failed_only: bool = False, limit: int = LOG_LIMIT) -> dict:
    """The endpoint's latest deliveries, newest first (only the failed ones when asked)."""
    endpoint = _find(company_id, webhook_id)
    query = {"webhook_id": webhook_id, **({"ok": False} if failed_only else {})}
    docs = WebhookDelivery._get_collection().find(query, sort=[("at", -1)], limit=limit)
    return {**shown(endpoint, with_state=True), "deliveries": [delivery_shown(d) for d in docs]}


def replay_delivery(company_id: int, webhook_id: str, delivery_id: str) -> dict:
    """Queue the events of one delivery again, each with its own id (the receiver sees a repeat); how many."""
    endpoint = _find(company_id, webhook_id)
    delivery = WebhookDelivery._get_collection().find_one({"webhook_id": webhook_id, "delivery_id": delivery_id})
    if delivery is None:
        raise WebhookNotFound("Delivery not found")
    kept = {e["event_id"]: e for e in WebhookEvent._get_collection().find(
        {"webhook_id": webhook_id, "event_id": {"$in": delivery["event_ids"]}, "replay_of": None})}
    events = [kept[i] for i in delivery["event_ids"] if i in kept]
    if not events:
        raise Conflict("The events of this delivery are no longer kept (30 days, or erased), so it cannot be replayed.")
    first, now = take_seq(webhook_id, len(events)), utcnow()
    WebhookEvent._get_collection().insert_many([
        {**{k: e[k] for k in ("company_id", "webhook_id", "event_id", "type", "originator", "body")},
         "seq": first + n, "delivered": False, "attempts": 0, "created_at": now, "replay_of": delivery_id}
        for n, e in enumerate(events)])
    schedule(endpoint["webhook_id"])
    return {"webhook_id": webhook_id, "replay_of": delivery_id, "queued": len(events)}


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
        out["waiting"] = WebhookEvent._get_collection().count_documents({"webhook_id": doc["webhook_id"],
                                                                          "delivered": False})
        last = WebhookDelivery._get_collection().find_one({"webhook_id": doc["webhook_id"]}, sort=[("at", -1)])
        out["last_delivery"] = delivery_shown(last) if last else None
    return out


def delivery_shown(doc: dict) -> dict:
    """A delivery as the log shows it."""
    return {"delivery_id": doc["delivery_id"], "at": as_utc(doc["at"]).isoformat(), "ok": bool(doc["ok"]),
            "status": doc.get("status"), "latency_ms": doc.get("latency_ms"), "attempt": doc.get("attempt", 1),
            "error": doc.get("error"), "events": len(doc.get("event_ids") or []), "types": doc.get("types") or [],
            "replay_of": doc.get("replay_of")}


def _find(company_id: int, webhook_id: str) -> dict:
    doc = WebhookEndpoint._get_collection().find_one({"company_id": company_id, "webhook_id": webhook_id})
    if doc is None:
        raise WebhookNotFound()
    return doc


def _checked(url: str, secret: str, events: list[str], share: list[str]) -> None:
    """Every problem of the endpoint asked for, refused before anything is saved."""
    if not url or len(url) > URL_MAX:
        raise ValidationFailed.one(["json", "url"], f"Give an https URL of at most {URL_MAX} characters.")
    if not SECRET_MIN <= len(secret or "") <= SECRET_MAX:
        raise ValidationFailed.one(["json", "secret"], f"Give a secret of {SECRET_MIN} to {SECRET_MAX} characters; "
                                   "it signs every delivery.")
    unknown = [e for e in events if e not in EVENT_TYPES]
    if not events or unknown:
        raise ValidationFailed.one(["json", "events"], "Choose one or more of: " + ", ".join(EVENT_TYPES) + ".")
    if [f for f in share if f not in SHAREABLE]:
        raise ValidationFailed.one(["json", "share"], "Share only these fields: " + ", ".join(SHAREABLE) + ".")
    check_url(url)
