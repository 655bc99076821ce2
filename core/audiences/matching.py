"""A strategy's queries run through semantic search within the filters, and merged: each listener keeps the best
score any query gave it (and which query that was), cut at min_score and limit, best first.

Each query takes its own `limit` best (core.search.search.rank: filters narrow the candidates first), which is enough:
a listener among the merged `limit` best is among the `limit` best of the query that scored it highest.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.explore.operations import Selection
from core.search.embeddings import embedder
from core.search.search import Ranked, rank, results

DECIMALS = 4  # scores as answers show them (core.search.search rounds alike)
HALF_STEP = 0.5 * 10 ** -DECIMALS


@dataclass(frozen=True)
class Matched:
    """Snapshot rows of the merged members, best first, with each one's score and the index of its query."""

    rows: np.ndarray
    scores: np.ndarray
    queries: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)

    def per_query(self, queries: list[str]) -> list[dict]:
        """Each query with how many members it gave best: [{"query", "members"}]."""
        return per_query(self.queries.tolist(), queries)


def per_query(found_by: list[int], queries: list[str]) -> list[dict]:
    """Each query with how many members it gave best (`found_by`: each member's query index)."""
    counts = np.bincount(np.asarray(found_by, dtype=np.int64), minlength=len(queries)).tolist()
    return [{"query": query, "members": int(n)} for query, n in zip(queries, counts)]


def match(sel: Selection, queries: list[str], limit: int, min_score: float) -> Matched:
    """Every query ranked over the selected listeners, merged by best score; ties go to the earlier query. Scores
    are kept as shown (4 decimals), so a member shown with a score is kept when that score is the min_score."""
    n = len(sel.snap)
    best, by = np.full(n, -1.0), np.full(n, -1, dtype=np.int64)
    if n and sel.mask.any():
        for i, vector in enumerate(embedder().embed(queries, kind="query")):
            ranked = rank(sel, vector, limit, min_score - HALF_STEP)
            better = ranked.scores > best[ranked.rows]
            best[ranked.rows[better]], by[ranked.rows[better]] = ranked.scores[better], i
    rows = np.flatnonzero((by >= 0) & (np.round(best, DECIMALS) >= min_score))
    order = np.lexsort((sel.snap.originators[rows], -best[rows]))[:limit] if len(rows) else rows
    rows = rows[order]
    return Matched(rows, np.round(best[rows], DECIMALS), by[rows])


def member_results(sel: Selection, found: Matched, queries: list[str]) -> list[dict]:
    """Each member as search answers a listener (record, score, matched), plus the query that found it; best first."""
    out: dict[str, dict] = {}
    for i, query in enumerate(queries):
        mine = found.queries == i
        if mine.any():
            for item in results(sel, Ranked(found.rows[mine], found.scores[mine]), query):
                out[item["originator"]] = {**item, "query": query}
    return [out[o] for o in sel.snap.originators[found.rows].tolist() if o in out]
