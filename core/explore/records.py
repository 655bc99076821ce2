"""A listener as clients see it: declared data from MongoDB joined with the behavioural row of the snapshot."""
from __future__ import annotations

import numpy as np

from core.clock import local_iso_from_epoch
from core.listeners.fields import INFERRED, LISTED
from core.listeners.snapshot import Snapshot


def reachable(snap: Snapshot, rows: np.ndarray) -> np.ndarray:
    """Whether each row may be contacted: opt-in and permission both given (true, not unknown)."""
    if not len(rows):
        return np.zeros(0, dtype=bool)
    return (snap.cols["opt_in"][rows] == 1) & (snap.cols["permission"][rows] == 1)


def _members(snap: Snapshot, name: str, row: int) -> list:
    if name not in snap.cols:
        return []
    return [v for v, on in zip(snap.vocab.get(name, []), snap.cols[name][row]) if on]


def _label(snap: Snapshot, name: str, row: int):
    code = int(snap.cols[name][row])
    return snap.vocab[name][code] if code >= 0 else None


def behaviour(snap: Snapshot, row: int, tz: str | None = None) -> dict:
    """The behavioural profile of one snapshot row; times in ISO 8601 with the offset of the zone `tz` (UTC when
    not given)."""
    c = snap.cols
    recency = float(c["recency_days"][row])
    return {
        "segment": _label(snap, "segment", row),
        "rfm": {"recency": int(c["rfm_recency"][row]), "frequency": int(c["rfm_frequency"][row]),
                "engagement": int(c["rfm_engagement"][row])},
        "first_interaction": local_iso_from_epoch(c["first_ts"][row], tz),
        "last_interaction": local_iso_from_epoch(c["last_ts"][row], tz),
        "days_since_last": None if np.isinf(recency) else round(recency, 2),
        "interactions_total": int(c["n_total"][row]),
        "interactions_30d": int(c["n_30"][row]),
        "interactions_prev_30d": int(c["n_prev30"][row]),
        "interactions_90d": int(c["n_90"][row]),
        "channels_30d": int(c["channels_30"][row]),
        "competition_share": round(float(c["competition_share"][row]), 4),
        "top_show_share_90d": round(float(c["top_show_share_90"][row]), 4),
        "active_weeks_90d": int(c["active_weeks_90"][row]),
        "churn_probability": None if np.isnan(c["churn"][row]) else round(float(c["churn"][row]), 3),
        "channels": _members(snap, "channels", row),
        "primary_channel": int(c["primary_channel"][row]) or None,
        "peak_hour": _non_negative(c["peak_hour"][row]),
        "peak_time_of_day": _label(snap, "peak_time_of_day", row),
        "primary_day_of_week": _non_negative(c["primary_day_of_week"][row]),
        "peak_month": _non_negative(c["peak_month"][row]),
        "weekday_pattern": bool(c["weekday_pattern"][row]),
        "public_holidays": _members(snap, "public_holidays", row),
        "timeslots": _members(snap, "timeslots", row),
        "campaign_types": _members(snap, "campaign_types", row),
        "profile_complete": bool(c["profile_complete"][row]),
        "missing_fields": _members(snap, "missing_fields", row),
        "segmented_at": local_iso_from_epoch(c["as_of"][row], tz),
    }


def _non_negative(value) -> int | None:
    return int(value) if int(value) >= 0 else None


def inferred(doc: dict) -> dict:
    """Inferred demographics with their confidences (absent ones as None)."""
    stored = doc.get("inferred") or {}
    return {name: stored.get(name) for name in INFERRED}


def record(doc: dict, snap: Snapshot, row: int | None, tz: str | None = None) -> dict:
    """One listener for filter pages and exports: declared fields, tags, flags, behaviour (times in zone `tz`),
    inferred values."""
    out = {"originator": doc["originator"]}
    out.update({name: doc.get(name) for name in LISTED})
    out.update({"tags": doc.get("tags") or [], "permission": doc.get("permission"), "opt_in": doc.get("opt_in")})
    if row is not None:
        out.update(behaviour(snap, row, tz))
    out["inferred"] = inferred(doc)
    return out
