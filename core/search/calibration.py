"""Search scores that mean what the contract's defaults promise (docs/decisions.md §5): a score is the share of results
like it that were relevant, measured on the station's own data, so that among results scoring 0.68 or more at least
68% are relevant.

What is ranked (a query's free text) has no known answer, but the station's data gives queries that do: the
name of a show, a tag, an interest, a language, a place or a campaign type, whose answer is the listeners who hold
it. Each such labelled query is run as free text is (core.search.fusion: the TOP best by meaning and by words,
pooled) over every listener with a vector, its results labelled relevant or not; a logistic regression learns how
similarity and lexical share combine, and its values are mapped to the share relevant by a monotone fit
(core.calibration: bins, pool adjacent violators, the rule of succession). The fit is kept per station and model in
MongoDB, made again once the vectors moved by core.calibration.REFIT_SHARE or it is a day old. Fewer than MIN_SAMPLES
labelled results leave the score at the raw similarity: a station too small to measure claims nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import numpy as np

from core.calibration import Calibration, calibrate, still_stands
from core.clock import as_utc, utcnow
from core.explore.filters import parse_filters
from core.listeners.snapshot import Snapshot
from core.search.fusion import Combination, Evidence, gather, learned
from core.search.index import VectorIndex
from core.search.lexical import LexicalIndex
from core.search.models import SearchCalibration
from core.search.vocabulary import Vocabulary

MIN_HOLDERS = 10
"""A value held by fewer listeners makes no labelled query (its answer is too small to measure a ranking by)."""
MOST_HOLDERS = 0.5
"""Nor does one held by more than half the station: nearly every result would be relevant whatever its score."""
MAX_QUERIES, TOP = 48, 200
FIELDS = ("tags", "timeslot_id", "inferred_interests", "language", "location", "campaign_type")
ALL_OF = ("tags", "inferred_interests")
MAX_AGE = timedelta(days=1)


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


@dataclass(frozen=True)
class Scorer:
    """The station's scoring of free text: the learned combination of similarity and lexical share, and what its
    value was worth (the share relevant) on the station's labelled queries."""

    combination: Combination
    calibration: Calibration

    @property
    def trusted(self) -> bool:
        return self.calibration.trusted

    def scores(self, evidence: Evidence) -> np.ndarray:
        """The calibrated score of each pooled candidate."""
        return self.calibration.confidences(self.combination.raw(evidence))


def measured(queries: list[Labelled], vectors: np.ndarray, index: VectorIndex, lexical: LexicalIndex | None,
             row_ids: np.ndarray, top: int = TOP) -> tuple[list[Evidence], list[np.ndarray]]:
    """Each labelled query run over every listener with a vector, by meaning and by words (core.search.fusion):
    its pooled results and whether each was relevant."""
    rows = np.flatnonzero(row_ids >= 0)
    found, relevant = [], []
    for query, vector in zip(queries, vectors):
        evidence = gather(rows, row_ids[rows], index, lexical, vector, query.text, top)
        found.append(evidence)
        relevant.append(query.holders[evidence.rows])
    return found, relevant


def fitted_on(found: list[Evidence], relevant: list[np.ndarray]) -> Scorer:
    """The combination learned on these results, and its calibration."""
    if not found or not sum(len(e) for e in found):
        return Scorer(Combination(np.array([0.0, 1.0, 0.0])), calibrate(np.zeros(0), np.zeros(0)))
    features = np.vstack([e.features() for e in found])
    right = np.concatenate(relevant)
    combination = learned(features, right)
    return Scorer(combination, calibrate(np.concatenate([combination.raw(e) for e in found]), right))


def fit(company_id: int, model: str, queries: list[Labelled], vectors: np.ndarray, index: VectorIndex,
        lexical: LexicalIndex | None, row_ids: np.ndarray) -> Scorer:
    """Fit the station's scoring of free text, and keep it with what it was fitted on."""
    found = fitted_on(*measured(queries, vectors, index, lexical, row_ids))
    _store(company_id, model, found.calibration, index, [q.text for q in queries],
           weights=found.combination.weights.tolist())
    return found


def kept(company_id: int, model: str, vectors: int, seq: int | None = None) -> Scorer | None:
    """The station's stored scoring of free text, when it still stands (`standing`)."""
    doc = standing(company_id, model, vectors, seq)
    if doc is None or "weights" not in doc:
        return None
    return Scorer(Combination(np.array(doc["weights"])), _calibration_of(doc))


def standing(company_id: int, model: str, vectors: int, seq: int | None = None) -> dict | None:
    """A stored fit, when it still stands: less than MAX_AGE old, and the vectors moved since by at most
    core.calibration.REFIT_SHARE of those it was fitted on (`still_stands`), counting those added or removed and those
    written again since (`seq`, the index's write counter: a listener whose text changed is embedded again)."""
    doc = SearchCalibration._get_collection().find_one({"company_id": company_id, "model": model}, {"_id": 0})
    if doc is None or as_utc(doc["made_at"]) < utcnow() - MAX_AGE:
        return None
    rewritten = 0 if seq is None else max(0, seq - doc.get("seq", seq)) - max(0, vectors - doc["vectors"])
    if not still_stands(doc["vectors"], abs(doc["vectors"] - vectors) + max(0, rewritten)):
        return None
    return doc


def _calibration_of(doc: dict) -> Calibration:
    return Calibration(np.array(doc["upper"]), np.array(doc["accuracy"]), doc["samples"])


def _store(company_id: int, model: str, found: Calibration, index: VectorIndex, queries: list[str],
           **extra) -> None:
    SearchCalibration._get_collection().replace_one(
        {"company_id": company_id, "model": model},
        {"company_id": company_id, "model": model, **extra, "upper": found.upper.tolist(),
         "accuracy": found.accuracy.tolist(), "samples": found.samples, "queries": queries,
         "vectors": int(len(index)), "seq": int(index.seq), "made_at": utcnow()}, upsert=True)
