"""Delivery by the worker: an endpoint's waiting events, oldest first, posted in signed batches by one worker at a
time (a lease per endpoint keeps its order, and so each listener's); every POST logged with its status, latency,
attempt and error. A failed batch fails the job, which the queue tries again with a backoff of over a day; the
events wait, in order, meanwhile (at least once: the receiver tells a repeat by the event's id)."""
from __future__ import annotations

import http.client
import socket
import time
import uuid
from datetime import timedelta
from urllib.parse import urlsplit

from core.clock import utcnow
from core.db.leases import lease
from core.errors import Conflict
from core.outbound import tls_context
from core.webhooks import outbox
from core.webhooks.events import BATCH
from core.webhooks.failures import answer_in_words, failure_in_words
from core.webhooks.models import WebhookBatch, WebhookDelivery, WebhookEndpoint
from core.webhooks.signing import HEADER, signature
from core.webhooks.urls import UrlRefused, resolve_for_delivery

TIMEOUT_S = 10.0
"""The longest a receiver may take to answer a POST; longer is a failure, tried again later."""
BACKOFF_S = (30, 60, 120, 300, 600, 1200, 2400, 3600, 7200, 14400)
"""Waits before each further attempt of an endpoint's deliveries (the last repeats)..."""
LOOK_AHEAD = 10
"""Batches read at a time from the endpoint's next one (200 events each: at most one POST needs more)."""
ATTEMPTS = 16
"""...for this many attempts: 28 hours from the first failure before the job gives up (the events stay queued and
the next event of the endpoint starts again)."""


class DeliveryFailed(Exception):
    """The receiver did not take a batch (refused, failed, timed out or unreachable)."""


def deliver_job(payload: dict) -> int:
    """What a worker does with a delivery job: every waiting event of the endpoint; how many were delivered."""
    endpoint = WebhookEndpoint._get_collection().find_one({"webhook_id": payload["webhook_id"]})
    if endpoint is None:
        return 0  # deleted meanwhile, its events with it
    try:
        with lease(f"webhook:{endpoint['webhook_id']}", ttl=timedelta(minutes=15), wait_s=0):
            return deliver_waiting(endpoint)
    except Conflict:
        raise DeliveryFailed("another worker is delivering to this endpoint") from None


def deliver_waiting(endpoint: dict) -> int:
    """Post the endpoint's waiting events in order, up to BATCH a POST, until none wait; DeliveryFailed at the first
    POST the receiver does not take."""
    delivered, unread = 0, 0
    while read := _next_batches(endpoint):
        batches = outbox.opened(read)
        if len(batches) < len(read):  # an erasure wrote some again since they were read: read them again
            unread += 1
            if unread < 3:
                continue
            raise DeliveryFailed("some queued events could not be opened (their key is gone)")
        unread = 0
        delivery = post_batches(endpoint, batches)
        if not delivery["ok"]:
            raise DeliveryFailed(delivery["error"])
        delivered += delivery["events"]
        endpoint["next_delivery"] = batches[-1]["seq"] + 1
        WebhookEndpoint._get_collection().update_one({"webhook_id": endpoint["webhook_id"]},
                                                     {"$set": {"next_delivery": endpoint["next_delivery"]}})
    return delivered


def _next_batches(endpoint: dict) -> list[dict]:
    """The oldest waiting batches, as many as make at most BATCH events together (at least one). Batches are
    delivered in their order, so those waiting start at the endpoint's `next_delivery`: a few are read from there
    by the (webhook_id, seq) index, not every waiting one each time (a sorted find reads its whole match on the
    embedded database); a gap left by erasure falls back to reading them all."""
    batches = WebhookBatch._get_collection()
    start = int(endpoint.get("next_delivery") or 0)
    near = list(batches.find({"webhook_id": endpoint["webhook_id"], "seq": {"$gte": start, "$lt": start + LOOK_AHEAD}}))
    waiting = [b for b in near if not b["delivered"]] or list(
        batches.find({"webhook_id": endpoint["webhook_id"], "delivered": False}))
    taken, size = [], 0
    for batch in sorted(waiting, key=lambda b: b["seq"]):
        if taken and size + batch["count"] > BATCH:
            break
        taken.append(batch)
        size += batch["count"]
    return taken


def post_batches(endpoint: dict, batches: list[dict]) -> dict:
    """POST these batches' events as one signed body, log the delivery and mark them delivered when the receiver
    took them; the delivery as logged (with `events`, how many it carried)."""
    events = [row for batch in batches for row in batch["events"]]
    body = ('{"events":[' + ",".join(row["body"] for row in events) + "]}").encode()
    delivery_id = f"dlv_{uuid.uuid4().hex}"
    status, error, latency_ms = send(endpoint, body, delivery_id)
    ok, now = error is None, utcnow()
    update = {"$inc": {"attempts": 1}, **({"$set": {"delivered": True, "delivered_at": now}} if ok else {})}
    WebhookBatch._get_collection().update_many({"_id": {"$in": [b["_id"] for b in batches]}}, update)
    doc = {"company_id": endpoint["company_id"], "webhook_id": endpoint["webhook_id"], "delivery_id": delivery_id,
           "event_ids": [row["event_id"] for row in events], "types": sorted({row["type"] for row in events}),
           "status": status, "ok": ok, "latency_ms": latency_ms, "error": error, "at": now,
           "attempt": max(b.get("attempts", 0) for b in batches) + 1,
           "replay_of": next((b["replay_of"] for b in batches if b.get("replay_of")), None)}
    WebhookDelivery._get_collection().insert_one(dict(doc))
    return {**doc, "events": len(events)}


def send(endpoint: dict, body: bytes, delivery_id: str) -> tuple[int | None, str | None, int]:
    """(HTTP status or None, what went wrong in words or None, milliseconds) of one signed POST to the endpoint,
    connected to the address checked just before (a name that now resolves to a private address is refused)."""
    started = time.perf_counter()
    try:
        scheme, host, port, address = resolve_for_delivery(endpoint["url"])
        connection = _connection(scheme, host, port, address)
        headers = {"Content-Type": "application/json", "User-Agent": "listener-segmentation-webhooks/1",
                   HEADER: signature(endpoint["secret"], body, int(utcnow().timestamp())), "X-Delivery-Id": delivery_id}
        try:
            connection.request("POST", _path(endpoint["url"]), body=body, headers=headers)
            status = connection.getresponse().status
        finally:
            connection.close()
    except UrlRefused as refused:
        return None, f"refused before sending: {refused.items[0]['msg']}", _ms(started)
    except (OSError, http.client.HTTPException) as failure:  # TimeoutError and socket.gaierror among them
        return None, failure_in_words(failure, endpoint["url"], TIMEOUT_S), _ms(started)
    return status, answer_in_words(status), _ms(started)


def _ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


def _path(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


class _Pinned(http.client.HTTPConnection):
    """A plain connection to the address checked, whatever the name resolves to by the time it connects."""

    def __init__(self, host: str, port: int, address: str):
        super().__init__(host, port, timeout=TIMEOUT_S)
        self.address = address

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTls(http.client.HTTPSConnection):
    """A TLS connection to the address checked, its certificate checked against the URL's host name."""

    def __init__(self, host: str, port: int, address: str):
        super().__init__(host, port, timeout=TIMEOUT_S, context=tls_context())
        self.address = address

    def connect(self):
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _connection(scheme: str, host: str, port: int, address: str) -> http.client.HTTPConnection:
    return (_PinnedTls if scheme == "https" else _Pinned)(host, port, address)

