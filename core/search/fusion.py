"""The signals a candidate is read by: the dense vectors (what a listener's text means) and BM25 (the words they
wrote). A search reads both for every candidate with evidence (`evidenced`, core.search.evidence decides who has
it); the baselines bench.search_quality measures it against (dense alone, lexical alone and reciprocal rank fusion,
`rrf`, what MongoDB's $rankFusion and Elasticsearch's RRF do) pool the DEPTH best of each among the candidates,
evidence or not (`gather`), as search did before answers needed evidence.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.search.index import VectorIndex, similarity_of
from core.search.lexical import LexicalIndex

DEPTH = 200
"""How many of the best by meaning and of the best by words are pooled (twice the contract's default limit)."""
RRF_K = 60  # reciprocal rank fusion's constant, as MongoDB and Elasticsearch set it


@dataclass(frozen=True)
class Evidence:
    """Pooled candidates: their snapshot rows, raw similarity ((1 + cos) / 2) and lexical share of the query."""

    rows: np.ndarray
    similarity: np.ndarray
    lexical: np.ndarray
    coverage: np.ndarray | None = None  # each one's share of the query's evidence (core.search.evidence)

    def __len__(self) -> int:
        return len(self.rows)

    def rrf(self) -> np.ndarray:
        """Reciprocal rank fusion of the two rankings (a candidate one of them did not find ranks last in it)."""
        return _reciprocal(self.similarity) + np.where(self.lexical > 0, _reciprocal(self.lexical), 0.0)


def gather(rows: np.ndarray, ids: np.ndarray, index: VectorIndex, lexical: LexicalIndex | None,
           vector: np.ndarray, text: str, depth: int = DEPTH) -> Evidence:
    """The `depth` best by meaning and the `depth` best by words among the candidate rows (with vector ids `ids`,
    all live), pooled, each with both scores."""
    if not len(ids):
        return Evidence(rows[:0], np.zeros(0), np.zeros(0))
    _, by_meaning = index.search(vector, depth, ids)
    shares = lexical.shares(text) if lexical is not None else np.zeros(0)
    held = np.zeros(len(ids)) if not len(shares) else shares[np.minimum(ids, len(shares) - 1)] * (ids < len(shares))
    by_words = ids[_best(held, depth)]
    pooled = np.union1d(by_meaning, by_words)
    order = np.argsort(ids)
    at = order[np.searchsorted(ids, pooled, sorter=order)]
    similarity = similarity_of(index.vectors_of(pooled) @ np.asarray(vector, dtype=np.float32))
    return Evidence(rows[at], similarity, held[at])


def evidenced(rows: np.ndarray, ids: np.ndarray, cover: np.ndarray, index: VectorIndex,
              lexical: LexicalIndex | None, vector: np.ndarray, text: str) -> Evidence:
    """Every candidate with evidence (core.search.evidence), each with its similarity (a neutral 0.5 for one not
    embedded yet), lexical share and coverage: all of them, so that an answer counts every listener who matches."""
    similarity = np.full(len(rows), 0.5)
    embedded = np.flatnonzero(ids >= 0)
    query = np.asarray(vector, dtype=np.float32)
    for start in range(0, len(embedded), CHUNK):
        at = embedded[start:start + CHUNK]
        similarity[at] = similarity_of(index.vectors_of(ids[at]) @ query)
    shares = lexical.shares(text) if lexical is not None else np.zeros(0)
    held = np.zeros(len(ids))
    known = (ids >= 0) & (ids < len(shares))
    held[known] = shares[ids[known]]
    return Evidence(rows, similarity, held, cover)


CHUNK = 20_000
"""Vectors read at a time when every candidate with evidence is scored (20,000 x 512 floats: 40 MB)."""


def _best(values: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k largest positive values."""
    positive = np.flatnonzero(values > 0)
    if len(positive) > k:
        positive = positive[np.argpartition(-values[positive], k - 1)[:k]]
    return positive


def _reciprocal(values: np.ndarray) -> np.ndarray:
    """1 / (RRF_K + rank) of each value in a descending ranking (rank 1 the best)."""
    ranks = np.empty(len(values))
    ranks[np.argsort(-values, kind="stable")] = np.arange(1, len(values) + 1)
    return 1.0 / (RRF_K + ranks)
