"""One connection per process: MONGODB_URI when set, else the embedded SecantusDB of DATA_DIR; and the process's key
vault (KEY_VAULT_URI when set, else a collection of the data's own database)."""
from __future__ import annotations

import threading
import time

import mongoengine
from mongoengine.connection import _connections  # private, but the only way to close mongoengine's clients
from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import ConnectionFailure

from core.config import Settings
from core.db import embedded, quirks
from core.db.master_key import master_key
from core.db.vault import Vault
from core.errors import DatabaseUnavailable

ALIASES = ("default",)
UNAVAILABLE = (ConnectionFailure,)
"""What the driver raises when the database does not answer (server selection timeout, reset connections, network
timeouts); the edges translate these into 503 in one place each."""
VAULT_COLLECTION = "key_vault"
_vault: dict = {}  # the settings of the last `connect`, the vault made from them, its own client if any
_vault_lock = threading.Lock()


def resolve_uri(settings: Settings) -> str:
    """The URI to use: the configured one, or the embedded server's (started if needed)."""
    if settings.mongodb_uri:
        return settings.mongodb_uri
    return embedded.ensure_running(settings.data_dir)


def is_embedded(settings: Settings) -> bool:
    """True when the database is DATA_DIR's embedded server: no MONGODB_URI, or the URI `serve` hands to its
    workers, which is that server's stable port."""
    if not settings.mongodb_uri:
        return True
    try:
        port = int((settings.data_dir / embedded.PORT_FILE).read_text())
    except (OSError, ValueError):
        return False
    return settings.mongodb_uri == embedded.uri_of_port(port)


def connect(settings: Settings) -> Database:
    """Connect mongoengine's default alias; returns the pymongo database (indexes are made by core.startup)."""
    disconnect()
    _vault["settings"] = settings
    timeout = settings.db_timeout_ms
    quirks.forget()
    mongoengine.connect(db=settings.database_name, host=resolve_uri(settings), alias="default",
                        uuidRepresentation="standard", tz_aware=True, serverSelectionTimeoutMS=timeout,
                        connectTimeoutMS=max(timeout, 1000), socketTimeoutMS=120_000)
    return mongoengine.get_db()


def disconnect() -> None:
    """Close every open client (pymongo warns about clients left to the garbage collector)."""
    for alias in list(_connections):
        _connections[alias].close()
    mongoengine.disconnect_all()
    with _vault_lock:
        if _vault.get("client") is not None:
            _vault["client"].close()
        _vault.clear()


def key_vault() -> Vault:
    """This process's key vault under its master key (MASTER_KEY, else DATA_DIR's key file); MasterKeyError when the
    key cannot be read. Kept on another deployment (KEY_VAULT_URI) the vault is out of reach of the data's backups."""
    with _vault_lock:
        if "vault" not in _vault:
            settings = _vault["settings"]
            if settings.key_vault_uri:
                _vault["client"] = MongoClient(settings.key_vault_uri, uuidRepresentation="standard", tz_aware=True,
                                               serverSelectionTimeoutMS=settings.db_timeout_ms)
                database = _vault["client"][settings.key_vault_database or settings.database_name]
            else:
                database = get_db().client[settings.key_vault_database or settings.database_name]
            master = master_key(settings.master_key, settings.data_dir)
            _vault["vault"] = Vault(database[VAULT_COLLECTION], master)
        return _vault["vault"]


def get_db() -> Database:
    """The pymongo database behind the default alias (for bulk paths that bypass document objects)."""
    return mongoengine.get_db()


def wait_until_answering(timeout_s: float = 30.0) -> None:
    """Return once the database answers a ping (after a restart the driver needs a moment to find it again)."""
    deadline = time.monotonic() + timeout_s
    while not ping():
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
