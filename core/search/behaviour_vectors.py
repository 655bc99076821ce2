"""Behaviour as vectors, one row per listener, so that a dot product says how alike two listeners behave: the one
representation of look-alikes (core.search.lookalikes) and of the AI's demographic votes (core.ai.lookalikes).

A row is the square root of the share of a listener's interactions in each show, on each channel and of each
campaign type, each group scaled to unit length and weighted (GROUPS: shows 1, channels 0.7, campaign types 0.5),
then the row to unit length, so that a dot product is a cosine. Shares of interactions, not the snapshot's "ever
used" flags: on the demo station (bench/inference.py, 20,000 listeners, 20% of the declared values hidden) the flags
found the age group of 44% of listeners, the shares 53% (the majority guess: 29%); adding the segment, the daypart,
the hour or the weekday, or IDF weights, changed nothing beyond noise.

Look-alikes add what a listener is known to like, their tags and inferred interests, as one more group (LIKED, of
weight 1): on the demo station (bench/lookalikes.py, 20,000 listeners, 200 held out of the fit), 90% of look-alikes
scoring 0.75 or more shared the listener's main traits with it, 67% without it (and only 138 of the 200 had any
look-alike that high). The AI's votes read the three groups alone,
from the listener's interactions as read for their profile; look-alikes read all four from the snapshot's count
columns (core.segmentation.behaviour), so that a station of 100,000 listeners is a few numpy operations, never a
read of its interactions.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.listeners.snapshot import Snapshot
from core.search.unit import unit_rows

GROUPS = (("timeslot", 1.0), ("channel", 0.7), ("campaign", 0.5))
"""(what an interaction has, weight of its group)."""
COLUMNS = {"timeslot": ("timeslot_counts", "timeslots"), "channel": ("channel_counts", "channels"),
           "campaign": ("campaign_counts", "campaign_types")}
"""Each group's snapshot columns: its counts per value, and its "used at all" members (files written before the
counts were kept have only these)."""
LIKED, LIKED_WEIGHT = ("tags", "inferred_interests"), 1.0


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


def unit_shares(counts: np.ndarray) -> np.ndarray:
    """sqrt of each row's share per column, unit length per row (a row of zeros stays zero); of members (0 or 1),
    each held value weighs the same."""
    counts = np.asarray(counts, dtype=np.float32)
    totals = counts.sum(axis=1, keepdims=True)
    return unit_rows(np.sqrt(np.divide(counts, totals, out=np.zeros(counts.shape, dtype=np.float32),
                                       where=totals > 0)))


def weighted(blocks: list[tuple[np.ndarray, float]]) -> np.ndarray:
    """One unit row per listener from (counts per value, weight) groups: each group's unit shares, weighted."""
    if not blocks:
        return np.zeros((0, 0), dtype=np.float32)
    return unit_rows(np.hstack([unit_shares(counts) * weight for counts, weight in blocks]))


def feature_rows(interactions: Interactions, n: int, vocab: Vocabulary) -> np.ndarray:
    """n x d float32 of the three GROUPS, one unit row per listener (zero for a listener without interactions)."""
    blocks = []
    for group, weight in GROUPS:
        values = getattr(interactions, group)
        width = len(getattr(vocab, group))
        codes, known = _codes(values, getattr(vocab, group))
        flat = interactions.owner[known].astype(np.int64) * width + codes[known]
        blocks.append((np.bincount(flat, minlength=n * width).reshape(n, width), weight))
    return weighted(blocks)


def _codes(values: np.ndarray, vocabulary: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Each value's position in the vocabulary, and which values have one (a show no longer on air has none)."""
    position = {v: i for i, v in enumerate(vocabulary)}
    codes = np.fromiter((position.get(v, -1) for v in values.tolist()), dtype=np.int64, count=len(values))
    return codes, codes >= 0


def group_counts(snap: Snapshot, group: str) -> np.ndarray:
    """Each listener's interactions per value of a group (n x values), from the snapshot: its counts, or, in a file
    written before counts were kept, one for each value used at all."""
    counts, members = COLUMNS[group]
    if counts in snap.cols:
        return snap.cols[counts]
    if members in snap.cols:
        return snap.cols[members].astype(np.uint16)
    return np.zeros((len(snap), 0), dtype=np.uint16)


def group_values(snap: Snapshot, group: str) -> list:
    """The values of a group's columns in `group_counts`, in column order (show ids, channel ids, campaign types)."""
    counts, members = COLUMNS[group]
    return list(snap.vocab.get(counts if counts in snap.cols else members, []))


def liked(snap: Snapshot) -> np.ndarray:
    """Each listener's tags and inferred interests as one row of members (n x values)."""
    parts = [np.asarray(snap.cols[name], dtype=bool) for name in LIKED if name in snap.cols]
    return np.hstack(parts) if parts else np.zeros((len(snap), 0), dtype=bool)


def behaviour_rows(snap: Snapshot) -> np.ndarray:
    """n x d float32: every listener's behaviour (the three GROUPS) and likes (LIKED), one unit row each."""
    blocks = [(group_counts(snap, group), weight) for group, weight in GROUPS]
    return weighted([*blocks, (liked(snap), LIKED_WEIGHT)])


def active(snap: Snapshot) -> np.ndarray:
    """Whether each listener has any interaction (a listener without one behaves like nobody)."""
    return (group_counts(snap, "channel").sum(axis=1) > 0) if len(snap) else np.zeros(0, dtype=bool)
