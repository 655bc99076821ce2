"""Look-alike scores that mean what the contract's 0.75 default promises (docs/decisions.md §5): among look-alikes
scoring 0.75 or more, at least 75% share the listener's main traits.

**Alike**, fixed when the work began and never tuned to the figures: a candidate shares a listener's main traits
when they hold the listener's main show, main channel and main campaign type (each the one with most of the
listener's interactions; held: at least one of the candidate's), and at least half of the listener's tags and
interests when the listener has any. What a producer who asks for "listeners like this one" means: reached by the
same show and channel, drawn by the same kind of campaign, into the same things.

The station's own listeners are the labelled data: SEEDS listeners with interactions, spread evenly over the
station, each with their TOP nearest by behaviour (core.search.behaviour_vectors) and RANDOM others, every one
labelled alike or not; the raw similarity ((1 + cosine) / 2) is mapped to the share alike by a monotone fit
(core.calibration: bins, pool adjacent violators, the rule of succession). The fit is kept per station in MongoDB,
made again when the station's snapshot file changes (each full run: an import, the daily run) or after a day. Fewer
than core.calibration.MIN_SAMPLES labelled look-alikes leave the raw similarity: a station too small to measure
claims nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import numpy as np

from core.calibration import Calibration, calibrate
from core.clock import as_utc, utcnow
from core.listeners.snapshot import Snapshot
from core.search.behaviour_vectors import COLUMNS, group_counts, liked
from core.search.models import LookalikeCalibration

SEEDS, TOP, RANDOM = 200, 100, 50
CHUNK = 32
"""Seeds whose similarities to every listener are taken at once (32 x 100,000 floats: 13 MB)."""
MAX_AGE = timedelta(days=1)
MAIN = tuple(COLUMNS)
"""The groups a main trait is taken from: show, channel, campaign type."""


@dataclass(frozen=True)
class Traits:
    """What alike is judged on, per snapshot row: the main value of each MAIN group (-1: none), the values of each
    group held at all, and the tags and interests."""

    main: np.ndarray  # n x len(MAIN) codes
    held: tuple[np.ndarray, ...]  # per MAIN group, n x values booleans
    liked: np.ndarray  # n x values booleans


def traits_of(snap: Snapshot) -> Traits:
    """The traits of every listener of a snapshot."""
    counts = [group_counts(snap, group) for group in MAIN]
    main = np.stack([np.where(c.sum(axis=1) > 0, c.argmax(axis=1), -1) if c.shape[1] else np.full(len(snap), -1)
                     for c in counts], axis=1)
    return Traits(main, tuple(c > 0 for c in counts), liked(snap))


def alike(traits: Traits, seed: int, rows: np.ndarray) -> np.ndarray:
    """Whether each of these rows shares the seed's main traits (the module's definition)."""
    rows = np.asarray(rows, dtype=np.int64)
    found = np.ones(len(rows), dtype=bool)
    for group, held in enumerate(traits.held):
        value = traits.main[seed, group]
        if value >= 0:
            found &= held[rows, value]
    likes = traits.liked[seed]
    if likes.any():
        found &= 2 * traits.liked[rows][:, likes].sum(axis=1) >= likes.sum()
    return found


def seeds_of(rows: np.ndarray, count: int = SEEDS) -> np.ndarray:
    """`count` of these rows spread evenly over them (the same each time: a fit is repeatable)."""
    if not len(rows):
        return rows
    return rows[np.unique(np.linspace(0, len(rows) - 1, min(count, len(rows))).round().astype(np.int64))]


def measured(matrix: np.ndarray, traits: Traits, candidates: np.ndarray, seeds: np.ndarray, top: int = TOP,
             random: int = RANDOM) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each seed's `top` nearest candidates (rows) and `random` others, never the seed itself: their raw
    similarities, and whether each is alike the seed."""
    rng = np.random.default_rng(0)
    sims, right, among = [], [], matrix[candidates]
    for chunk in np.array_split(seeds, max(1, -(-len(seeds) // CHUNK))):
        cosines = matrix[chunk] @ among.T
        for seed, row in zip(chunk.tolist(), cosines):
            picked = _picked(row, candidates == seed, top, random, rng)
            sims.append((1 + row[picked]) / 2)
            right.append(alike(traits, seed, candidates[picked]))
    return sims, right


def _picked(cosines: np.ndarray, own: np.ndarray, top: int, random: int, rng) -> np.ndarray:
    """Positions of the `top` highest cosines and of `random` others drawn at random, never `own`."""
    allowed = np.flatnonzero(~own)
    if len(allowed) <= top + random:
        return allowed
    nearest = allowed[np.argpartition(-cosines[allowed], top - 1)[:top]]
    rest = np.setdiff1d(allowed, nearest, assume_unique=True)
    return np.concatenate([nearest, rng.choice(rest, min(random, len(rest)), replace=False)])


def fitted(matrix: np.ndarray, traits: Traits, candidates: np.ndarray, seeds: np.ndarray) -> Calibration:
    """The map from raw similarity to the share alike, measured on these seeds' look-alikes."""
    sims, right = measured(matrix, traits, candidates, seeds)
    if not sims:
        return calibrate(np.zeros(0), np.zeros(0))
    return calibrate(np.concatenate(sims), np.concatenate(right))


def fit(company_id: int, model: str, file, matrix: np.ndarray, traits: Traits,
        candidates: np.ndarray) -> Calibration:
    """Fit the station's look-alike scores on SEEDS of its candidates, and keep the fit with the file it read."""
    seeds = seeds_of(candidates)
    found = fitted(matrix, traits, candidates, seeds)
    LookalikeCalibration._get_collection().replace_one(
        {"company_id": company_id, "model": model},
        {"company_id": company_id, "model": model, "upper": found.upper.tolist(),
         "accuracy": found.accuracy.tolist(), "samples": found.samples, "seeds": len(seeds),
         "listeners": len(candidates), "file": str(file), "made_at": utcnow()}, upsert=True)
    return found


def kept(company_id: int, model: str, file) -> Calibration | None:
    """The station's stored fit, while it stands: fitted on this snapshot file, less than MAX_AGE ago."""
    doc = LookalikeCalibration._get_collection().find_one({"company_id": company_id, "model": model}, {"_id": 0})
    if doc is None or doc.get("file") != str(file) or as_utc(doc["made_at"]) < utcnow() - MAX_AGE:
        return None
    return Calibration(np.array(doc["upper"]), np.array(doc["accuracy"]), doc["samples"])
