"""One listener in full: declared and inferred data, behaviour, segment with reasons, RFM and segment history."""
from __future__ import annotations

from core.db.connection import ALIASES
from core.errors import ListenerNotFound, ValidationFailed
from core.explore.records import behaviour, inferred
from core.listeners import sealed_profiles, snapshot
from core.listeners.fields import SCALAR
from core.segmentation.history import segment_history
from core.segmentation.profiling import RULE_INPUTS
from core.segmentation.reasons import reasons
from core.segmentation.rules import LABELS, MEANINGS, thresholds_for
from core.stations.companies import get_company


def check_alias(db: str | None) -> str:
    """The database alias to read from; 422 for one that is not configured."""
    alias = (db or "default").strip() or "default"
    if alias not in ALIASES:
        raise ValidationFailed.one(["query", "db"], f"Unknown database alias. Configured: {', '.join(ALIASES)}.")
    return alias


def find_listener(company_id: int, originator: str, fields: dict | None = None) -> dict:
    """The listener's stored document; ListenerNotFound when unknown or erased (an erased listener's old number
    names nobody any more)."""
    shown = {"_id": 0, **(fields or {}), "erased_at": 1} if fields else {"_id": 0}
    doc = sealed_profiles.find_one(company_id, originator, shown)
    if doc is None or doc.get("erased_at") is not None:  # by the key alone: core.db.quirks, extra fields
        raise ListenerNotFound.of(originator)
    return doc


def get_listener(company_id: int, originator: str, db: str | None = None) -> dict:
    """The full profile of one listener; ListenerNotFound for unknown or erased listeners."""
    check_alias(db)
    company = get_company(company_id)
    doc = find_listener(company_id, originator)
    snap = snapshot.current(company_id)
    row = snap.row_of(originator) if len(snap) else None
    profile = behaviour(snap, row) if row is not None else None
    return {
        "company_id": company_id,
        "originator": originator,
        "declared": {name: doc.get(name) for name in SCALAR},
        "tags": doc.get("tags") or [],
        "permission": doc.get("permission"),
        "opt_in": doc.get("opt_in"),
        "inferred": inferred(doc),
        "segment": _segment(snap, row, company) if row is not None else None,
        "profile": profile,
        "channel_names": {str(k): v for k, v in company.channel_names().items()},
        "segment_history": segment_history(company_id, originator, snap, row),
    }


def _segment(snap, row: int, company) -> dict:
    key = snap.vocab["segment"][int(snap.cols["segment"][row])]
    numbers = {name: snap.cols[name][row].item() for name in (*RULE_INPUTS, "first_ts", "last_ts", "as_of")}
    return {"key": key, "label": LABELS[key], "meaning": MEANINGS[key],
            "reasons": reasons(key, numbers, thresholds_for(company.thresholds), company.timezone),
            "rfm": {"recency": int(snap.cols["rfm_recency"][row]), "frequency": int(snap.cols["rfm_frequency"][row]),
                    "engagement": int(snap.cols["rfm_engagement"][row])}}
