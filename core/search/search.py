"""Search (look-alikes: core.search.lookalikes). A query is first understood in the station's own words
(core.search.queries): what it asks of a listener is met exactly, within the shared filters. Its free words, if any,
answer only the listeners who hold what they are about (core.search.evidence: the listener wrote them, or their
English, or holds a value of the station the model finds they mean), never the nearest by meaning alone; a query
whose words nobody holds answers nobody and offers the station's closest values. Every answer is scored from 0.70 by
how strongly it holds the query (core.search.bound for asks met exactly), counts every listener who matches with the
limit apart, keeps the raw `similarity` ((1 + cos) / 2, Atlas's scale: docs/decisions.md §5), and says how many of
its candidates have a vector yet.
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.operations import Selection, select
from core.explore.records import records_later
from core.search import bound, calibration, progress, why
from core.search.embeddings import embedder
from core.search.evidence import answers, covered
from core.search.evidence import scores as evidence_scores
from core.search.free_words import meant_of, readings, worded
from core.search.fusion import evidenced
from core.search.glosses import glossed
from core.search.index import VectorIndex, similarity_of
from core.search.kept import KeptPerStation
from core.search.lexical_store import current_lexical
from core.search.located import with_location
from core.search.meaning import Meanings, meanings
from core.search.process_indexes import current_index
from core.search.queries import Understood, understand
from core.search.texts import listener_texts
from core.search.vocabulary import vocabulary_of

SEARCH_LIMIT = (1, 1000)
MIN_SCORE, LIMIT = 0.68, 100
"""The contract's defaults of a search (and of the searches an audience saves): the lowest score returned, the share
of results like it that were relevant on the station's labelled queries; how many listeners at most."""
@dataclass(frozen=True)
class Ranked:
    """Snapshot rows ranked by score, best first, with the raw similarity of each (NaN: no vector yet)."""

    rows: np.ndarray
    scores: np.ndarray
    best: float | None = None  # the best score among the candidates, kept or not (what a lower min_score would show)
    similarity: np.ndarray | None = None
    calibrated: bool = False  # scores are the station's measured share relevant (or 1 for a query met exactly)
    total: int | None = None  # how many match at min_score, of which `rows` are the first `limit`
    meant: tuple[dict, ...] = ()  # what the free words were taken to mean among the station's values
    suggestions: tuple[dict, ...] = ()  # with no evidence anywhere: the station's values closest to the query

    @property
    def similarities(self) -> np.ndarray:
        return self.scores if self.similarity is None else self.similarity


@dataclass(frozen=True, eq=False)
class Look:
    """A station's indexes as one answer reads them, fetched once at its start (each fetch asks the database whether
    it is current): the vector index, the vector id of every snapshot row (-1: none yet) and, when first needed, the
    lexical index. Every step of the answer reads the same ones, so an index caught up midway never mixes in."""

    sel: Selection
    index: VectorIndex
    ids: np.ndarray

    @functools.cached_property
    def lexical(self):
        return current_lexical(self.sel.company.company_id, self.index, snap=self.sel.snap)

    def ids_of(self, rows: np.ndarray) -> np.ndarray:
        return self.ids[rows]


def look_at(sel: Selection) -> Look:
    """The station's indexes for one answer over `sel` (or any narrowing of it: the rows are the snapshot's)."""
    index = current_index(sel.company.company_id)
    return Look(sel, index, _row_ids(sel.snap, index))




