"""One connection per process: MONGODB_URI when set, else the embedded SecantusDB of DATA_DIR."""
from __future__ import annotations

import mongoengine
from mongoengine.connection import _connections  # private, but the only way to close mongoengine's clients
from pymongo.database import Database

from core.config import Settings
from core.db import embedded, quirks

ALIASES = ("default",)


def resolve_uri(settings: Settings) -> str:
    """The URI to use: the configured one, or the embedded server's (started if needed)."""
    if settings.mongodb_uri:
        return settings.mongodb_uri
    return embedded.ensure_running(settings.data_dir)


def connect(settings: Settings) -> Database:
    """Connect mongoengine's default alias; returns the pymongo database (indexes are made by core.startup)."""
    disconnect()
    mongoengine.connect(db=settings.database_name, host=resolve_uri(settings), alias="default",
                        uuidRepresentation="standard", tz_aware=True, serverSelectionTimeoutMS=5000)
    db = mongoengine.get_db()
    quirks.detect(db)
    return db


def disconnect() -> None:
    """Close every open client (pymongo warns about clients left to the garbage collector)."""
    for alias in list(_connections):
        _connections[alias].close()
    mongoengine.disconnect_all()


def get_db() -> Database:
    """The pymongo database behind the default alias (for bulk paths that bypass document objects)."""
    return mongoengine.get_db()


def ping() -> bool:
    """True when the database answers."""
    try:
        get_db().command("ping")
        return True
    except Exception:  # noqa: BLE001 - any failure means unreachable, reported by /health
        return False
