"""Erasure (docs/decisions.md §7): clear every personal field, keep the behaviour under a keyed pseudonym, audit it.

Irreversible. Every store that can hold a personal value declares itself to the registry (core.personal.registry)
where it lives, and erasure walks the registry, so this module never imports the stores it cleans. The receipt names
each store and how many records were touched. With `suppress`, a keyed hash of the number goes on the suppression
list so that later imports drop interactions from it.

An erasure is recorded before its first store is reached, whom it erases sealed under a key of its own, and each
store is marked done as it is reached: one cut short (a kill, a deploy) is finished by `resume_erasures` at the next
start of a worker, store by store from where it stopped, and never leaves a listener half-erased.
"""
from __future__ import annotations

from datetime import timedelta

import bson
from bson import Binary, ObjectId
from mongoengine import DoesNotExist

from core.clock import utcnow
from core.config import active
from core.db.connection import is_embedded
from core.db.leases import lease
from core.errors import Conflict, ListenerNotFound
from core.listeners import sealed_profiles
from core.listeners.suppression import suppress_numbers
from core.personal.pseudonyms import pseudonym
from core.personal.registry import Erasure, stores
from core.personal.spellings import spellings_of
from core.personal.vault_connection import key_vault
from core.privacy.models import AuditEntry, PendingErasure
from core.privacy.purge import ERASED, next_purge

ERASURE_LEASE = timedelta(minutes=2)  # how soon a killed erasure's lease runs out for the next start to finish it


def erase_listener(company_id: int, originator: str, secret: str, suppress: bool = False, actor: str = "") -> dict:
    """Pseudonymise one listener everywhere; ListenerNotFound if unknown (or already erased)."""
    doc = sealed_profiles.find_one(company_id, originator)
    if doc is None or doc.get("erased_at") is not None:  # by the key alone: core.db.quirks, extra fields
        raise ListenerNotFound.of(originator)
    whom = {"originator": originator, "pseudonym": pseudonym(secret, company_id, originator), "suppress": suppress,
            "actor": actor, "mobile_number": doc.get("mobile_number"), "name": doc.get("name"),
            "values": [doc.get("email"), doc.get("id_number"), originator]}
    pending = PendingErasure(id=ObjectId(), company_id=company_id, sealed=b"-")
    pending.sealed = Binary(key_vault().seal_bytes(_key_name(pending.id), bson.encode(whom)))
    pending.save()
    with lease(_key_name(pending.id), ERASURE_LEASE, wait_s=0):
        return _finish(pending, whom)


def resume_erasures() -> list[dict]:
    """Finish every erasure a process started and did not end (killed on the way); their receipts."""
    receipts = []
    for pending in PendingErasure.objects.order_by("started_at"):
        try:
            with lease(_key_name(pending.id), ERASURE_LEASE, wait_s=0):  # not one a live process is working on
                pending.reload()
                opened = key_vault().unseal_bytes([bytes(pending.sealed)])[0]
                if opened is None:  # ended, its key destroyed, just before its record went
                    pending.delete()
                    continue
                receipts.append(_finish(pending, bson.decode(opened)))
        except (Conflict, DoesNotExist):
            continue  # under way in another process, or ended meanwhile
    return receipts


def _finish(pending: PendingErasure, whom: dict) -> dict:
    """Reach every store not yet reached, then audit the erasure and forget whom it erased."""
    company_id, secret = pending.company_id, active().secret_key
    erasure = Erasure(company_id, whom["originator"], whom["pseudonym"],
                      spellings_of([whom["originator"], whom["mobile_number"]], [whom["name"]], whom["values"]))
    done = dict(pending.done)
    for store in stores():
        if store.erase is not None and store.name not in done:
            done[store.name] = store.erase(erasure)
            PendingErasure.objects(id=pending.id).update_one(**{f"set__done__{store.name}": done[store.name]})
    if whom["suppress"]:
        done["suppression_list"] = suppress_numbers(company_id, secret, [whom["originator"], whom["mobile_number"]])
    AuditEntry(company_id=company_id, action=ERASED, actor=whom["actor"],
               details={"pseudonym": erasure.pseudonym, "suppressed": whom["suppress"], "stores": done}).save()
    key_vault().destroy([_key_name(pending.id)])
    pending.delete()
    return _receipt(erasure.pseudonym, whom["suppress"], done)


def _receipt(alias: str, suppressed: bool, stores_touched: dict) -> dict:
    settings = active()
    purge_by = next_purge(settings).isoformat() if settings.daily_purge and is_embedded(settings) else None
    return {"erased": True, "pseudonym": alias, "suppressed": suppressed, "stores": stores_touched,
            "at": utcnow().isoformat(), "disk_purge_by": purge_by, "disk_purge": _purge_promise(settings)}


def _key_name(pending_id: ObjectId) -> str:
    return f"erasure:{pending_id}"


def _purge_promise(settings) -> str:
    """What the receipt promises about every copy of the listener's data, and the bytes on disk."""
    promise = ("Unreadable now in every copy, the oplog and backups included: what was personal was sealed under keys "
               "now destroyed, and no store names the listener but by a keyed hash of their number.")
    if settings.daily_purge and is_embedded(settings):
        return f"{promise} The files on disk are also rewritten at the next daily purge ({settings.purge_at} UTC)."
    return promise