def search_listeners(company_id: int, q: str, flt: ListenerFilter, location: str | None = None,
                     min_score: float = MIN_SCORE, limit: int = LIMIT, as_text: tuple[str, ...] = ()) -> dict:
    """Listeners matching the filters and every ask of `q`, best first, each with why; `as_text`: stretches of `q`
    to read as free text rather than as an ask."""
    query = (q or "").strip()
    if not query:
        raise ValidationFailed.one(["query", "q"], "Say what to look for: q cannot be empty.")
    sel, place = with_location(select(company_id, flt), location)
    understood = understand(vocabulary_of(sel), query, as_text)
    model, look = embedder(), look_at(sel)
    asked = within(sel, understood)
    ranked = retrieve(asked, understood, model.embed([understood.ranked_text], kind="query")[0], limit, min_score,
                      model, look)
    return {"company_id": company_id, "q": query, "model": model.name, "min_score": min_score, "limit": limit,
            "understood": {**understood.as_dict(), "meant": list(ranked.meant)}, "location": place,
            "calibrated": ranked.calibrated,
            **coverage(asked, look), "total": matching(ranked), "shown": len(ranked.rows), "best_score": ranked.best,
            "suggestions": list(ranked.suggestions), "results": results(asked, ranked, query, look)}


def matching(ranked: Ranked) -> int:
    """How many listeners match, however many the limit shows."""
    return len(ranked.rows) if ranked.total is None else ranked.total


def within(sel: Selection, understood: Understood) -> Selection:
    """The selected listeners who meet every ask of the query, those named together by the same interactions."""
    asked = Selection(sel.company, sel.snap, sel.mask & understood.mask(sel.snap, sel.company.timezone))
    return bound.narrowed(asked, understood.bound_facets()) if understood.bound else asked


def retrieve(asked: Selection, understood: Understood, vector: np.ndarray, limit: int, min_score: float,
             model, look: Look) -> Ranked:
    """The best of the listeners who meet every ask: all of them when the query has no free words (scored by how
    strongly), else those with evidence for its free words (core.search.evidence) scoring `min_score` or more, as
    the station's calibration scores them."""
    if understood.asks and not understood.free_text:
        return met(asked, vector, limit, look, understood.loose_facets())
    return answered(asked, understood, vector, limit, min_score, score_map(asked, model, look), model, look)


def answered(sel: Selection, understood: Understood, vector: np.ndarray, limit: int, min_score: float,
             scorer: calibration.Scorer, model, look: Look) -> Ranked:
    """The selected listeners with evidence for the free words, scored by the station's scorer (by the raw
    similarity on a station too small to measure), best first; none, with the station's closest values offered,
    when nobody holds any."""
    ids = look.ids_of(sel.rows)
    found = readings(understood.free_text, sel.rows, ids, sel.snap, sel.company.timezone, look.lexical,
                     station_meanings(sel, model, scorer), model, vocabulary_of(sel).own_words)
    cover = covered(found, len(sel.rows))
    at = answers(cover)
    evidence = evidenced(sel.rows[at], ids[at], cover[at], look.index, look.lexical, vector,
                         worded(understood.free_text, found))
    scores = evidence_scores(evidence.coverage, evidence.lexical)
    order = np.lexsort((-evidence.similarity, -scores))
    best = float(scores[order[0]]) if len(order) else None
    order = order[scores[order] >= min_score]
    offered = () if len(at) else _suggested(sel, model, scorer, vector)
    return Ranked(evidence.rows[order[:limit]], scores[order[:limit]], best, evidence.similarity[order[:limit]],
                  True, len(order), tuple(meant_of(found)), offered)


def station_meanings(sel: Selection, model, scorer: calibration.Scorer) -> Meanings:
    """What words mean among the station's values, at the floors its calibration measured."""
    return meanings(sel.company.company_id, model, vocabulary_of(sel), scorer.floors)


def _suggested(sel: Selection, model, scorer: calibration.Scorer, vector: np.ndarray) -> tuple[dict, ...]:
    """The station's values closest to a query nobody has evidence for."""
    return tuple({"field": v.field, "value": v.value, "label": v.label, "similarity": round(s, 3)}
                 for v, s in station_meanings(sel, model, scorer).closest(vector))


