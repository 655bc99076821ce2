"""Search scores that mean what the contract's defaults promise (docs/decisions.md §5): a score is the share of results
like it that were relevant, measured on the station's own data, so that among results scoring 0.68 or more at least
68% are relevant.

What is ranked (a query's free words) has no known answer, but the station's data gives queries that do: the
name of a show, a tag, an interest, a language, a place or a campaign type, whose answer is the listeners who hold
it, and words its listeners wrote, whose answer is who wrote them (so that 0.68 means as much for a listener's
own words as for a tag). Each such labelled query is run as free words are (core.search.evidence: only listeners
with evidence are answers) over every listener with a vector, its answers labelled relevant or not; a logistic
regression learns how similarity, lexical share and coverage combine, and its values are mapped to the share
relevant by a monotone fit
(core.calibration: bins, pool adjacent violators, the rule of succession). The fit is kept per station and model in
MongoDB, made again once the vectors moved by core.calibration.REFIT_SHARE or it is a day old. Fewer than MIN_SAMPLES
labelled results leave the score at the raw similarity: a station too small to measure claims nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import timedelta

import numpy as np

from core.calibration import Calibration, calibrate, still_stands
from core.clock import as_utc, utcnow
from core.explore.filters import parse_filters
from core.listeners.snapshot import Snapshot
from core.search.evidence import answers, covered
from core.search.evidence import scores as evidence_scores
from core.search.free_words import ALL_OF, holders_of, readings, words_of
from core.search.fusion import Evidence, evidenced
from core.search.index import VectorIndex
from core.search.lexical import LexicalIndex
from core.search.meaning import (
    Meanings,
    background_words,
    floor_keys,
    floors_of,
    meanings,
    station_values,
    value_vectors,
)
from core.search.models import SearchCalibration
from core.search.queries import FILLER
from core.search.vocabulary import Vocabulary

MIN_HOLDERS = 10
"""A value held by fewer listeners makes no labelled query (its answer is too small to measure a ranking by)."""
MOST_HOLDERS = 0.5
"""Nor does one held by more than half the station: nearly every result would be relevant whatever its score."""
MAX_QUERIES, MAX_SAID = 48, 16
SAID = "said"
"""The field of a labelled query of listeners' own words (its answer: who wrote them)."""
FIELDS = ("tags", "timeslot_id", "inferred_interests", "language", "location", "campaign_type")
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
    """How the station's free-word search stands, as last measured on its labelled queries: at which similarity a
    word means each of its values (core.search.meaning), and what an answer's score was worth there (the share of
    answers with that score that were relevant: what bench.search_quality reports and §5 promises)."""

    calibration: Calibration
    floors: dict[str, float] = field(default_factory=dict)  # each value's floor of meaning (core.search.meaning)


@dataclass(frozen=True)
class Ground:
    """What labelled queries run over: the station's snapshot and time zone, its indexes, the vector id of each
    snapshot row (-1: none yet), what its words mean (core.search.meaning) and the model."""

    snap: Snapshot
    tz: str | None
    index: VectorIndex
    lexical: LexicalIndex | None
    row_ids: np.ndarray
    meanings: Meanings | None
    model: object
    own: frozenset[str] = frozenset()  # the words of the station's values and the service's labels


def measured(queries: list[Labelled], vectors: np.ndarray, ground: Ground) -> tuple[list[Evidence], list[np.ndarray]]:
    """Each labelled query run as a search runs free words (core.search.evidence: only listeners with evidence are
    answers) over every listener with a vector: its answers and whether each was relevant. Read by the words the
    listeners' texts hold alone: a value's name is held by its holders' texts, and what the model takes a word to
    mean is not what a label counts (a search scores a listener holding a value its words mean as if they held the
    words: core.search.free_words.worded)."""
    rows = np.flatnonzero(ground.row_ids >= 0)
    ids = ground.row_ids[rows]
    found, relevant = [], []
    for query, vector in zip(queries, vectors):
        read = readings(query.text, rows, ids, ground.snap, ground.tz, ground.lexical, None, ground.model,
                        ground.own)
        cover = covered(read, len(rows))
        at = answers(cover)
        evidence = evidenced(rows[at], ids[at], cover[at], ground.index, ground.lexical, vector, query.text)
        found.append(evidence)
        relevant.append(query.holders[evidence.rows])
    return found, relevant


def fitted_on(found: list[Evidence], relevant: list[np.ndarray]) -> Scorer:
    """What the answers' scores (core.search.evidence.scores) were worth on these labelled results."""
    if not found or not sum(len(e) for e in found):
        return Scorer(calibrate(np.zeros(0), np.zeros(0)))
    scored = np.concatenate([evidence_scores(e.coverage, e.lexical) for e in found])
    return Scorer(calibrate(scored, np.concatenate(relevant)))


