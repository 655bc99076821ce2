"""The snapshot's columns by kind, what an absent value is in each, and how codes move between vocabularies: what
core.listeners.snapshot needs to read files and deltas written by older runs and to splice rows of one snapshot into
another.

Kinds: `cat` int16 codes into `vocab[name]` (-1 = absent); `multi` an n x len(vocab) matrix (booleans, or counts
for the `*_counts` columns); `text`
lower-cased UTF-8 bytes for partial matching; everything else a plain numeric array.
"""
from __future__ import annotations

import numpy as np

from core.listeners.fields import CATEGORICAL, INFERRED_SINGLE, PARTIAL_TEXT

KINDS = {
    "cat": ("segment", "first_segment", *CATEGORICAL, *INFERRED_SINGLE, "peak_time_of_day", "churn_level"),
    "multi": ("tags", "inferred_interests", "channels", "timeslots", "campaign_types", "public_holidays",
              "missing_fields", "channel_counts", "timeslot_counts", "campaign_counts"),
    "text": PARTIAL_TEXT,
}
KIND_OF = {name: kind for kind, names in KINDS.items() for name in names}
ADDED = {"churn": np.float32(np.nan), "churn_level": np.int16(-1)}
"""Columns added after files were first written, with their absent value where the kind's own would be wrong (a
chance of going quiet of 0 is a claim; NaN is none): a file or delta from before reads them as absent, never as a
missing column, until the station's next full run fills them."""


def absent(name: str, like: np.ndarray, rows: int, vocab: list | None) -> np.ndarray:
    """Absent values for `rows` rows of a column `like` this one: ADDED's value, else -1 codes, no members, zeros."""
    if name in ADDED:
        return np.full(rows, ADDED[name])
    if vocab is not None and like.ndim == 1:
        return np.full(rows, -1, dtype=like.dtype)
    return np.zeros((rows, len(vocab)) if vocab is not None else (rows, *like.shape[1:]), dtype=like.dtype)


def with_added(cols: dict, vocab: dict) -> tuple[dict, dict]:
    """The columns and vocabularies of a file, with the columns added since it was written, absent."""
    rows = len(cols.get("originator", ()))
    missing = [name for name in ADDED if name not in cols]
    cols = {**cols, **{name: absent(name, np.zeros(0), rows, None) for name in missing}}
    return cols, {**{name: [] for name in missing if KIND_OF.get(name) == "cat"}, **vocab}


def ordered_union(vocabularies) -> list:
    """Every value once, in order of first appearance: fixed vocabularies (segments, fields) keep their order."""
    merged: dict = {}
    for vocabulary in vocabularies:
        merged.update(dict.fromkeys(vocabulary))
    return list(merged)


def remapped(column: np.ndarray, old: list, name: str, vocab: list | None) -> np.ndarray:
    """A column coded against the vocabulary `old`, coded against `vocab` (None: not a coded column)."""
    if vocab is None:
        return column
    position = {v: i for i, v in enumerate(vocab)}
    if KIND_OF[name] == "cat":
        table = np.array([position[v] for v in old] + [-1], dtype=np.int16)
        return table[column]
    widened = np.zeros((len(column), len(vocab)), dtype=column.dtype)
    for i, v in enumerate(old):
        widened[:, position[v]] = column[:, i]
    return widened