def met(sel: Selection, vector: np.ndarray, limit: int, look: Look, loose: list[bound.Facet] | None = None) -> Ranked:
    """Listeners who meet every ask of a query without free text: all are answers, the strongest matches first
    (core.search.bound; `loose`: the query's asks about interactions bound to no other), each with its similarity
    (NaN: not embedded yet)."""
    rows, scores = bound.ranked_exact(sel, loose or [])
    total = len(rows)
    rows, scores = rows[:limit].astype(np.int64), scores[:limit]
    ids = look.ids_of(rows)
    similarity = np.full(len(rows), np.nan)
    if (ids >= 0).any():
        vectors = look.index.vectors_of(ids[ids >= 0])
        similarity[ids >= 0] = similarity_of(vectors @ np.asarray(vector, dtype=np.float32))
    return Ranked(rows, scores, float(scores[0]) if len(rows) else None, similarity, True, total)


def coverage(sel: Selection, look: Look | None = None) -> dict:
    """{"candidates": the selected listeners, "indexed": how many of them have a vector, "seconds_left": about how
    long until the embedding under way has read them all (None when none is waited for, or its pace is not known
    yet)}: every answer that ranks by meaning says it, so that a station still being embedded is never read as
    "nobody matched"."""
    look = look or look_at(sel)
    candidates, indexed = int(sel.mask.sum()), int((look.ids_of(sel.rows) >= 0).sum())
    waiting = indexed < candidates
    return {"candidates": candidates, "indexed": indexed,
            "seconds_left": progress.seconds_left(sel.company.company_id, embedder().name) if waiting else None}


_maps: KeptPerStation[calibration.Scorer] = KeptPerStation()
MAP_SECONDS = 60


def score_map(sel: Selection, model, look: Look) -> calibration.Scorer:
    """The station's scoring of free words (core.search.calibration): the stored fit while it stands (asked of the
    database at most every MAP_SECONDS), else fitted now on the station's labelled queries; `trusted` False when
    the station is too small to measure (scores are then the raw similarity, and answers say so)."""
    company_id, index = sel.company.company_id, look.index

    def stored_or_fitted() -> calibration.Scorer:
        fitted = calibration.kept(company_id, model.name, len(index), index.seq)
        if fitted is not None:
            return fitted
        ground = calibration.Ground(sel.snap, sel.company.timezone, index, look.lexical, look.ids, None, model)
        return calibration.fit(company_id, vocabulary_of(sel), ground)

    key = (model.name, index.seq, len(index), int(time.monotonic() // MAP_SECONDS))
    return _maps.get(company_id, (index,), key, stored_or_fitted)


_row_ids_kept: KeptPerStation[np.ndarray] = KeptPerStation()


def _row_ids(snap, index) -> np.ndarray:
    """The vector id of every snapshot row (-1: none yet), kept per station until the snapshot or the index
    changes: looking 100,000 listeners up costs more than the search itself."""
    return _row_ids_kept.get(snap.company_id, (snap, index), (len(snap), index.version),
                             lambda: index.ids_of(snap.originators))


def results(sel: Selection, ranked: Ranked, query: str | None, look: Look | None = None) -> list[dict]:
    """Each ranked listener's record, score and what made it match (search, similar, a custom segment's queries)."""
    if not len(ranked.rows):
        return []
    listed = records_later(sel.company.company_id, sel.snap, ranked.rows, sel.company.timezone)
    meant = " ".join(v["label"].replace("_", " ") for m in ranked.meant for v in m["values"])
    stems = why.stems(glossed(query) + " " + meant) if query else set()
    matches = [why.parts(stems, text)
               for text in listener_texts(sel.snap, ranked.rows, sel.company, _said(ranked.rows, look or look_at(sel)))]
    return [{**found, "score": round(float(score), 4), "similarity": _rounded(similarity), "matched": match}
            for found, score, similarity, match in zip(listed(), ranked.scores, ranked.similarities, matches)]


def _said(rows: np.ndarray, look: Look) -> list[str | None]:
    """What each of these rows' listeners said as the lexical index holds it (None: no vector yet, to be read):
    a result explains itself by what was indexed, and reading 100 listeners' interactions again would cost a
    third of a search."""
    ids = look.ids_of(rows)
    known = look.lexical.said_of(ids)
    return [words if at >= 0 else None for at, words in zip(ids.tolist(), known)]


def _rounded(value: float) -> float | None:
    return None if np.isnan(value) else round(float(value), 4)
