"""Look-alikes' votes: how the listeners who declared a field and behave most like one listener vote on it.

Behaviour is core.search.behaviour_vectors' representation (shares of a listener's interactions per show, channel
and campaign type, one unit row each), read from each listener's interactions (core.ai.panel). A vote takes the K
nearest voters (cosine) among those who declared the field, never the listener themself, each weighted by its
similarity; the vote share of a value is its weight over all of theirs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

K = 50
CHUNK = 256
"""Listeners voted on at once when many are (a chunk's similarities to 20,000 voters take 20 MB)."""


@dataclass(frozen=True)
class Voters:
    """Who declared one field: their rows of the feature matrix and their values' codes, and the field's values."""

    field: str
    rows: np.ndarray
    codes: np.ndarray
    labels: list[str]

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def base_rates(self) -> np.ndarray:
        """How often each value is declared (the station's own mix)."""
        counts = np.bincount(self.codes, minlength=len(self.labels)).astype(float)
        return counts / max(counts.sum(), 1.0)


def voters_of(field: str, codes: np.ndarray, labels: list[str]) -> Voters:
    """The voters of a field from its codes per matrix row (-1: not declared)."""
    rows = np.flatnonzero(codes >= 0)
    return Voters(field, rows, codes[rows].astype(np.int64), list(labels))


@dataclass(frozen=True)
class Votes:
    """Votes of m listeners' look-alikes: weight shares and head counts per value (m x values)."""

    shares: np.ndarray
    counts: np.ndarray
    weight: np.ndarray  # total similarity behind each listener's vote; 0: no look-alike at all

    def winner(self, i: int = 0) -> int:
        """The value with the largest share (lowest code on ties)."""
        return int(self.shares[i].argmax())


def similarities(matrix: np.ndarray, targets: np.ndarray, voters: Voters, own: np.ndarray | None = None) -> np.ndarray:
    """Cosine of each target row (m x d) with every voter; -inf where the voter is the target itself (`own`: each
    target's row in `matrix`, -1 for a target that has none)."""
    sims = targets @ matrix[voters.rows].T
    if own is not None and len(voters.rows):
        at = np.searchsorted(voters.rows, own)
        hit = at < len(voters.rows)
        hit[hit] = voters.rows[at[hit]] == own[hit]
        sims[np.flatnonzero(hit), at[hit]] = -np.inf
    return sims


def vote(similarity: np.ndarray, voters: Voters, k: int | None = None) -> Votes:
    """The votes of the k (default K) most similar voters of each row of `similarity` (m x len(voters)), each
    weighted by its similarity; a voter at -inf (the listener themself) or not similar at all does not vote."""
    m, width = similarity.shape[0], len(voters.labels)
    k = min(K if k is None else k, similarity.shape[1])
    if k == 0:
        return Votes(np.zeros((m, width)), np.zeros((m, width), dtype=np.int64), np.zeros(m))
    nearest = np.argpartition(-similarity, k - 1, axis=1)[:, :k]
    sims = np.take_along_axis(similarity, nearest, axis=1)
    weights = np.where(np.isfinite(sims), np.clip(sims, 0.0, None), 0.0).ravel()
    flat = (np.arange(m)[:, None] * width + voters.codes[nearest]).ravel()
    totals = np.bincount(flat, weights=weights, minlength=m * width).reshape(m, width)
    counts = np.bincount(flat[weights > 0], minlength=m * width).reshape(m, width)
    weight = totals.sum(axis=1)
    shares = np.divide(totals, weight[:, None], out=np.zeros_like(totals), where=weight[:, None] > 0)
    return Votes(shares, counts, weight)


def vote_rows(matrix: np.ndarray, rows: np.ndarray, voters: Voters) -> Votes:
    """The votes for listeners who are rows of `matrix` themselves, each left out of their own vote, CHUNK at a
    time so that memory stays small."""
    width = len(voters.labels)
    parts = [vote(similarities(matrix, matrix[chunk], voters, chunk), voters)
             for chunk in np.array_split(rows, max(1, -(-len(rows) // CHUNK))) if len(chunk)]
    if not parts:
        return Votes(np.zeros((0, width)), np.zeros((0, width), dtype=np.int64), np.zeros(0))
    return Votes(np.vstack([p.shares for p in parts]), np.vstack([p.counts for p in parts]),
                 np.concatenate([p.weight for p in parts]))
