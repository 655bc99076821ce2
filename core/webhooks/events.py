"""The events a station's endpoints receive: one body per event and endpoint, queued in the outbox in the
endpoint's order, and a delivery job queued for the worker. Runs, audiences and alerts produce them through `emit`
and `queue_events`; nothing here sends anything."""
from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from core.clock import utcnow
from core.db import queue
from core.listeners import sealed_profiles
from core.listeners.fields import FLAGS, LISTED
from core.personal import originator_keys
from core.webhooks import outbox
from core.webhooks.models import WebhookBatch, WebhookEndpoint

EVENT_TYPES = ("listener.entered_segment", "listener.left_segment", "audience.members_changed", "alert.fired")
"""What an endpoint may subscribe to."""
TEST_EVENT = "webhook.test"
SHAREABLE = (*LISTED, "tags", *FLAGS)
"""The listener's exported fields a station may choose to share with an endpoint (never more)."""
DELIVER_JOB = "webhook"
BATCH = 200
"""Events per batch, and per POST: a batch is delivered whole or not at all."""


@dataclass(frozen=True)
class Event:
    """An event to queue: its type, data, and the listener it is about (None for a station's event)."""

    type: str
    data: dict = field(default_factory=dict)
    originator: str | None = None


def emit(company_id: int, event_type: str, data: dict, originator: str | None = None) -> int:
    """Queue one event for every endpoint of the station subscribed to its type; how many were queued."""
    return queue_events(company_id, [Event(event_type, data, originator)])


def subscribed(company_id: int, types: Iterable[str]) -> list[dict]:
    """The station's endpoints subscribed to any of these types, oldest first."""
    types = set(types)
    found = WebhookEndpoint._get_collection().find({"company_id": company_id})  # the index alone (core.db.quirks)
    return sorted((e for e in found if types & set(e.get("events") or ())), key=lambda e: e["created_at"])


def queue_events(company_id: int, events: list[Event], endpoints: list[dict] | None = None) -> int:
    """Queue the events for each subscribed endpoint (in bulk, in batches, in the given order) with the fields it
    shares, and ask a worker to deliver them; how many were queued."""
    endpoints = subscribed(company_id, {e.type for e in events}) if endpoints is None else endpoints
    queued = 0
    fields = _shared_fields(company_id, events, endpoints)
    for endpoint in endpoints:
        mine = [e for e in events if e.type in endpoint.get("events", ()) or e.type == TEST_EVENT]
        if mine:
            queued += _queue_for(endpoint, mine, fields)
    return queued


def _queue_for(endpoint: dict, events: list[Event], fields: dict[str, dict]) -> int:
    """Insert the endpoint's events as batches under a range of its sequence numbers, then queue its delivery job."""
    now = utcnow()
    created, shared = now.isoformat().replace("+00:00", "Z"), endpoint.get("shared_fields") or []
    named = sorted({event.originator for event in events if event.originator})
    keys = dict(zip(named, originator_keys.keys_of(endpoint["company_id"], named), strict=True))  # rows: by key
    rows = []
    for event in events:
        event_id = f"evt_{uuid.uuid4().hex}"
        data = {**event.data, **_picked(fields.get(event.originator), shared)}
        body = {"id": event_id, "type": event.type, "created_at": created, "company_id": endpoint["company_id"],
                "data": data}
        rows.append({"event_id": event_id, "type": event.type, "originator": keys.get(event.originator),
                     "body": json.dumps(body, separators=(",", ":"), default=str)})
    chunks = [rows[start:start + BATCH] for start in range(0, len(rows), BATCH)]
    first = take_seq(endpoint["webhook_id"], len(chunks))
    outbox.store([batch_document(endpoint, first + n, chunk, now) for n, chunk in enumerate(chunks)])
    schedule(endpoint["webhook_id"])
    return len(rows)


def batch_document(endpoint: dict, seq: int, rows: list[dict], now, replay_of: str | None = None) -> dict:
    """A batch of the endpoint's events as stored, waiting."""
    return {"company_id": endpoint["company_id"], "webhook_id": endpoint["webhook_id"], "seq": seq, "events": rows,
            "originators": sorted({r["originator"] for r in rows if r["originator"]}), "count": len(rows),
            "delivered": False, "attempts": 0, "created_at": now, "replay_of": replay_of}


def queued_events(webhook_id: str, delivered: bool | None = None) -> list[dict]:
    """The endpoint's stored events in its order (waiting ones only with delivered=False), each with `delivered`."""
    query = {"webhook_id": webhook_id, **({} if delivered is None else {"delivered": delivered})}
    batches = sorted(outbox.opened(list(WebhookBatch._get_collection().find(query))), key=lambda b: b["seq"])
    return [{**row, "delivered": b["delivered"]} for b in batches for row in b["events"]]


def schedule(webhook_id: str) -> None:
    """Ask a worker to deliver the endpoint's waiting events (merged with a job that already waits, which keeps
    its backoff: new events wait behind the ones that failed, in order)."""
    queue.enqueue(DELIVER_JOB, f"{DELIVER_JOB}:{webhook_id}", {"webhook_id": webhook_id})


def take_seq(webhook_id: str, count: int) -> int:
    """The first of `count` batch sequence numbers of the endpoint, reserved atomically (several processes queue)."""
    doc = WebhookEndpoint._get_collection().find_one_and_update(
        {"webhook_id": webhook_id}, {"$inc": {"next_seq": count}}, projection={"next_seq": 1})
    return int((doc or {}).get("next_seq") or 0)


def _shared_fields(company_id: int, events: list[Event], endpoints: list[dict]) -> dict[str, dict]:
    """The listeners' fields that any endpoint shares, read once for every event that names a listener: whole
    documents, by their keys, since a projection costs the embedded database more than it saves (core.db.quirks)."""
    wanted = sorted({name for e in endpoints for name in e.get("shared_fields") or () if name in SHAREABLE})
    originators = sorted({e.originator for e in events if e.originator})
    if not wanted or not originators:
        return {}
    return {doc["originator"]: {name: doc.get(name) for name in wanted}
            for doc in sealed_profiles.read(company_id, originators)}


def _picked(doc: dict | None, shared: list[str]) -> dict:
    """The fields this endpoint shares, from the listener's document (nothing when there is none)."""
    if not doc or not shared:
        return {}
    return {name: doc.get(name) for name in shared if name in SHAREABLE}
