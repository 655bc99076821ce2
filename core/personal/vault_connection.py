"""The process's key vault, kept where a backup of the data does not reach: KEY_VAULT_URI when set, else, on the
embedded database, a SecantusDB server of its own under DATA_DIR/keys (core.db.embedded), started when a key is first
needed. With a production database (MONGODB_URI) and no KEY_VAULT_URI the process refuses to start, unless
KEY_VAULT_SHARES_BACKUPS says that the vault may be a collection of the data's own database, and so live in every
backup of it.

The data's connection (core.db.connection) knows nothing of the vault, which lies above it: the one place that
connects (core.service.startup) makes the vault ready for these settings (`prepare`) before it connects the data, and
closes both.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path

from pymongo import MongoClient

from core.config import Settings, StartRefused
from core.db import connection, embedded
from core.db.connection import get_db, is_embedded, stable_uri
from core.personal.master_key import check_master_key, master_key
from core.personal.vault import Vault
from core.personal.vault_move import move_keys_home

VAULT_COLLECTION = "key_vault"
_vault: dict = {}  # the settings of the last `prepare`, the vault made from them, its own client if any
_vault_lock = threading.Lock()
log = logging.getLogger(__name__)


class KeyVaultSharesBackups(StartRefused):
    """A production database would keep the key vault in its own backups, where destroyed keys outlive erasure."""


def key_server_dir(settings: Settings) -> Path | None:
    """The folder of DATA_DIR's key server when the key vault lives there: on the embedded database without
    KEY_VAULT_URI, or with the URI `serve` hands to its workers, which is that server's stable port."""
    if not is_embedded(settings):
        return None
    folder = embedded.keys_dir(settings.data_dir)
    return folder if settings.key_vault_uri in (None, stable_uri(folder)) else None


def resolve_key_vault_uri(settings: Settings) -> str | None:
    """The key vault's URI, for `serve` to hand its processes as it hands them the data's: KEY_VAULT_URI, else
    DATA_DIR's key server's (started if needed); None when the vault is a collection of the data's own database."""
    folder = key_server_dir(settings)
    return embedded.ensure_running(folder) if folder and not settings.key_vault_uri else settings.key_vault_uri


def refuse_unsafe_keys(settings: Settings) -> None:
    """What stops a process before it touches a database: MasterKeyError when the master key cannot be read, and
    KeyVaultSharesBackups when a production database would keep the key vault in its own database (KEY_VAULT_URI
    unset, or naming the data's deployment and database) and KEY_VAULT_SHARES_BACKUPS does not allow it."""
    check_master_key(settings.master_key, Path(settings.data_dir))
    if settings.key_vault_shares_backups or is_embedded(settings):
        return
    if settings.key_vault_uri is None:
        where = "is not set"
    elif (settings.key_vault_uri, settings.key_vault_database or settings.database_name) == (
            settings.mongodb_uri, settings.database_name):
        where = "names the data's own deployment and database"
    else:
        return
    raise KeyVaultSharesBackups(
        f"KEY_VAULT_URI {where}, so every backup of the data would hold the keys that erasure destroys: set "
        "KEY_VAULT_URI to a deployment of its own whose backups expire quickly, or KEY_VAULT_SHARES_BACKUPS=yes to "
        "accept that a backup taken before an erasure still reads the erased listener.")


def prepare(settings: Settings) -> None:
    """Forget the vault of earlier settings and make these the ones the vault opens under. Called before the data is
    connected: whether DATA_DIR held a database already is read before its embedded server is started."""
    close()
    _vault["settings"] = settings
    _vault["new"] = not any((folder / embedded.STORAGE).exists()
                            for folder in (Path(settings.data_dir), embedded.keys_dir(settings.data_dir)))


def close() -> None:
    """Close the vault's own client, if it has one (pymongo warns about clients left to the garbage collector)."""
    with _vault_lock:
        if _vault.get("client") is not None:
            _vault["client"].close()
        _vault.clear()


def open_key_vault_at_start() -> None:
    """Open the key vault now (keys moved home, the master key checked against them), unless it is the key server of
    a DATA_DIR that held no database before this process connected: a new one starts it with its first key, so a
    command or a test that seals nothing never starts a second server."""
    settings = _vault["settings"]
    if not (_vault["new"] and key_server_dir(settings) and not settings.key_vault_uri):
        key_vault()


def key_vault() -> Vault:
    """This process's key vault under its master key (MASTER_KEY, else DATA_DIR's key file), opened at its first use;
    MasterKeyError when the key cannot be read or is not the one the vault's keys were made under. A database that
    does not answer leaves the opening to the next use."""
    with _vault_lock:
        if "vault" not in _vault:
            _vault["vault"] = _opened(_vault["settings"])
        return _vault["vault"]


def _opened(settings: Settings) -> Vault:
    """The vault: on its own client unless it shares the data's database, DATA_DIR's key server started if it lives
    there, the keys an older version kept in the data's database moved into it, indexed and checked."""
    master = master_key(settings.master_key, settings.data_dir)
    folder = key_server_dir(settings)
    uri = settings.key_vault_uri or (embedded.ensure_running(folder) if folder else None)
    if uri and "client" not in _vault:
        _vault["client"] = MongoClient(uri, uuidRepresentation="standard", tz_aware=True,
                                       serverSelectionTimeoutMS=settings.db_timeout_ms)
    data = get_db()
    database = (_vault["client"] if uri else data.client)[settings.key_vault_database or settings.database_name]
    vault = Vault(database[VAULT_COLLECTION], master)
    if uri or database.name != data.name:
        moved = move_keys_home(data[VAULT_COLLECTION], database[VAULT_COLLECTION])
        if moved:
            log.warning("moved %d keys of the key vault out of the data's database", moved)
    vault.ensure_indexes()
    vault.check()
    return vault


def wait_until_answering(timeout_s: float = 30.0) -> None:
    """Return once the key vault's server answers a ping (restarted by a purge, as the data's is)."""
    connection.wait_until_answering(timeout_s, answers=_answers)


def _answers() -> bool:
    """True when the key vault's server answers."""
    try:
        key_vault().collection.database.command("ping")
        return True
    except Exception:  # noqa: BLE001 - any failure means not answering yet
        return False
