"""One connection per process: MONGODB_URI when set, else the embedded SecantusDB of DATA_DIR. The process's key
vault is not this module's: it lies above, with every byte that can name a listener (core.personal.vault_connection),
and the one place that connects (core.service.startup) opens both."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import mongoengine
from mongoengine.connection import _connections  # private, but the only way to close mongoengine's clients
from pymongo.database import Database
from pymongo.errors import ConnectionFailure

from core.config import Settings
from core.db import embedded, quirks
from core.errors import DatabaseUnavailable

ALIASES = ("default",)
UNAVAILABLE = (ConnectionFailure,)
"""What the driver raises when the database does not answer (server selection timeout, reset connections, network
timeouts); the edges translate these into 503 in one place each."""


def resolve_uri(settings: Settings) -> str:
    """The URI to use: the configured one, or the embedded server's (started if needed)."""
    if settings.mongodb_uri:
        return settings.mongodb_uri
    return embedded.ensure_running(settings.data_dir)


def is_embedded(settings: Settings) -> bool:
    """True when the database is DATA_DIR's embedded server: no MONGODB_URI, or the URI `serve` hands to its
    workers, which is that server's stable port."""
    return not settings.mongodb_uri or settings.mongodb_uri == stable_uri(settings.data_dir)


def stable_uri(folder: Path) -> str | None:
    """The URI of the embedded server of this folder on its stable port, if it has one."""
    try:
        return embedded.uri_of_port(int((folder / embedded.PORT_FILE).read_text()))
    except (OSError, ValueError):
        return None


def connect(settings: Settings) -> Database:
    """Connect mongoengine's default alias; returns the pymongo database (indexes are made by core.service.startup)."""
    disconnect()
    timeout = settings.db_timeout_ms
    quirks.forget()
    mongoengine.connect(db=settings.database_name, host=resolve_uri(settings), alias="default",
                        uuidRepresentation="standard", tz_aware=True, serverSelectionTimeoutMS=timeout,
                        connectTimeoutMS=quirks.connect_timeout_ms(timeout, is_embedded(settings)),
                        socketTimeoutMS=120_000)
    return mongoengine.get_db()


def disconnect() -> None:
    """Close every open client (pymongo warns about clients left to the garbage collector)."""
    for alias in list(_connections):
        _connections[alias].close()
    mongoengine.disconnect_all()


def get_db() -> Database:
    """The pymongo database behind the default alias (for bulk paths that bypass document objects)."""
    return mongoengine.get_db()


def wait_until_answering(timeout_s: float = 30.0, answers: Callable[[], bool] | None = None) -> None:
    """Return once the database answers a ping (after a restart the driver needs a moment to find it again);
    `answers`: another server's ping (the key vault's, restarted by a purge too)."""
    deadline = time.monotonic() + timeout_s
    while not (answers or ping)():
        if time.monotonic() > deadline:
            raise DatabaseUnavailable("The database did not come back after a restart.")
        time.sleep(0.1)


def ping() -> bool:
    """True when the database answers."""
    try:
        get_db().command("ping")
        return True
    except Exception:  # noqa: BLE001 - any failure means unreachable, reported by /health
        return False
