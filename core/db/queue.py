"""A durable queue of background jobs in MongoDB, worked by `flask --app wsgi worker` processes on any host.

Web requests and CLI commands never do long work themselves: they `enqueue` it (embedding the listeners a run
touched, later deliveries and history rebuilds), and return. A worker `claim`s the oldest job that is due under a
lease it renews while it works (`renew`), short kinds first: a `long` kind (a station's embedding, minutes) waits
while a due short one (a history rebuild of seconds) would otherwise wait minutes behind it. A worker that dies
stops renewing, its lease runs out, and another worker takes the job over. A job that fails is tried again later,
waiting longer each time, up to its kind's attempts. A failure is kept as its exception's type and words with every
number and e-mail address replaced (`failure_of`): what a station sent is personal, and an exception may repeat it.

Jobs of one kind and key are merged while they wait (`merge` says how: embedding asks for the union of the
listeners), so a burst of live batches queues one job, not one per batch. Kinds are registered by the packages
that own the work (core.service.worker registers them at start-up), so this module knows none of them.
"""
from __future__ import annotations

import os
import re
import secrets
import socket
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from mongoengine import BooleanField, DateTimeField, DictField, Document, IntField, StringField
from pymongo import ReturnDocument

from core.clock import utcnow
from core.config import active
from core.db.documents import stored
from core.logs import current_request_id

KEEP_DONE = timedelta(days=7)
"""How long finished jobs stay readable (for /metrics and the people on call), then MongoDB deletes them."""
BACKOFF_S = (30, 120, 600, 1800, 3600)
"""Waits before the 2nd, 3rd, ... attempt of a failed job (the last repeats)."""
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*")
"""An e-mail address, or what is left of one cut short ("zq.probe77@exam…", as ListenerNotFound shows it)."""
NUMBER = re.compile(r"\+?\d(?:[\s\-.()/]*\d){5,}")
"""Six digits or more, however spaced, dashed, dotted or bracketed, with or without a leading `+`: any spelling of
a phone number (and of an ID number, an interaction id that embeds one, a date: all are let go)."""
KEEP_ERROR = 500  # characters of a failure kept


@stored
class Job(Document):
    """A unit of background work: its kind, key (what merges it with another), payload, state and lease."""

    kind = StringField(required=True)
    key = StringField(required=True)
    payload = DictField()
    state = StringField(required=True, choices=("queued", "running", "done", "failed"))
    attempts = IntField(default=0)
    run_after = DateTimeField(required=True)
    lease_until = DateTimeField()
    started_at = DateTimeField()  # of the latest attempt
    owner = StringField()
    error = StringField()  # `failure_of` the exception: never a number or an e-mail address
    created_at = DateTimeField(required=True)
    finished_at = DateTimeField()
    request_id = StringField()  # the request that asked for it, carried into the worker's logs
    long = BooleanField(default=False)  # its kind's, so that a claim takes due short jobs first
    meta = {"collection": "jobs", "indexes": [
        ("state", "run_after"), ("kind", "key", "state"),
        {"fields": ["finished_at"], "expireAfterSeconds": int(KEEP_DONE.total_seconds())}]}


@dataclass(frozen=True)
class Kind:
    """How a kind of job is worked: its handler (given the payload), how two waiting payloads merge, how many
    attempts it gets, the waits before its 2nd, 3rd, ... attempt (the last repeats), and whether it is `long`
    (minutes: claimed only when no short job is due)."""

    run: Callable[[dict], object]
    merge: Callable[[dict, dict], dict] = lambda waiting, new: new
    attempts: int = 5
    backoff_s: tuple[int, ...] = BACKOFF_S
    long: bool = False


_kinds: dict[str, Kind] = {}


def register(name: str, kind: Kind) -> None:
    """Say how jobs of `name` are worked (at start-up, by the package that owns the work)."""
    _kinds[name] = kind


def kinds() -> dict[str, Kind]:
    """Every registered kind."""
    return dict(_kinds)


def lease_length() -> timedelta:
    """How long a claim stands without renewal (JOB_LEASE_S, 2 minutes by default): the longest a dead worker's job
    waits for another worker."""
    return timedelta(seconds=active().job_lease_s)


def _jobs():
    return Job._get_collection()


