"""Search scores that mean what the contract's defaults promise (decisions.md §5): a score is the share of results
like it that were relevant, measured on the station's own data, so that among results scoring 0.68 or more at least
68% are relevant.

What meaning ranks (a query's free text) has no known answer, but the station's data gives queries that do: the
name of a show, a tag, an interest, a language, a place or a campaign type, whose answer is the listeners who hold
it. Each such labelled query is run by meaning alone over every listener with a vector, its TOP results labelled
relevant or not, and the similarities of all of them are mapped to the share relevant by a monotone fit
(core.calibration: bins, pool adjacent violators, the rule of succession). The fit is kept per station and model in
MongoDB, made again once the vectors moved by REFIT_SHARE or it is a day old, and the ranking stays the
similarity's order. Fewer than MIN_SAMPLES labelled results leave the score at the raw similarity, held under
CAP: a station too small to measure claims nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import numpy as np

from core.calibration import Calibration, calibrate
from core.clock import as_utc, utcnow
from core.explore.filters import parse_filters
from core.listeners.snapshot import Snapshot
from core.search.index import VectorIndex
from core.search.models import SearchCalibration
from core.search.vocabulary import Vocabulary

MIN_HOLDERS = 10
"""A value held by fewer listeners makes no labelled query (its answer is too small to measure a ranking by)."""
MOST_HOLDERS = 0.5
"""Nor does one held by more than half the station: nearly every result would be relevant whatever its score."""
MAX_QUERIES, TOP = 48, 200
FIELDS = ("tags", "timeslot_id", "inferred_interests", "language", "location", "campaign_type")
ALL_OF = ("tags", "inferred_interests")
REFIT_SHARE, MAX_AGE = 0.01, timedelta(days=1)


def similarity_of(cosine: np.ndarray) -> np.ndarray:
    """Atlas's vector-search score: (1 + cosine) / 2, in [0, 1]."""
    return np.clip((1.0 + np.asarray(cosine, dtype=np.float64)) / 2.0, 0.0, 1.0)


@dataclass(frozen=True)
class Labelled:
    """A query whose answer the station's data knows: its text, the filter that answers it and who holds it."""

    text: str
    field: str
    holders: np.ndarray  # bool per snapshot row


def labelled_queries(vocab: Vocabulary, snap: Snapshot, tz: str | None) -> list[Labelled]:
    """Up to MAX_QUERIES labelled queries, taken in turn from each kind of value, most held first."""
    kinds = [_of_field(name, vocab, snap, tz) for name in FIELDS]
    out: list[Labelled] = []
    while any(kinds) and len(out) < MAX_QUERIES:
        for kind in kinds:
            if kind and len(out) < MAX_QUERIES:
                out.append(kind.pop(0))
    return out


def _of_field(name: str, vocab: Vocabulary, snap: Snapshot, tz: str | None) -> list[Labelled]:
    values = list(vocab.shows) if name == "timeslot_id" else vocab.values.get(name, [])
    found = []
    for value in values:
        holders = parse_filters({name: value if name in ALL_OF else [value]}).mask(snap, tz)
        if MIN_HOLDERS <= holders.sum() <= MOST_HOLDERS * len(snap):
            found.append(Labelled(_text(name, value, vocab), name, holders))
    return sorted(found, key=lambda q: -int(q.holders.sum()))


def _text(name: str, value, vocab: Vocabulary) -> str:
    """What a producer would type for the value."""
    if name == "timeslot_id":
        return vocab.shows[value]
    return str(value).replace("_", " ")


def measured(queries: list[Labelled], vectors: np.ndarray, index: VectorIndex, row_ids: np.ndarray,
             top: int = TOP) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each labelled query run by meaning over every listener with a vector: the similarities of its `top` results,
    whether each was relevant, and which query each came from."""
    rows = np.flatnonzero(row_ids >= 0)
    position = dict(zip(row_ids[rows].tolist(), rows.tolist()))
    sims, relevant, which = [], [], []
    for n, (query, vector) in enumerate(zip(queries, vectors)):
        cosines, found = index.search(vector, top, row_ids[rows])
        found_rows = np.array([position[i] for i in found.tolist()], dtype=np.int64)
        sims.append(similarity_of(cosines))
        relevant.append(query.holders[found_rows] if len(found_rows) else np.zeros(0, dtype=bool))
        which.append(np.full(len(found_rows), n))
    if not sims:
        return np.zeros(0), np.zeros(0, dtype=bool), np.zeros(0, dtype=int)
    return np.concatenate(sims), np.concatenate(relevant), np.concatenate(which)


def fit(company_id: int, model: str, queries: list[Labelled], vectors: np.ndarray, index: VectorIndex,
        row_ids: np.ndarray) -> Calibration:
    """Fit the station's map from similarity to share relevant, and keep it with what it was fitted on."""
    sims, relevant, _ = measured(queries, vectors, index, row_ids)
    found = calibrate(sims, relevant)
    SearchCalibration._get_collection().replace_one(
        {"company_id": company_id, "model": model},
        {"company_id": company_id, "model": model, "upper": found.upper.tolist(), "accuracy": found.accuracy.tolist(),
         "samples": found.samples, "queries": [q.text for q in queries], "vectors": int(len(index)),
         "seq": int(index.seq), "made_at": utcnow()}, upsert=True)
    return found


def kept(company_id: int, model: str, vectors: int, seq: int | None = None) -> Calibration | None:
    """The station's stored fit, when it still stands: less than MAX_AGE old, and the vectors moved since by at most
    REFIT_SHARE of those it was fitted on, counting those added or removed and those written again since (`seq`, the
    index's write counter: a listener whose text changed is embedded again)."""
    doc = SearchCalibration._get_collection().find_one({"company_id": company_id, "model": model}, {"_id": 0})
    if doc is None or as_utc(doc["made_at"]) < utcnow() - MAX_AGE:
        return None
    rewritten = 0 if seq is None else max(0, seq - doc.get("seq", seq)) - max(0, vectors - doc["vectors"])
    if abs(doc["vectors"] - vectors) + max(0, rewritten) > max(1, REFIT_SHARE * doc["vectors"]):
        return None
    return Calibration(np.array(doc["upper"]), np.array(doc["accuracy"]), doc["samples"])
