"""The AI listener profile: inferred demographics and interest tags with confidences, paid for once and reused
for 30 days (spec: "cached 30 days").

A new inference is charged through core.credits (refunded when it fails), and stored with the listener's sealed
fields (core.listeners.sealed_profiles): the answer (`ai_profile`, read from `ai_profiles` where it was stored before
sealing) and its values (`inferred`), then the listener is re-profiled so that filters on inferred values see it
at once. Concurrent requests for one listener share one inference and one charge (core.db.leases.single_flight). A
cached answer costs nothing, says it is cached and when it was made, and is still refused while the company's AI
usage is paused.
"""
from __future__ import annotations

from datetime import timedelta

from core.ai.models import AiProfile
from core.ai.provider import provider
from core.clock import as_utc, utcnow
from core.credits import charges
from core.credits.ledger import entries, forget_subjects
from core.credits.usage import usage_report
from core.db import ahead
from core.db.leases import single_flight
from core.explore.listener import find_listener
from core.listeners import finding, sealed_profiles, sealed_writes
from core.listeners.fields import DECLARED_NAMES, INFERRED
from core.personal import originator_keys
from core.personal.registry import Store, by_listener, declare
from core.segmentation.live import reprofile_listeners

OPERATION = "ai_listener_profile"
CACHE_DAYS = 30
RECORD = ("values", "provider", "model", "tokens_in", "tokens_out", "made_at")
"""What is kept of an answer."""


def ai_listener_profile(company_id: int, originator: str) -> dict:
    """The listener's AI profile: from the cache when made in the last 30 days (free), else a new, paid inference."""
    doc = find_listener(company_id, originator, {name: 1 for name in DECLARED_NAMES})
    with single_flight(f"{OPERATION}:{company_id}:{originator}",
                       lambda: fresh_profile(company_id, originator)) as cached:
        if cached is None:
            return _infer(company_id, originator, doc)
    spent = charges.cached(company_id, OPERATION, _subject(company_id, originator), cached["provider"],
                           cached["model"])
    return _answer(company_id, originator, cached, True, spent["cost"], spent["balance"])


def _infer(company_id: int, originator: str, doc: dict) -> dict:
    """A new inference, paid for (refunded when it fails), stored and put on the listener."""
    chosen = provider()
    with charges.charge(company_id, OPERATION, _subject(company_id, originator)) as charge:
        result = chosen.profile(company_id, originator, doc)
        charge.record(provider=result["provider"], model=result["model"], tokens_in=result["tokens_in"],
                      tokens_out=result["tokens_out"])
        stored = _store(company_id, originator, result)
    reprofile_listeners(company_id, [originator])  # paid for and stored: a failure here is no refund
    return _answer(company_id, originator, stored, False, charge.cost, charge.balance)


def fresh_profile(company_id: int, originator: str) -> dict | None:
    """The cached profile when it was made less than CACHE_DAYS ago (None otherwise)."""
    listener = sealed_profiles.read(company_id, [originator])
    found = (listener[0].get("ai_profile") if listener else None) or AiProfile._get_collection().find_one(
        {"company_id": company_id, "originator": originator}, {"_id": 0})
    if found is None or as_utc(found["made_at"]) <= utcnow() - timedelta(days=CACHE_DAYS):
        return None
    return found


