"""Promotion of inferred demographics (spec §3): an inferred value with a confidence of at least 0.70 is copied into
the matching declared field when that field is empty. Declared data is never overwritten, not even by a race: each
copy is a write conditional on the listener's fields as read, made only if the field was empty
(core.listeners.sealed_profiles). Every copy is recorded on the listener (`promoted`) and in its history
(`promotions`, sealed with its fields; `demographic_promotions` before sealing), and the listener is re-profiled at
once so that the snapshot, filters and completeness figures show it.
"""
from __future__ import annotations

from core.ai.models import DemographicPromotion
from core.clock import as_utc, utcnow
from core.credits.charges import ensure_open
from core.db import ahead
from core.explore.listener import find_listener
from core.listeners import sealed_profiles, sealed_writes
from core.personal.registry import Store, by_listener, declare
from core.segmentation.live import reprofile_listeners

THRESHOLD = 0.70
PROMOTABLE = {"inferred_gender": "gender", "inferred_age_group": "age_group", "inferred_language": "language",
              "inferred_location": "location"}
"""Inferred field -> the declared field it may fill (LSM and interests have no declared field)."""
EMPTY = (None, "")
ENTRY = ("field", "value", "confidence", "provider", "model")
"""What the history keeps of a promotion, beside when."""


def promote_demographics(company_id: int, originator: str) -> dict:
    """Copy every promotable inferred value into its empty declared field; what was promoted, what was skipped and
    why. ListenerNotFound for an unknown or erased listener."""
    doc = find_listener(company_id, originator, {"inferred": 1, **{f: 1 for f in PROMOTABLE.values()}})
    ensure_open(company_id)  # an AI operation like the others: refused while the company's AI usage is paused
    inferred = doc.get("inferred") or {}
    promoted, skipped = [], []
    for source, target in PROMOTABLE.items():
        guess = inferred.get(source)
        reason = _refusal(guess, doc.get(target))
        if reason is None and _copy(company_id, originator, target, guess, inferred):
            promoted.append({"field": target, "from": source, "value": guess["value"],
                             "confidence": guess["confidence"]})
        else:
            skipped.append({"field": target, "from": source, "value": (guess or {}).get("value"),
                            "confidence": (guess or {}).get("confidence"),
                            "reason": reason or "the declared field was filled meanwhile; it is kept"})
    if promoted:
        reprofile_listeners(company_id, [originator])
    return {"company_id": company_id, "originator": originator, "threshold": THRESHOLD, "promoted": promoted,
            "skipped": skipped}


def _refusal(guess: dict | None, declared) -> str | None:
    """Why this value may not be promoted (None: it may)."""
    if declared not in EMPTY:
        return "the listener declared this field; declared data is never overwritten"
    if not guess or guess.get("value") in EMPTY:
        return "nothing inferred for this field yet (ask for the AI profile first)"
    if guess.get("confidence") is None:
        return "there is not enough evidence for a confidence"
    if float(guess["confidence"]) < THRESHOLD:
        return f"confidence {guess.get('confidence'):.2f} is below {THRESHOLD:.2f}"
    return None


def _copy(company_id: int, originator: str, target: str, guess: dict, inferred: dict) -> bool:
    """One conditional write: the field is set only if it is still empty, with its history entry."""
    at = utcnow()
    source = {"value": guess["value"], "confidence": guess["confidence"], "at": at,
              "provider": inferred.get("provider"), "model": inferred.get("model")}
    entry = {"field": target, **{name: source[name] for name in ENTRY if name != "field"}, "at": at}

    def filled(fields: dict) -> dict | None:
        if fields.get(target) not in EMPTY:
            return None
        return {target: guess["value"], "promoted": {**(fields.get("promoted") or {}), target: source},
                "promotions": [*(fields.get("promotions") or []), entry]}

    return originator in sealed_writes.edit(company_id, {originator: filled})


def promotion_history(company_id: int, originator: str) -> list[dict]:
    """The listener's promotions, newest first (those recorded before sealing too)."""
    listener = sealed_profiles.read(company_id, [originator])
    before = DemographicPromotion._get_collection().find({"company_id": company_id, "originator": originator})
    entries = [*(listener[0].get("promotions") or [] if listener else []), *before]
    return [{name: entry.get(name) for name in ENTRY} | {"at": as_utc(entry["at"]).isoformat()}
            for entry in sorted(entries, key=lambda e: e["at"], reverse=True)]


def erase_promotions(company_id: int, originator: str, alias: str) -> int:
    """Erasure's hook: the history of promoted values recorded before sealing goes (the values are the person's
    demographics); the history since goes with the listener's sealed fields."""
    return DemographicPromotion.objects(company_id=company_id, originator=originator).delete()


def seal_plain(company_id: int) -> int:
    """Move the history of promotions recorded before sealing into the listeners' sealed fields, each entry deleted
    once moved, so a run cut short resumes; how many listeners' were moved."""
    collection, moved = DemographicPromotion._get_collection(), 0
    for chunk in ahead.batches(collection.find({"company_id": company_id}), sealed_profiles.OPENED_AT_ONCE):
        entries: dict[str, list] = {}
        for doc in chunk:
            entries.setdefault(doc["originator"], []).append(
                {name: doc.get(name) for name in (*ENTRY, "at")})
        moved += len(sealed_writes.edit(company_id, {
            originator: (lambda fields, kept=kept: {"promotions": [*kept, *(fields.get("promotions") or [])]})
            for originator, kept in entries.items()}))
        collection.delete_many({"_id": {"$in": [doc["_id"] for doc in chunk]}})
    return moved


STORE = declare(Store("demographic_promotions", "demographic_promotions", erase=by_listener(erase_promotions),
                      migrate=seal_plain, personal=("originator", *ENTRY), free=("_id", "company_id", "at")))
