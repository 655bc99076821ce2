"""A listener's behaviour as of a cut-off, read from their interactions before it and nothing later (a feature that
saw the label's days would make every backtest lie)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np

from core.clock import zone_of

DAY = 86_400
NAMES = ("days since the last interaction", "days since the first", "active days", "interactions",
         "active weeks of the last 13", "interactions in the last 30 days", "interactions in the 30 days before",
         "30-day trend", "silence against their habit", "channels", "kinds of campaign", "share on their main show",
         "interactions in the last 90 days")
"""The features, in the order of the matrix's columns, as a sentence names them."""


@dataclass(frozen=True)
class AsOf:
    """Every listener with an interaction before the cut-off: their rows, features, and the raw values the
    baselines and the sentences read."""

    rows: np.ndarray  # listener rows with at least one interaction before the cut-off
    matrix: np.ndarray  # one row of NAMES per listener in `rows` (transformed for a linear model)
    recency: np.ndarray  # days since the last interaction
    repeat_days: np.ndarray  # active days after the first (BG/NBD's x)
    span: np.ndarray  # days from the first to the last active day (BG/NBD's t_x)
    age: np.ndarray  # days from the first interaction to the cut-off (BG/NBD's T)
    habit: np.ndarray  # their usual days between active days


def as_of(row: np.ndarray, ts: np.ndarray, n: int, cutoff: int, tz: str | None = None,
          channel: np.ndarray | None = None, campaign: np.ndarray | None = None,
          timeslot: np.ndarray | None = None) -> AsOf:
    """The features of the `n` listeners as of `cutoff` (epoch seconds), from the interactions before it only.
    The interactions must be in order of listener, then time (core.churn.model.Interactions puts them so): then a
    listener's distinct days and weeks are counted where the day or week changes, without sorting 2 million events
    again at every cut-off."""
    before = ts < cutoff
    row, ts = row[before], ts[before]
    count = np.bincount(row, minlength=n)
    rows = np.flatnonzero(count)
    offset = int(datetime.fromtimestamp(cutoff, zone_of(tz)).utcoffset().total_seconds())
    day = (ts + offset) // DAY
    starts = np.r_[0, np.cumsum(count)[:-1]][rows]  # each listener's first interaction, in time order
    ends = starts + count[rows] - 1
    first, last = ts[starts], ts[ends]
    days = _changes(row, day, n)[rows]
    recency, age = (cutoff - last) / DAY, (cutoff - first) / DAY
    span = (day[ends] - day[starts]).astype(float)
    habit = (span + 30.0) / days  # one 30-day gap as a prior, so that one active day is not read as a habit
    recent = [np.bincount(row[(ts >= cutoff - k * DAY) & (ts < cutoff - (k - 30) * DAY)], minlength=n)[rows]
              for k in (30, 60)]
    late = ts >= cutoff - 91 * DAY
    weeks = _changes(row[late], (cutoff - ts[late]) // (7 * DAY), n)[rows]
    ninety = np.bincount(row[ts >= cutoff - 90 * DAY], minlength=n)[rows]
    columns = [np.log1p(recency), np.log1p(age), np.log1p(days), np.log1p(count[rows]), weeks / 13.0,
               np.log1p(recent[0]), np.log1p(recent[1]), (recent[0] - recent[1]) / (recent[0] + recent[1] + 1.0),
               np.log1p(recency / habit), np.log1p(_kinds(row, channel, before, n)[rows]),
               np.log1p(_kinds(row, campaign, before, n)[rows]), _loyalty(row, timeslot, before, n)[rows],
               np.log1p(ninety)]
    return AsOf(rows, np.column_stack(columns).astype(float), recency, (days - 1).astype(float), span, age, habit)


def quiet_after(row: np.ndarray, ts: np.ndarray, n: int, cutoff: int, horizon_days: int) -> np.ndarray:
    """Per listener: no interaction in the horizon after the cut-off."""
    within = (ts >= cutoff) & (ts < cutoff + horizon_days * DAY)
    return np.bincount(row[within], minlength=n) == 0


def _changes(row: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """How many distinct values each listener has, for values in order within each listener (days, weeks)."""
    if not len(row):
        return np.zeros(n, dtype=np.int64)
    new = np.r_[True, (row[1:] != row[:-1]) | (values[1:] != values[:-1])]
    return np.bincount(row[new], minlength=n)


def _kinds(row: np.ndarray, values: np.ndarray | None, before: np.ndarray, n: int) -> np.ndarray:
    """How many distinct codes (channels, kinds of campaign: a few dozen at most) each listener used."""
    if values is None or not len(row):
        return np.zeros(n)
    held = np.zeros(n, dtype=np.uint64)
    np.bitwise_or.at(held, row, np.left_shift(np.uint64(1), (values[before].astype(np.int64) % 64).astype(np.uint64)))
    return np.unpackbits(held.view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1)  # the bits set


def _loyalty(row: np.ndarray, timeslot: np.ndarray | None, before: np.ndarray, n: int) -> np.ndarray:
    """The share of a listener's interactions on their most frequent show (0 with none on a show)."""
    if timeslot is None:
        return np.zeros(n)
    slots, on_show = timeslot[before], timeslot[before] >= 0
    return most_on_one(row[on_show], slots[on_show], n) / np.maximum(np.bincount(row, minlength=n), 1)


def most_on_one(row: np.ndarray, codes: np.ndarray, n: int) -> np.ndarray:
    """Per listener, their most interactions with one code (their main show's count; 0 with none): from a listener x
    code table of counts when the codes span few values, one pass where sorting the pairs is many."""
    if not len(row):
        return np.zeros(n, dtype=np.int64)
    owners, codes = row.astype(np.int64), codes.astype(np.int64)
    low, width = int(codes.min()), int(codes.max() - codes.min()) + 1
    if width * n <= MOST_COUNTED:
        return np.bincount(owners * width + (codes - low), minlength=n * width).reshape(n, width).max(axis=1)
    keys, counts = np.unique((owners << 32) | (codes - low), return_counts=True)
    best = np.zeros(n, dtype=np.int64)
    np.maximum.at(best, keys >> 32, counts)
    return best


MOST_COUNTED = 40_000_000
"""Listener x code counts (8 bytes each) `most_on_one` may table: 40 shows at a million listeners."""