def fit(company_id: int, vocab: Vocabulary, ground: Ground) -> Scorer:
    """Fit the station's scoring of free words, with what its words mean measured first on the station's own
    words, and keep it with what it was fitted on."""
    floors = measured_floors(company_id, vocab, ground)
    ground = replace(ground, meanings=meanings(company_id, ground.model, vocab, floors), own=vocab.own_words)
    held = written(ground)
    queries = with_writers(labelled_queries(vocab, ground.snap, ground.tz), ground, held, vocab)
    queries += said_queries(ground, vocab, held)
    vectors = ground.model.embed([q.text for q in queries], kind="query") if queries else np.zeros((0, 1))
    found = fitted_on(*measured(queries, vectors, ground))
    found = replace(found, floors=floors)
    _store(company_id, ground.model.name, found.calibration, ground.index,
           [q.text for q in queries if q.field != SAID], floors=[[key, level] for key, level in floors.items()],
           said_queries=sum(q.field == SAID for q in queries))
    return found


def measured_floors(company_id: int, vocab: Vocabulary, ground: Ground) -> dict[str, float]:
    """Each of the station's values' floor (core.search.meaning) on a sample of what its listeners wrote, under the
    keyed hash of its phrase."""
    values = station_values(vocab)
    vectors = value_vectors(company_id, ground.model, values)
    words = background_words(ground.lexical.said if ground.lexical is not None else [])
    background = ground.model.embed(words, kind="query") if words else np.zeros((0, vectors.shape[1]))
    return {key: round(float(level), 4)
            for key, level in zip(floor_keys(company_id, values), floors_of(vectors, background))}


def written(ground: Ground) -> dict[tuple[str, ...], set[int]]:
    """Which vector ids' listeners wrote each word, and each pair of words side by side (what the labelled queries
    of listeners' words are drawn from); held for the fit only."""
    held: dict[tuple[str, ...], set[int]] = {}
    for at, text in enumerate(ground.lexical.said if ground.lexical is not None else ()):
        words = words_of(text)
        for key in {*((w,) for w in words), *zip(words, words[1:])}:
            held.setdefault(key, set()).add(at)
    return held


def said_queries(ground: Ground, vocab: Vocabulary, held: dict | None = None,
                 at_most: int = MAX_SAID) -> list[Labelled]:
    """Labelled queries of words the station's listeners wrote (none a name of one of its values, nor a word that
    frames a query), whose answer is who wrote them: single words, and pairs of words written side by side,
    answered by who wrote both (what tells a listener who wrote one word of two from one who wrote the pair). So
    that a score means as much for a listener's own words as for a tag or a show. The words, being the
    listeners', are never stored."""
    held = written(ground) if held is None else held
    named = {w for v in station_values(vocab) for w in words_of(v.phrase)} | FILLER
    embedded = max(1, int((ground.row_ids >= 0).sum()))
    fit = [k for k, who in held.items() if not set(k) & named and MIN_HOLDERS <= len(who) <= MOST_HOLDERS * embedded]
    by_size = sorted(fit, key=lambda k: (-len(held[k]), k))
    chosen = [k for k in by_size if len(k) == 1][:at_most] + [k for k in by_size if len(k) == 2][:at_most // 2]
    return [Labelled(" ".join(key), SAID, _on_snapshot(held, key, ground)) for key in chosen]


def with_writers(queries: list[Labelled], ground: Ground, held: dict, vocab: Vocabulary | None = None
                 ) -> list[Labelled]:
    """The labelled queries of the station's values, answered also by who wrote the value's name and by who holds
    another value the name is part of: a listener who wrote "gospel", or who listens to Gospel Sunday, is as much
    an answer to "gospel" as one with the tag (a label counts what the station holds under that name, its
    listeners' words among it)."""
    values = station_values(vocab) if vocab is not None else ()
    out = []
    for query in queries:
        key = tuple(w for w in words_of(query.text) if w not in FILLER)
        if not key:
            out.append(query)
            continue
        holders = query.holders | _on_snapshot(held, key, ground)
        for value in values:
            if set(key) <= set(words_of(value.phrase)):
                holders = holders | holders_of(value, ground.snap, ground.tz)
        out.append(replace(query, holders=holders))
    return out


def _on_snapshot(held: dict, key: tuple[str, ...], ground: Ground) -> np.ndarray:
    """Who wrote every word of `key`, as a bool per snapshot row."""
    ids = len(ground.lexical.said) if ground.lexical is not None else 0
    who = set.intersection(*(held.get((w,), set()) for w in key))
    by_id = np.zeros(ids, dtype=bool)
    by_id[list(who)] = True
    holders = np.zeros(len(ground.snap), dtype=bool)
    known = (ground.row_ids >= 0) & (ground.row_ids < ids)
    holders[known] = by_id[ground.row_ids[known]]
    return holders


def kept(company_id: int, model: str, vectors: int, seq: int | None = None) -> Scorer | None:
    """The station's stored scoring of free text, when it still stands (`standing`)."""
    doc = standing(company_id, model, vectors, seq)
    if doc is None or "floors" not in doc:
        return None  # fitted before words were evidence: fitted again
    return Scorer(_calibration_of(doc), {phrase: level for phrase, level in doc["floors"]})


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