def _store(company_id: int, originator: str, result: dict) -> dict:
    """Keep the answer and put its values on the listener, sealed with the listener's fields."""
    now = utcnow()
    made_at = now.replace(microsecond=now.microsecond // 1000 * 1000)  # as MongoDB keeps it: the answer says the same
    record = {**{name: result[name] for name in RECORD if name != "made_at"}, "made_at": made_at}
    held = on_listener(result, made_at)
    sealed_writes.edit(company_id, {originator: lambda _: {"inferred": held, "ai_profile": record}})
    AiProfile._get_collection().delete_many({"company_id": company_id, "originator": originator})  # one home
    return record


def on_listener(result: dict, made_at) -> dict:
    """The inferred values as a listener holds them (docs/decisions.md §4): each {value, confidence}; interests as the
    list of values with each one's confidence; plus when, by which provider and model."""
    values = result["values"]
    held = {name: {"value": v["value"], "confidence": v["confidence"]} for name, v in values.items()
            if name != "inferred_interests" and v}
    interests = values.get("inferred_interests") or []
    if interests:
        held["inferred_interests"] = {"value": [i["value"] for i in interests],
                                      "confidence": max(i["confidence"] for i in interests),
                                      "items": [{"value": i["value"], "confidence": i["confidence"]}
                                                for i in interests]}
    return {**held, "inferred_at": made_at, "provider": result["provider"], "model": result["model"]}


def _answer(company_id: int, originator: str, record: dict, cached: bool, cost, balance) -> dict:
    made_at = as_utc(record["made_at"])
    values = record["values"]
    return {"company_id": company_id, "originator": originator,
            "inferred": {name: values.get(name) for name in INFERRED if name != "inferred_interests"},
            "interests": values.get("inferred_interests") or [],
            "provider": record["provider"], "model": record["model"], "tokens_in": record.get("tokens_in", 0),
            "tokens_out": record.get("tokens_out", 0), "cached": cached, "made_at": made_at.isoformat(),
            "expires_at": (made_at + timedelta(days=CACHE_DAYS)).isoformat(), "cost": cost, "balance": balance}


def _subject(company_id: int, originator: str) -> str:
    """What the credit ledger names a listener's profile by: the key of the originator (core.listeners
    .originator_keys), so that the ledger holds no number; `spend_report` names them again."""
    return originator_keys.key_of(company_id, originator)


def spend_report(company_id: int, *args) -> dict:
    """core.credits.usage.usage_report (its arguments after the company's), each listener it names by their
    originator again (an erased one's entries name nobody: erasure blanked them)."""
    report = usage_report(company_id, *args)
    subjects = [row["subject"] or "" for row in report["usage"]]
    for row, named in zip(report["usage"], sealed_profiles.originators_of(company_id, subjects), strict=True):
        row["subject"] = named or None
    return report


def forget_charges(company_id: int, originator: str, _alias: str = "") -> int:
    """Erasure's hook: the ledger entries of the listener's profiles name nobody any more (the money stays, as the
    balance must remain the ledger's sum); how many."""
    return forget_subjects(company_id, list(finding.lookup(company_id, [originator])))


def key_plain_charges(company_id: int) -> int:
    """Name by their keys the listeners whose profiles the ledger recorded before keys (`flask --app wsgi
    encrypt`); how many entries. Resumable: only entries naming a plain originator are written."""
    plain = {entry["subject"] for entry in entries().find({"company_id": company_id, "operation": OPERATION},
                                                          {"subject": 1})
             if entry.get("subject") and not originator_keys.is_key(entry["subject"])}
    return sum(entries().update_many({"company_id": company_id, "operation": OPERATION, "subject": subject},
                                     {"$set": {"subject": _subject(company_id, subject)}}).modified_count
               for subject in sorted(plain))


def erase_ai_profile(company_id: int, originator: str, alias: str) -> int:
    """Erasure's hook: a profile cached before sealing is deleted (it holds demographics of the person); one cached
    since goes with the listener's sealed fields."""
    return AiProfile._get_collection().delete_many({"company_id": company_id, "originator": originator}).deleted_count


def seal_plain(company_id: int) -> int:
    """Move the profiles cached before sealing into their listeners' sealed fields (a newer one there is kept), each
    deleted once moved, so a run cut short resumes; how many were moved."""
    collection, moved = AiProfile._get_collection(), 0
    for chunk in ahead.batches(collection.find({"company_id": company_id}), sealed_profiles.OPENED_AT_ONCE):
        records = {doc["originator"]: {name: doc[name] for name in RECORD if name in doc} for doc in chunk}
        moved += len(sealed_writes.edit(company_id, {
            originator: (lambda fields, record=record: None if fields.get("ai_profile") else {"ai_profile": record})
            for originator, record in records.items()}))
        collection.delete_many({"_id": {"$in": [doc["_id"] for doc in chunk]}})
    return moved


PROFILES = declare(Store("ai_profiles", "ai_profiles", erase=by_listener(erase_ai_profile), migrate=seal_plain,
                         personal=("originator", *RECORD), free=("_id", "company_id")))
CHARGES = declare(Store("credit_ledger", "credit_ledger", erase=by_listener(forget_charges),
                        migrate=key_plain_charges, personal=("subject",)))
