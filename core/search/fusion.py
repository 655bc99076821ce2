"""Free text ranked by every signal the station has: the dense vectors (what a listener's text means) and BM25 (the
words they wrote), each read DEPTH deep among the candidates (filters first, never after), their results pooled,
and each pooled listener scored on both.

How the two combine is learned per station (core.search.calibration): a logistic regression on the similarity and
the lexical share, fitted on the station's labelled queries, then mapped by the same monotone calibration to the
share of results like it that were relevant. bench.search_quality measures it against dense alone, lexical alone and
reciprocal rank fusion (`rrf`, what MongoDB's $rankFusion and Elasticsearch's RRF do) on the same labelled queries.
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

    def __len__(self) -> int:
        return len(self.rows)

    def features(self) -> np.ndarray:
        """What the learned combination reads: one row per candidate."""
        return np.column_stack([self.similarity, np.minimum(self.lexical, LEXICAL_CAP)])

    def rrf(self) -> np.ndarray:
        """Reciprocal rank fusion of the two rankings (a candidate one of them did not find ranks last in it)."""
        return _reciprocal(self.similarity) + np.where(self.lexical > 0, _reciprocal(self.lexical), 0.0)


LEXICAL_CAP = 2.0
"""A lexical share past this (a short text repeating the query's words) says nothing more."""


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


@dataclass(frozen=True)
class Combination:
    """The learned weights: intercept, then one per feature; the score is their logistic."""

    weights: np.ndarray

    def raw(self, evidence: Evidence) -> np.ndarray:
        """The combination's value of each candidate, in (0, 1), before the station's calibration."""
        z = self.weights[0] + evidence.features() @ self.weights[1:]
        return 1.0 / (1.0 + np.exp(-z))


def learned(features: np.ndarray, relevant: np.ndarray) -> Combination:
    """The logistic regression of relevance on the features (scikit-learn), as a Combination."""
    from sklearn.linear_model import LogisticRegression  # about 1 s to import: only a fit needs it, not a search

    if len(np.unique(relevant)) < 2:  # one class only: nothing tells the features apart, similarity alone ranks
        return Combination(np.array([0.0, 1.0, 0.0]))
    fitted = LogisticRegression(C=1.0, max_iter=1000).fit(features, relevant.astype(int))
    return Combination(np.r_[fitted.intercept_, fitted.coef_[0]])
