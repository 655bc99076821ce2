"""Search by meaning and look-alikes: the shared filters narrow the candidates, FAISS ranks them (never top-k then
filter, which would silently return fewer), scores are Atlas-compatible (1 + cos) / 2 (decisions.md §5).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from core.errors import ListenerNotFound, ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.operations import LISTING_PROJECTION, Selection, select
from core.explore.records import record
from core.listeners.declared import read_listeners
from core.search.embeddings import embedder
from core.search.texts import listener_texts
from core.search.vectors import current_index, refresh_embeddings

SEARCH_LIMIT, SIMILAR_LIMIT = (1, 1000), (1, 1000)
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
STOPWORDS = frozenset("the and who for with that this are was from they their them like likes love loves lovers "
                      "listeners listener people fans fan who which into onto about more most".split())


@dataclass(frozen=True)
class Ranked:
    """Snapshot rows ranked by score, best first."""

    rows: np.ndarray
    scores: np.ndarray
    best: float | None = None  # the best score among the candidates, kept or not (what a lower min_score would show)


def score_of(cosine: np.ndarray) -> np.ndarray:
    """Atlas's vector-search score: (1 + cosine) / 2, in [0, 1]."""
    return np.clip((1.0 + np.asarray(cosine, dtype=np.float64)) / 2.0, 0.0, 1.0)


def search_listeners(company_id: int, q: str, flt: ListenerFilter, location: str | None = None,
                     min_score: float = 0.68, limit: int = 100) -> dict:
    """Listeners matching the filters whose text is closest in meaning to `q`, best first, each with why."""
    query = (q or "").strip()
    if not query:
        raise ValidationFailed.one(["query", "q"], "Say what to look for: q cannot be empty.")
    sel = _with_location(select(company_id, flt), location)
    model = embedder()
    ranked = rank(sel, model.embed([query], kind="query")[0], limit, min_score)
    return {"company_id": company_id, "q": query, "model": model.name, "min_score": min_score, "limit": limit,
            "candidates": int(sel.mask.sum()), "total": len(ranked.rows), "best_score": ranked.best,
            "results": results(sel, ranked, query)}


def similar_listeners(company_id: int, originator: str, exclude_segment: str | None = None,
                      min_score: float = 0.75, limit: int = 20) -> dict:
    """Listeners ranked by how alike their vectors are to this listener's; never the listener itself."""
    sel = select(company_id, ListenerFilter())
    row = sel.snap.row_of(originator) if len(sel.snap) else None
    if row is None or not sel.mask[row]:
        raise ListenerNotFound.of(originator)
    index = current_index(company_id)
    own = index.ids_of(np.array([originator]))[0]
    if own < 0:  # imported moments ago, before the background embedding reached it
        refresh_embeddings(company_id, [originator])
        index = current_index(company_id)
        own = index.ids_of(np.array([originator]))[0]
    if own < 0:  # the embedding provider made no vector for it: nobody can be said to be alike
        return {"company_id": company_id, "originator": originator, "exclude_segment": exclude_segment,
                "min_score": min_score, "limit": limit, "total": 0, "results": []}
    mask = sel.mask.copy()
    mask[row] = False
    if exclude_segment:
        mask &= sel.snap.labels("segment") != exclude_segment
    ranked = rank(Selection(sel.company, sel.snap, mask), index.vectors_of(np.array([own]))[0], limit, min_score)
    return {"company_id": company_id, "originator": originator, "exclude_segment": exclude_segment,
            "min_score": min_score, "limit": limit, "total": len(ranked.rows),
            "results": results(Selection(sel.company, sel.snap, mask), ranked, None)}


def rank(sel: Selection, vector: np.ndarray, limit: int, min_score: float) -> Ranked:
    """The `limit` best of the selected rows with a vector, by score, at least `min_score`."""
    index = current_index(sel.company.company_id)
    rows = sel.rows
    ids = _row_ids(sel.snap, index)[rows]
    rows, ids = rows[ids >= 0], ids[ids >= 0]
    cosines, found = index.search(vector, limit, ids)
    scores = score_of(cosines)
    keep = scores >= min_score
    position = dict(zip(ids.tolist(), rows.tolist()))
    return Ranked(np.array([position[i] for i in found[keep].tolist()], dtype=np.int64), scores[keep],
                  round(float(scores[0]), 4) if len(scores) else None)


_row_ids_cache: dict[int, tuple] = {}


def _row_ids(snap, index) -> np.ndarray:
    """The vector id of every snapshot row (-1: none yet), kept per station until the snapshot or the index
    changes: looking 100,000 listeners up costs more than the search itself."""
    key = (id(snap), len(snap), id(index), index.version)
    found = _row_ids_cache.get(snap.company_id)
    if found is None or found[0] != key:
        found = (key, index.ids_of(snap.originators))
        _row_ids_cache[snap.company_id] = found
    return found[1]


def _with_location(sel: Selection, location: str | None) -> Selection:
    """Search's `location`: a partial, case-insensitive match on the declared location (the contract's rule for
    search; the shared filters match locations exactly)."""
    if not location or not location.strip() or not len(sel.snap):
        return sel
    needle = location.strip().casefold()
    codes = [i for i, value in enumerate(sel.snap.vocab.get("location", [])) if needle in str(value).casefold()]
    return Selection(sel.company, sel.snap, sel.mask & np.isin(sel.snap.cols["location"], codes))


def results(sel: Selection, ranked: Ranked, query: str | None) -> list[dict]:
    """Each ranked listener's record, score and what made it match (search, similar, a custom segment's queries)."""
    if not len(ranked.rows):
        return []
    snap = sel.snap
    originators = snap.originators[ranked.rows].tolist()
    docs = {d["originator"]: d for d in read_listeners(sel.company.company_id, originators,
                                                       projection=LISTING_PROJECTION)}
    texts = listener_texts(snap, ranked.rows, sel.company)
    return [{**record(docs.get(o, {"originator": o}), snap, int(row), sel.company.timezone),
             "score": round(float(score), 4), "matched": matched(query, text)}
            for o, row, score, text in zip(originators, ranked.rows.tolist(), ranked.scores, texts)]


def matched(query: str | None, text: str) -> list[str]:
    """The parts of a listener's text that share a word with the query (words compared by their first five letters,
    so that "gospel" meets "Gospel Sunday" and "competitions" meets "competition"); without shared words, the
    listener's leading traits (a match in meaning, not in words)."""
    parts = [part.strip() for part in text.split(". ") if part.strip()]
    if query:
        stems = {word[:5] for word in WORD.findall(query.casefold()) if word not in STOPWORDS}
        hits = [part for part in parts if stems & {w[:5] for w in WORD.findall(part.casefold())}]
        if hits:
            return hits[:4]
    return parts[:3]
