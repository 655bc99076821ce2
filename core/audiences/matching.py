"""A strategy's queries run through search within the filters, and merged: each listener keeps the best score any
query gave it (and which query that was), cut at min_score and limit, best first.

The first query is the theme, understood in the station's own words (core.search.queries): what it asks of a listener
("gospel lovers who enter competitions": the gospel tag and a competition entry) is met exactly by every member,
whichever query found them; a theme that says nothing more needs no other query (its members all meet it, score 1).
Otherwise each query runs as search runs it (its own asks met, its free text ranked and scored by the station's
calibration) among the listeners who meet the theme's asks, and takes its own `limit` best (filters narrow the
candidates first), which is enough: a listener among the merged `limit` best is among the `limit` best of the query
that scored it highest.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from core.explore.operations import Selection
from core.search.embeddings import embedder
from core.search.queries import understand
from core.search.search import Ranked, look_at, results, retrieve, within
from core.search.vocabulary import vocabulary_of

DECIMALS = 4  # scores as answers show them (core.search.search rounds alike)
PROFILE_LABELS = re.compile(r"(?:^|(?<=\. ))[\w ]+: ")
"""The labels of a query written as a listener's text is ("messages: load shedding, power"), taken off before it
runs: they are the service's own words for the parts of a listener's text, which every listener's text holds, so
left in they were evidence of everyone."""
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
    """Every query ranked over the selected listeners who meet the theme's asks, merged by best score; ties go to the
    earlier query. Scores are kept as shown (4 decimals), so a member shown with a score is kept when that score is
    the min_score."""
    n, model = len(sel.snap), embedder()
    best, by = np.full(n, -1.0), np.full(n, -1, dtype=np.int64)
    if n and sel.mask.any() and queries:
        vocab = vocabulary_of(sel)
        theme = understand(vocab, queries[0])
        asked, look = within(sel, theme), look_at(sel)  # one look at the station's indexes for every query
        others = [understand(vocab, PROFILE_LABELS.sub("", q)) for q in queries[1:]]
        read = [theme] if theme.asks and not theme.free_text else [theme, *others]
        for i, (query, vector) in enumerate(zip(read, model.embed([q.ranked_text for q in read], kind="query"))):
            ranked = retrieve(within(asked, query), query, vector, limit, min_score - HALF_STEP, model, look)
            better = ranked.scores > best[ranked.rows]
            best[ranked.rows[better]], by[ranked.rows[better]] = ranked.scores[better], i
    rows = np.flatnonzero((by >= 0) & (np.round(best, DECIMALS) >= min_score))
    order = np.lexsort((sel.snap.originators[rows], -best[rows]))[:limit] if len(rows) else rows
    rows = rows[order]
    return Matched(rows, np.round(best[rows], DECIMALS), by[rows])


def member_results(sel: Selection, found: Matched, queries: list[str]) -> list[dict]:
    """Each member as search answers a listener (record, score, matched), plus the query that found it; best first."""
    out: dict[str, dict] = {}
    look = look_at(sel) if len(found.rows) else None
    for i, query in enumerate(queries):
        mine = found.queries == i
        if mine.any():
            for item in results(sel, Ranked(found.rows[mine], found.scores[mine]), query, look):
                out[item["originator"]] = {**item, "query": query}
    return [out[o] for o in sel.snap.originators[found.rows].tolist() if o in out]