def enqueue(name: str, key: str, payload: dict, request_id: str | None = None,
            now: datetime | None = None) -> None:
    """Queue a job, or merge it into the one of this kind and key that waits (never into one being worked)."""
    now = now or utcnow()
    kind = _kinds.get(name) or Kind(run=lambda payload: None)
    waiting = _jobs().find_one({"kind": name, "key": key, "state": "queued"}, {"payload": 1})
    if waiting is not None:
        merged = kind.merge(waiting.get("payload") or {}, payload)
        if _jobs().update_one({"_id": waiting["_id"], "state": "queued"}, {"$set": {"payload": merged}}).matched_count:
            return  # merged (or already asking for as much); a job claimed meanwhile is left alone
    _jobs().insert_one({"kind": name, "key": key, "payload": payload, "state": "queued", "attempts": 0,
                        "long": kind.long, "run_after": now, "created_at": now,
                        "request_id": request_id or current_request_id.get()})


def hurry(name: str, key: str, now: datetime | None = None) -> bool:
    """Make the waiting job of this kind and key due now, its backoff cut short (a person asked for it again);
    False when none waits."""
    return bool(_jobs().update_one({"kind": name, "key": key, "state": "queued"},
                                   {"$set": {"run_after": now or utcnow()}}).modified_count)


def claim(worker: str, names: list[str] | None = None, now: datetime | None = None) -> dict | None:
    """The oldest due short job, else the oldest due long one (queued, or running under a lease that ran out), now
    held by `worker`; None if none is due."""
    now = now or utcnow()
    kinds_asked = {"kind": {"$in": names}} if names is not None else {}
    due = {"$or": [{"state": "queued", "run_after": {"$lte": now}},
                   {"state": "running", "lease_until": {"$lt": now}}], **kinds_asked}
    return _jobs().find_one_and_update(
        due, {"$set": {"state": "running", "owner": worker, "lease_until": now + lease_length(), "started_at": now},
              "$inc": {"attempts": 1}},
        sort=[("long", 1), ("run_after", 1)], return_document=ReturnDocument.AFTER)


def renew(job: dict, now: datetime | None = None) -> bool:
    """Extend the claim while working; False when another worker took the job over meanwhile."""
    now = now or utcnow()
    return bool(_jobs().update_one({"_id": job["_id"], "owner": job["owner"], "state": "running"},
                                   {"$set": {"lease_until": now + lease_length()}}).modified_count)


def without_values(text: str) -> str:
    """The text with every e-mail address and every run of six digits or more (in any phone number's spelling)
    replaced by a placeholder."""
    return NUMBER.sub("<number>", EMAIL.sub("<e-mail>", text))


def failure_of(failure: BaseException) -> str:
    """An exception as a job record and a log line keep it: its type and its words without values."""
    return f"{type(failure).__name__}: {without_values(str(failure))}"[:KEEP_ERROR]


def trace_of(failure: BaseException, frames: int = 4) -> str:
    """The innermost lines of code the exception passed through (module:function:line), which hold no value."""
    stack = traceback.extract_tb(failure.__traceback__)[-frames:]
    return " < ".join(f"{os.path.basename(f.filename)}:{f.name}:{f.lineno}" for f in reversed(stack))


def traceback_of(failure: BaseException) -> str:
    """The exception's traceback as its code lines alone (file, line, function, source line), without its words,
    which may repeat a listener's value: for a DEBUG line."""
    return "".join(traceback.format_tb(failure.__traceback__)) + type(failure).__name__


def finish(job: dict, error: str | None = None, now: datetime | None = None) -> str:
    """Mark the job done, or failed: queued again after a growing wait while attempts remain (the error kept
    without the values it may repeat). Its new state."""
    now = now or utcnow()
    error = None if error is None else without_values(error)[:KEEP_ERROR]
    kind = _kinds.get(job["kind"])
    allowed, backoff = (kind.attempts, kind.backoff_s) if kind else (1, BACKOFF_S)
    if error is None:
        update = {"state": "done", "finished_at": now, "error": None}
    elif job["attempts"] < allowed:
        wait = backoff[min(job["attempts"] - 1, len(backoff) - 1)]
        update = {"state": "queued", "run_after": now + timedelta(seconds=wait), "error": error}
    else:
        update = {"state": "failed", "finished_at": now, "error": error}
    _jobs().update_one({"_id": job["_id"], "owner": job["owner"]}, {"$set": {**update, "lease_until": None}})
    return update["state"]


def release(job: dict) -> None:
    """Give a claimed job back untouched (a worker stopping before it began): the next worker takes it at once."""
    _jobs().update_one({"_id": job["_id"], "owner": job["owner"], "state": "running"},
                       {"$set": {"state": "queued", "lease_until": None}, "$inc": {"attempts": -1}})


def depth() -> dict[str, int]:
    """Jobs waiting per kind (for /metrics)."""
    return {row["_id"]: row["n"] for row in _jobs().aggregate([
        {"$match": {"state": "queued"}}, {"$group": {"_id": "$kind", "n": {"$sum": 1}}}])}


def worker_name() -> str:
    """A name for this worker process, unique across hosts."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
