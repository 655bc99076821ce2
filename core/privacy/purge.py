"""Making erasure reach the disk: the purge, its daily schedule, and what an erasure receipt may promise.

Erasure clears personal values from every live document at once, but their bytes stay in the storage engine's
files (freed pages, the oplog, the journal) until those are rewritten. On the embedded database the purge copies
the live documents into fresh files and deletes the old ones (core.db.rewrite), so after the next purge no file
under DATA_DIR holds an erased value; the key vault's server (DATA_DIR/keys) is rewritten the same way, so that no
file holds a destroyed key either. It runs daily at PURGE_AT (UTC) in the server, and at once with
`flask --app wsgi purge`. On a real MongoDB the purge can only ask each collection to compact; what that does and
does not guarantee is written in docs/operations.md.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from pymongo.errors import OperationFailure

from core.clock import as_utc, utcnow
from core.config import Settings
from core.db.connection import get_db, is_embedded, wait_until_answering
from core.db.embedded import STORAGE
from core.db.leases import lease
from core.db.rewrite import rewrite_storage
from core.personal import vault_connection
from core.privacy.models import AuditEntry

ACTION = "storage.purged"
ERASED = "listener.erased"  # the audit action of an erasure (core.privacy.erasure)


def purge(settings: Settings, actor: str = "") -> dict:
    """Rewrite the embedded database into fresh files (or compact a real MongoDB); returns and audits the report."""
    with lease("storage:purge"):
        if not is_embedded(settings):
            report = {"method": "compact", "guaranteed": False, "collections": _compact_all()}
        else:
            report = {"method": "rewrite", "guaranteed": True, **rewrite_storage(settings.data_dir)}
            keys = vault_connection.key_server_dir(settings)
            if keys is not None and (keys / STORAGE).exists():
                report["key_vault"] = rewrite_storage(keys)
            wait_until_answering()
            if keys is not None:
                vault_connection.wait_until_answering()
    AuditEntry(company_id=0, action=ACTION, actor=actor, details=report).save()
    return report


def _compact_all() -> int:
    """Ask every collection to compact (a real MongoDB frees space; bytes in backups and the oplog remain)."""
    db, compacted = get_db(), 0
    for name in db.list_collection_names():
        try:
            db.command("compact", name)
            compacted += 1
        except OperationFailure:  # not every deployment allows compact (Atlas shared tiers do not)
            continue
    return compacted


def last_purge() -> datetime | None:
    """When the storage was last purged, if ever."""
    entry = AuditEntry.objects(company_id=0, action=ACTION).order_by("-at").only("at").first()
    return as_utc(entry.at) if entry else None


def clean_since() -> datetime | None:
    """Since when no erased value can be on disk: the last purge, or now when nothing was erased after it (the
    daily purge then has nothing to remove, and a new server's first start does not stop its database for nothing)."""
    last, erased = last_purge(), last_erasure()
    if erased is None or (last is not None and erased <= last):
        return utcnow()
    return last


def last_erasure() -> datetime | None:
    """When a listener was last erased, if ever."""
    entry = AuditEntry.objects(action=ERASED).order_by("-at").only("at").first()
    return as_utc(entry.at) if entry else None


def next_purge(settings: Settings, now: datetime | None = None) -> datetime:
    """The next daily purge at settings.purge_at (HH:MM, UTC) after `now`."""
    now = as_utc(now) if now else utcnow()
    hours, minutes = (int(part) for part in settings.purge_at.split(":"))
    due = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    return due if due > now else due + timedelta(days=1)
