"""Erasure (docs/decisions.md §7): clear every personal field, keep the behaviour under a keyed pseudonym, audit it.

Irreversible. The receipt names each store and how many records were touched. With `suppress`, a keyed hash of
the number goes on the suppression list so that later imports drop interactions from it. Stores added by later
features (vector index, audiences, AI caches) are reached through core.privacy.hooks, so this module never
imports them.
"""
from __future__ import annotations

from bson import ObjectId

from core.clock import from_epoch, utcnow
from core.config import active
from core.db.connection import is_embedded
from core.errors import ListenerNotFound
from core.ingest import reports
from core.ingest.models import ImportReport
from core.listeners import originator_keys, sealed_messages, sealed_profiles, snapshot
from core.listeners.fields import DECLARED, IDENTIFIERS
from core.listeners.models import InteractionBatch, Listener
from core.listeners.pseudonyms import keyed_hash, pseudonym
from core.listeners.suppression import suppress_numbers
from core.privacy.hooks import run_hooks
from core.privacy.models import AuditEntry
from core.privacy.purge import ERASED, next_purge
from core.segmentation.models import SegmentChange
from core.segmentation.runs import resegment_listeners


def erase_listener(company_id: int, originator: str, secret: str, suppress: bool = False, actor: str = "") -> dict:
    """Pseudonymise one listener everywhere; ListenerNotFound if unknown (or already erased)."""
    doc = sealed_profiles.find_one(company_id, originator)
    if doc is None or doc.get("erased_at") is not None:  # by the key alone: core.db.quirks, extra fields
        raise ListenerNotFound.of(originator)
    alias = pseudonym(secret, company_id, originator)
    stores = {"listeners": _erase_profile(company_id, originator, alias),
              "interactions": _erase_interactions(company_id, originator, alias, secret),
              "segment_history": _rename(SegmentChange, company_id, originator, alias)}
    stores["import_reports"] = _scrub_import_reports(company_id, [originator, *(doc.get(f) for f in IDENTIFIERS)])
    stores.update(run_hooks(company_id, originator, alias))
    if suppress:
        stores["suppression_list"] = suppress_numbers(company_id, secret, [originator, doc.get("mobile_number")])
    stores["snapshot"] = _resegment(company_id, originator, alias)
    AuditEntry(company_id=company_id, action=ERASED, actor=actor,
               details={"pseudonym": alias, "suppressed": suppress, "stores": stores}).save()
    settings = active()
    purge_by = next_purge(settings).isoformat() if settings.daily_purge and is_embedded(settings) else None
    return {"erased": True, "pseudonym": alias, "suppressed": suppress, "stores": stores, "at": utcnow().isoformat(),
            "disk_purge_by": purge_by, "disk_purge": _purge_promise(settings)}


def _purge_promise(settings) -> str:
    """What the receipt promises about every copy of the listener's data, and the bytes on disk."""
    promise = ("Unreadable now in every copy, the oplog and backups included: what was personal was sealed under keys "
               "now destroyed, and no store names the listener but by a keyed hash of their number.")
    if settings.daily_purge and is_embedded(settings):
        return f"{promise} The files on disk are also rewritten at the next daily purge ({settings.purge_at} UTC)."
    return promise


def _erase_profile(company_id: int, originator: str, alias: str) -> int:
    """The sealed fields made unreadable in every copy (their group's key destroyed), every declared field unset,
    the row kept under the pseudonym. A new `profile_version` makes a writer that read the listener before fail
    its write."""
    sealed_profiles.erase(company_id, originator)
    unset = {field.name: "" for field in DECLARED if field.kind != "list"}
    result = Listener._get_collection().update_one(
        originator_keys.matching(company_id, [originator]),
        {"$set": {"originator": alias, "tags": [], "inferred": {}, "promoted": {}, "erased_at": utcnow(),
                  "profile_version": ObjectId()},
         "$unset": {**unset, "profile": "", "profile_group": ""}})
    return result.modified_count


def _erase_interactions(company_id: int, originator: str, alias: str, secret: str) -> int:
    """Messages made unreadable in every copy (their groups' keys destroyed); idempotency keys re-keyed so no unkeyed
    hash of the person's rows is left."""
    sealed_messages.erase(company_id, originator)
    col, touched = InteractionBatch._get_collection(), 0
    for batch in list(col.find(originator_keys.matching(company_id, [originator]), {"keys": 1})):
        keys = ["erased:" + keyed_hash(secret, k)[:32] for k in batch.get("keys", [])]
        col.update_one({"_id": batch["_id"]}, {"$set": {"originator": alias, "keys": keys}})
        touched += len(keys)
    return touched


def _scrub_import_reports(company_id: int, identifiers: list) -> int:
    """Bad-row reasons quote the values they rejected: drop those that quote one of this person's identifiers."""
    needles = [str(v).strip().lower() for v in identifiers if v and len(str(v).strip()) >= 4]
    touched = 0
    for report in ImportReport._get_collection().find({"company_ids": company_id, "error_count": {"$gt": 0}},
                                                      {"errors": 1, "sealed_errors": 1, "errors_key": 1}):
        errors = reports.opened_errors(report)
        kept = [e for e in errors if not any(n in str(e.get("reason", "")).lower() for n in needles)]
        if len(kept) != len(errors):
            reports.rewrite(report, kept)  # under a new key: the old one, and every copy of the list, gone
            touched += len(errors) - len(kept)
    return touched


def _rename(document, company_id: int, originator: str, alias: str) -> int:
    return document._get_collection().update_many(originator_keys.matching(company_id, [originator]),
                                                  {"$set": {"originator": alias}}).modified_count


def _resegment(company_id: int, originator: str, alias: str) -> int:
    """Move the listener's snapshot row to the pseudonym, profiled as of its last run so analytics do not shift."""
    snap = snapshot.current(company_id)
    row = snap.row_of(originator) if len(snap) else None
    as_of = from_epoch(snap.cols["as_of"][row]) if row is not None else None
    resegment_listeners(company_id, [alias], now=as_of, kind="erasure", dropped=[originator])
    return 1
