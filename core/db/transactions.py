"""Writes that stand or fall together: one MongoDB transaction (a replica set in production, and the embedded
database, which speaks the same protocol), so that no failure between two writes can leave one without the other.

    after = atomically(lambda session: change_and_record(session))

The driver runs the work again on a transient error (two transactions that touched the same document), so the
work must do nothing but database writes through the session it is given, and read what it decides on through it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pymongo.client_session import ClientSession

from core.db.connection import get_db

T = TypeVar("T")


def atomically(work: Callable[[ClientSession], T]) -> T:
    """Run work(session) in one transaction and return what it returns: all of its writes land, or none do (an
    exception it raises aborts the transaction and reaches the caller)."""
    with get_db().client.start_session() as session:
        return session.with_transaction(work)
