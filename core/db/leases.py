"""A lease lock in MongoDB, so that two runs that rewrite one company's snapshot never interleave."""
from __future__ import annotations

import secrets
import time
from contextlib import contextmanager
from datetime import timedelta

from pymongo.errors import DuplicateKeyError

from core.clock import utcnow
from core.db.connection import get_db
from core.errors import Conflict


@contextmanager
def lease(name: str, ttl: timedelta = timedelta(minutes=30), wait_s: float = 600):
    """Hold the named lock for the block; a lease older than ttl is taken over (its holder died)."""
    col, token = get_db()["locks"], secrets.token_hex(8)
    deadline = time.monotonic() + wait_s
    while not _try_acquire(col, name, token, ttl):
        if time.monotonic() > deadline:
            raise Conflict(f"{name} is busy: another run holds it")
        time.sleep(0.2)
    try:
        yield
    finally:
        col.delete_one({"_id": name, "owner": token})


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
