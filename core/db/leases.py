"""Lease locks in MongoDB, held across processes and hosts: two runs that rewrite one company's snapshot never
interleave, and concurrent requests for one paid answer share one computation and one charge (single_flight)."""
from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TypeVar

from pymongo.errors import DuplicateKeyError, PyMongoError

from core.clock import utcnow
from core.config import active
from core.db.connection import get_db
from core.errors import Conflict

log = logging.getLogger(__name__)
T = TypeVar("T")
FLIGHT_TTL = timedelta(minutes=10)
"""How long a claim of a computation stands when its holder dies without giving it back."""
FLIGHT_WAIT_S = 300
"""How long a request waits for another one's computation of the same answer (an AI provider may take minutes)."""


@contextmanager
def lease(name: str, ttl: timedelta = timedelta(minutes=30), wait_s: float = 600, busy: str | None = None):
    """Hold the named lock for the block, renewed every third of ttl while the block runs, so that a holder is never
    overtaken however long it works, and a lease not renewed for ttl is taken over (its holder died). After wait_s,
    Conflict with `busy` (or a sentence naming the lock)."""
    col, token = get_db()["locks"], secrets.token_hex(8)
    deadline = time.monotonic() + wait_s
    while not _try_acquire(col, name, token, ttl):
        if time.monotonic() > deadline:
            raise Conflict(busy or f"{name} is busy: another run holds it")
        time.sleep(0.2)
    done = threading.Event()
    renewing = threading.Thread(target=_renew, args=(col, name, token, ttl, done), daemon=True,
                                name=f"lease-{name}")
    renewing.start()
    try:
        yield
    finally:
        done.set()
        renewing.join()
        col.delete_one({"_id": name, "owner": token})


def _renew(col, name: str, token: str, ttl: timedelta, done: threading.Event) -> None:
    """Push the lease's end on while its holder works (a renewal the database misses is tried again next time)."""
    while not done.wait(ttl.total_seconds() / 3):
        try:
            col.update_one({"_id": name, "owner": token}, {"$set": {"until": utcnow() + ttl}})
        except PyMongoError:
            log.warning("could not renew the lease %s; trying again", name)


def _try_acquire(col, name: str, token: str, ttl: timedelta) -> bool:
    now = utcnow()
    try:
        col.insert_one({"_id": name, "owner": token, "until": now + ttl})
        return True
    except DuplicateKeyError:
        taken = col.find_one_and_update({"_id": name, "until": {"$lt": now}},
                                        {"$set": {"owner": token, "until": now + ttl}})
        return taken is not None


def try_lease(name: str, ttl: timedelta) -> str | None:
    """Take the named lock now if it is free (or its holder died); its token, None when someone holds it. For work
    that must not wait, such as a run a producer asks for while another one runs."""
    token = secrets.token_hex(8)
    return token if _try_acquire(get_db()["locks"], name, token, ttl) else None


def release(name: str, token: str) -> None:
    """Give the lock back, only if `token` still holds it."""
    get_db()["locks"].delete_one({"_id": name, "owner": token})


@contextmanager
def single_flight(name: str, look: Callable[[], T | None]) -> Iterator[T | None]:
    """What `look` finds (a cached answer), or None to a single caller at a time, across every process and host,
    which makes the answer within the block while the others wait for it and then find it:

        with single_flight(f"profile:{company_id}:{originator}", lambda: cached(...)) as found:
            if found is None:
                return make_and_pay()  # one caller, one charge
        return found  # made by another caller, or long ago

    A cached answer costs one look, no claim. A caller that fails gives the claim back; the next waiter looks,
    finds nothing and makes it.
    """
    found = look()
    if found is not None:
        yield found
        return
    busy = "Another request is still making this answer; ask again in a minute, when it will be served from the cache."
    with lease(f"single-flight:{_keyed(name)}", FLIGHT_TTL, FLIGHT_WAIT_S, busy):
        yield look()


def _keyed(name: str) -> str:
    """A single flight's lock id, which lives in the oplog and in backups: a keyed hash of its name, because a name
    says whose answer it makes (`ai_listener_profile:1:27829990001`). Keyed by the server secret, so a copy of the
    database cannot confirm a guessed number (core.personal.keyed, a layer above, keys what a station sends us the
    same way)."""
    key = hashlib.sha256(b"lock names:" + active().secret_key.encode()).digest()
    return hashlib.blake2b(name.encode(), key=key, digest_size=16).hexdigest()
