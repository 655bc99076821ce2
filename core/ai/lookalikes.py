"""Look-alikes: the listeners who behave most like one listener, and how those who declared a field vote on it.

Behaviour is one row per listener: the square root of the share of their interactions in each show, on each
channel and of each campaign type, each group scaled to unit length and weighted (shows 1, channels 0.7, campaign
types 0.5), then the row to unit length, so that a dot product is a cosine. Shares of interactions, not the
snapshot's "ever used" flags: on the demo station (bench/inference.py, 20,000 listeners, 20% of the declared values
hidden) the flags found the age group of 44% of listeners, the shares 53% (the majority guess: 29%); adding the
segment, the daypart, the hour or the weekday, or IDF weights, changed nothing beyond noise.

A vote takes the K nearest voters (cosine) among those who declared the field, never the listener themself, each
weighted by its similarity; the vote share of a value is its weight over all of theirs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.search.unit import unit_rows

GROUPS = (("timeslot", 1.0), ("channel", 0.7), ("campaign", 0.5))
"""(what an interaction has, weight of its group)."""
K = 50
CHUNK = 256
"""Listeners voted on at once when many are (a chunk's similarities to 20,000 voters take 20 MB)."""


@dataclass(frozen=True)
class Vocabulary:
    """The values each group's columns stand for: the station's shows, channels and campaign types."""

    timeslot: tuple
    channel: tuple
    campaign: tuple


@dataclass(frozen=True)
class Interactions:
    """Interactions of some listeners as parallel arrays; `owner` is the listener's index (0..n-1)."""

    owner: np.ndarray
    timeslot: np.ndarray
    channel: np.ndarray
    campaign: np.ndarray  # campaign type names


def feature_rows(interactions: Interactions, n: int, vocab: Vocabulary) -> np.ndarray:
    """n x d float32, one unit row per listener (a zero row for a listener without interactions)."""
    blocks = []
    for group, weight in GROUPS:
        values = getattr(interactions, group)
        codes, known = _codes(values, getattr(vocab, group))
        blocks.append(_shares(interactions.owner[known], codes[known], n, len(getattr(vocab, group))) * weight)
    return unit_rows(np.hstack(blocks).astype(np.float32))


def _codes(values: np.ndarray, vocabulary: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Each value's position in the vocabulary, and which values have one (a show no longer on air has none)."""
    position = {v: i for i, v in enumerate(vocabulary)}
    codes = np.fromiter((position.get(v, -1) for v in values.tolist()), dtype=np.int64, count=len(values))
    return codes, codes >= 0


def _shares(owner: np.ndarray, codes: np.ndarray, n: int, width: int) -> np.ndarray:
    """sqrt of each listener's share of interactions per value, unit length per row."""
    counts = np.bincount(owner.astype(np.int64) * width + codes, minlength=n * width).reshape(n, width)
    totals = counts.sum(axis=1, keepdims=True)
    shares = np.divide(counts, totals, out=np.zeros(counts.shape), where=totals > 0)
    return unit_rows(np.sqrt(shares))


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
