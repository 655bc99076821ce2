"""Evaluation of a ListenerFilter over a snapshot: numpy passes, no Python loop over listeners."""
from __future__ import annotations

import numpy as np

from core.clock import in_zone
from core.explore.spec import EXCLUSIONS, SPEC
from core.listeners.snapshot import Snapshot
from core.places.placing import placing

MAPPED = ("location",)
"""Columns whose values are places: a value names every value that lies in it (docs/decisions.md §5b)."""


def evaluate(values: dict, snap: Snapshot, tz: str | None = None) -> np.ndarray:
    """Rows matching every active filter (parameter name -> typed value); erased listeners never match. A date or
    time without an offset is wall time in the station's zone `tz` (docs/decisions.md §3). An exclusion keeps whoever
    matches none of its values, so a listener whose value is unknown is kept."""
    n = len(snap)
    if n == 0:
        return np.zeros(0, dtype=bool)
    mask = ~snap.cols["erased"] if "erased" in snap.cols else np.ones(n, dtype=bool)
    for name, value in values.items():
        kind, column, _ = SPEC[name]
        value = in_zone(value, tz) if kind == "datetime" else value
        if name in EXCLUSIONS:
            mask &= ~_ANY_VALUE[kind](snap, column, value, name)
        else:
            mask &= _MATCHERS[kind](snap, column, value, name)
    return mask


def _codes_of(snap: Snapshot, column: str, values) -> list[int]:
    """Vocabulary positions whose value equals one of `values`, case-insensitively; for a place, also those of the
    values that lie in it ("Gauteng": Johannesburg, Soweto...)."""
    vocab = snap.vocab.get(column, [])
    wanted = {str(v).lower() for v in values}
    if column in MAPPED:
        placed = placing(vocab)
        wanted |= {v.lower() for name in values for v in placed.inside(str(name)).values}
    return [i for i, v in enumerate(vocab) if str(v).lower() in wanted]


def _any_of(snap: Snapshot, column: str, values, _name) -> np.ndarray:
    col = snap.cols[column]
    codes = _codes_of(snap, column, values)
    if col.ndim == 2:
        return col[:, codes].any(axis=1) if codes else np.zeros(len(col), dtype=bool)
    return np.isin(col, codes)


def _all_of(snap: Snapshot, column: str, values, _name) -> np.ndarray:
    col = snap.cols[column]
    codes = [_codes_of(snap, column, [v]) for v in values]
    if any(not c for c in codes):
        return np.zeros(len(col), dtype=bool)
    return np.logical_and.reduce([col[:, c].any(axis=1) for c in codes])


def _ints(snap: Snapshot, column: str, values, _name) -> np.ndarray:
    col = snap.cols[column]
    if col.ndim == 2:
        vocab = snap.vocab.get(column, [])
        codes = [i for i, v in enumerate(vocab) if v in set(values)]
        return col[:, codes].any(axis=1) if codes else np.zeros(len(col), dtype=bool)
    return np.isin(col, list(values))


def _partial(snap: Snapshot, column: str, value: str, _name) -> np.ndarray:
    return np.strings.find(snap.cols[column], value.lower().encode()) >= 0


def _exact(snap: Snapshot, column: str, value: str, _name) -> np.ndarray:
    return snap.cols[column] == value


def _after_or_before(snap: Snapshot, column: str, value, name: str) -> np.ndarray:
    last, seconds = snap.cols[column], int(value.timestamp())
    seen = snap.cols["n_total"] > 0
    return seen & (last > seconds if name.endswith("after") else last < seconds)


def _boolean(snap: Snapshot, column: str, value: bool, _name) -> np.ndarray:
    col = snap.cols[column]
    if col.dtype == np.int8:  # tri-state: -1 unknown matches neither true nor false
        return col == int(value)
    return col == value


_MATCHERS = {
    "strings": _any_of,
    "string": lambda snap, column, value, name: _any_of(snap, column, [value], name),
    "ints": _ints,
    "int": lambda snap, column, value, name: _ints(snap, column, [value], name),
    "all_of": _all_of,
    "partial": _partial,
    "exact": _exact,
    "datetime": _after_or_before,
    "bool": _boolean,
}
_ANY_VALUE = {"strings": _any_of, "ints": _ints, "all_of": _any_of,
              "int": lambda snap, column, value, name: _ints(snap, column, [value], name)}
"""Who has at least one of the values, by kind: what an exclusion leaves out (for tags, any one of them is enough)."""
