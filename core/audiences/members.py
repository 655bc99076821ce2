"""An audience's members as producers read them: each stored member joined with the listener's profile from the
station's snapshot (segment, demographics, inferred values, channels, opt-in and permission), and the erasure hook
that takes an erased listener out of every audience.

Members are looked up in the snapshot by row, never by reading every listener; a member that is not there (erased
since, under a pseudonym now) is left out, so an erased listener never shows even if the hook was missed.
"""
from __future__ import annotations

import numpy as np

from core.audiences.models import Audience
from core.explore.operations import Selection
from core.explore.records import reachable
from core.listeners import finding
from core.listeners.fields import INFERRED_SINGLE
from core.listeners.snapshot import Snapshot
from core.search.queries import understand
from core.search.vocabulary import vocabulary_of
from core.stations.defaults import channel_name
from core.stations.models import Company

CATEGORIES = ("segment", "gender", "age_group", "language", "location", *INFERRED_SINGLE)
FLAGS = ("opt_in", "permission")
PROFILE = (*CATEGORIES, "inferred_interests", "channels", *FLAGS, "reachable")
"""What each member shows besides originator, score and query, in this order (the CSV's columns too)."""


def live_rows(snap: Snapshot, members: list[dict]) -> tuple[list[dict], np.ndarray]:
    """The members still in the snapshot and not erased, with their rows."""
    if not len(snap) or not members:
        return [], np.empty(0, dtype=np.int64)
    rows = snap.rows_of([member["originator"] for member in members])
    live = rows >= 0
    if "erased" in snap.cols:
        live[live] = ~snap.cols["erased"][rows[live]]
    return [member for member, kept in zip(members, live.tolist()) if kept], rows[live]


def enriched(snap: Snapshot, company: Company, members: list[dict], queries: list[str]) -> list[dict]:
    """Each live member with its profile, in the stored order (best first)."""
    members, rows = live_rows(snap, members)
    if not members:
        return []
    columns = {name: _labels(snap, name, rows) for name in CATEGORIES}
    columns["inferred_interests"] = _lists(snap, "inferred_interests", rows, None)
    columns["channels"] = _lists(snap, "channels", rows, company.channel_names())
    columns.update({name: _flags(snap.cols[name][rows]) for name in FLAGS})
    columns["reachable"] = reachable(snap, rows).tolist()
    return [{"originator": member["originator"], "score": member["score"], "query": _query(queries, member),
             **{name: columns[name][i] for name in PROFILE}} for i, member in enumerate(members)]


def trait_counts(snap: Snapshot, company: Company, theme: str, members: list[dict]) -> list[dict]:
    """How many live members have each thing the theme asks for ("148 of 150 have the gospel tag"), read as search
    reads it (core.search.queries): [{"words", "field", "labels", "members"}], one per ask."""
    kept, rows = live_rows(snap, members)
    if not kept:
        return []
    understood = understand(vocabulary_of(Selection(company, snap, np.ones(len(snap), dtype=bool))), theme)
    return [{"words": ask.words, "field": ask.criteria[0][0], "labels": [label for labels in ask.labels
                                                                         for label in labels],
             "members": int(ask.mask(snap, company.timezone)[rows].sum())} for ask in understood.asks]


def erase_members(company_id: int, originator: str, pseudonym: str = "") -> int:
    """Remove an erased listener from every audience of the company, from the last refresh's lists of who joined
    and left, and from any saved strategy that filtered on its originator (which then names the pseudonym, which no
    filter ever matches); returns the audiences cleaned."""
    audiences, forms = Audience._get_collection(), list(finding.lookup(company_id, [originator]))
    named = {"company_id": company_id, "strategy.filters.originator": {"$in": forms}}
    cleaned = {doc["_id"] for doc in audiences.find({"company_id": company_id, "members.originator": {"$in": forms}},
                                                    {"_id": 1})}
    cleaned |= {doc["_id"] for doc in audiences.find(named, {"_id": 1})}
    for form in forms:  # stored under its key, or plain before keys
        audiences.update_many({"_id": {"$in": sorted(cleaned)}}, {"$pull": {"members": {"originator": form}}})
        for listed in ("changes.joined", "changes.left"):  # only where it is a list that holds them
            for doc in audiences.find({"company_id": company_id, listed: form}, {"_id": 1}):
                audiences.update_one({"_id": doc["_id"]}, {"$pull": {listed: form}})
                cleaned.add(doc["_id"])
    audiences.update_many(named, {"$set": {"strategy.filters.originator": pseudonym or "erased"}})
    return len(cleaned)


def _query(queries: list[str], member: dict) -> str | None:
    index = member.get("query")
    return queries[index] if isinstance(index, int) and 0 <= index < len(queries) else None


def _labels(snap: Snapshot, name: str, rows: np.ndarray) -> list:
    """A categorical column's values at these rows (None where absent or not a column of this snapshot)."""
    if name not in snap.cols:
        return [None] * len(rows)
    values = np.array([str(v) for v in snap.vocab.get(name, [])] + [None], dtype=object)
    return values[snap.cols[name][rows]].tolist()


def _lists(snap: Snapshot, name: str, rows: np.ndarray, names: dict | None) -> list[list]:
    """A multi-valued column's values at each row, by name when `names` gives them (channel ids -> names)."""
    if name not in snap.cols:
        return [[] for _ in rows]
    vocab = [channel_name(names, int(v)) if names is not None else str(v) for v in snap.vocab.get(name, [])]
    return [[vocab[i] for i in np.flatnonzero(used)] for used in snap.cols[name][rows]]


def _flags(values: np.ndarray) -> list:
    """Stored flags (1, 0, -1 for unknown) as true, false and null."""
    return [None if v < 0 else bool(v) for v in values.tolist()]
