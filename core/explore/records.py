"""A listener as clients see it: declared data from MongoDB joined with the behavioural row of the snapshot."""
from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from core.clock import local_iso_from_epoch
from core.listeners.declared import read_listeners
from core.listeners.fields import INFERRED, LISTED
from core.listeners.snapshot import Snapshot


def reachable(snap: Snapshot, rows: np.ndarray) -> np.ndarray:
    """Whether each row may be contacted: opt-in and permission both given (true, not unknown)."""
    if not len(rows):
        return np.zeros(0, dtype=bool)
    return (snap.cols["opt_in"][rows] == 1) & (snap.cols["permission"][rows] == 1)


def behaviour(snap: Snapshot, row: int, tz: str | None = None) -> dict:
    """The behavioural profile of one snapshot row; times in ISO 8601 with the offset of the zone `tz` (UTC when
    not given)."""
    return behaviours(snap, np.array([row], dtype=np.int64), tz)[0]


def behaviours(snap: Snapshot, rows: np.ndarray, tz: str | None = None) -> list[dict]:
    """The behavioural profile of each of these rows, column by column (a page of 100 listeners read row by row
    cost a tenth of a search)."""
    if not len(rows):
        return []  # a station without listeners has no behaviour columns at all
    c = snap.cols
    at = {name: c[name][rows].tolist() for name in (
        "rfm_recency", "rfm_frequency", "rfm_engagement", "first_ts", "last_ts", "recency_days", "n_total", "n_30",
        "n_prev30", "n_90", "channels_30", "competition_share", "top_show_share_90", "active_weeks_90", "churn",
        "primary_channel", "peak_hour", "primary_day_of_week", "peak_month", "weekday_pattern", "profile_complete",
        "as_of")}
    labels = {name: _labels(snap, name, rows) for name in ("segment", "peak_time_of_day")}
    members = {name: _members_of(snap, name, rows) for name in (
        "channels", "public_holidays", "timeslots", "campaign_types", "missing_fields")}
    return [{
        "segment": labels["segment"][i],
        "rfm": {"recency": int(at["rfm_recency"][i]), "frequency": int(at["rfm_frequency"][i]),
                "engagement": int(at["rfm_engagement"][i])},
        "first_interaction": local_iso_from_epoch(at["first_ts"][i], tz),
        "last_interaction": local_iso_from_epoch(at["last_ts"][i], tz),
        "days_since_last": None if math.isinf(at["recency_days"][i]) else round(at["recency_days"][i], 2),
        "interactions_total": int(at["n_total"][i]),
        "interactions_30d": int(at["n_30"][i]),
        "interactions_prev_30d": int(at["n_prev30"][i]),
        "interactions_90d": int(at["n_90"][i]),
        "channels_30d": int(at["channels_30"][i]),
        "competition_share": round(at["competition_share"][i], 4),
        "top_show_share_90d": round(at["top_show_share_90"][i], 4),
        "active_weeks_90d": int(at["active_weeks_90"][i]),
        "churn_probability": None if math.isnan(at["churn"][i]) else round(at["churn"][i], 3),
        "channels": members["channels"][i],
        "primary_channel": int(at["primary_channel"][i]) or None,
        "peak_hour": _non_negative(at["peak_hour"][i]),
        "peak_time_of_day": labels["peak_time_of_day"][i],
        "primary_day_of_week": _non_negative(at["primary_day_of_week"][i]),
        "peak_month": _non_negative(at["peak_month"][i]),
        "weekday_pattern": bool(at["weekday_pattern"][i]),
        "public_holidays": members["public_holidays"][i],
        "timeslots": members["timeslots"][i],
        "campaign_types": members["campaign_types"][i],
        "profile_complete": bool(at["profile_complete"][i]),
        "missing_fields": members["missing_fields"][i],
        "segmented_at": local_iso_from_epoch(at["as_of"][i], tz),
    } for i in range(len(rows))]


def _labels(snap: Snapshot, name: str, rows: np.ndarray) -> list:
    vocab = snap.vocab[name]
    return [vocab[code] if code >= 0 else None for code in snap.cols[name][rows].tolist()]


def _members_of(snap: Snapshot, name: str, rows: np.ndarray) -> list[list]:
    if name not in snap.cols:
        return [[] for _ in range(len(rows))]
    vocab = snap.vocab.get(name, [])
    return [[vocab[i] for i in np.flatnonzero(on).tolist() if i < len(vocab)] for on in snap.cols[name][rows]]


def _non_negative(value) -> int | None:
    return int(value) if int(value) >= 0 else None


def inferred(doc: dict) -> dict:
    """Inferred demographics with their confidences (absent ones as None)."""
    stored = doc.get("inferred") or {}
    return {name: stored.get(name) for name in INFERRED}


LISTING_PROJECTION = {"_id": 0, "id_number": 0, "created_at": 0}


_readers: dict[int, ThreadPoolExecutor] = {}


def _reader() -> ThreadPoolExecutor:
    """This process's readers: a pool made before a fork (a preloading server) has no threads in the child."""
    pid = os.getpid()
    if pid not in _readers:
        _readers.clear()
        _readers[pid] = ThreadPoolExecutor(max_workers=4, thread_name_prefix="records")
    return _readers[pid]


def records(company_id: int, snap: Snapshot, rows: np.ndarray, tz: str | None = None) -> list[dict]:
    """The record of each of these rows, in their order: their documents read in one go (a listener without one
    is shown by number), their behaviour column by column."""
    return records_later(company_id, snap, rows, tz)()


def records_later(company_id: int, snap: Snapshot, rows: np.ndarray, tz: str | None = None
                  ) -> Callable[[], list[dict]]:
    """`records`, its documents read in the background meanwhile: what the caller does before calling the answer
    runs while the database reads (a third of a search at 100,000 listeners is that wait)."""
    originators = snap.originators[rows].tolist()
    pending = _reader().submit(read_listeners, company_id, originators, LISTING_PROJECTION)

    def joined() -> list[dict]:
        docs = {d["originator"]: d for d in pending.result()}
        return joined_records(snap, rows, [docs.get(o, {"originator": o}) for o in originators], tz)
    return joined


def joined_records(snap: Snapshot, rows: np.ndarray, docs: list[dict], tz: str | None = None) -> list[dict]:
    """The record of each row from its document (in the same order): declared fields, tags, flags, behaviour
    (times in zone `tz`) and inferred values, the behaviour read column by column for all of them (row by row, an
    export of 100,000 spent 45 s indexing the snapshot's columns)."""
    return [_joined(doc, seen) for doc, seen in zip(docs, behaviours(snap, rows, tz), strict=True)]


def _joined(doc: dict, seen: dict | None) -> dict:
    out = {"originator": doc["originator"]}
    out.update({name: doc.get(name) for name in LISTED})
    out.update({"tags": doc.get("tags") or [], "permission": doc.get("permission"), "opt_in": doc.get("opt_in")})
    out.update(seen or {})
    out["inferred"] = inferred(doc)
    return out
