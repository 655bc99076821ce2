"""A company's listeners as columns (core.listeners.snapshot keeps, stores and publishes them): row i of every column
is the listener originators[i]; taking rows, joining snapshots and writing re-profiled rows over their listeners'.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.listeners.columns import KIND_OF, absent, ordered_union, remapped


@dataclass
class Snapshot:
    """The listeners of one company as columns; row i of every column is the listener originators[i]."""

    company_id: int
    cols: dict[str, np.ndarray]
    vocab: dict[str, list] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    _rows: tuple | None = None  # the numbers sorted, and the row of each: for `rows_of`

    def __len__(self) -> int:
        return len(self.cols["originator"])

    @property
    def originators(self) -> np.ndarray:
        return self.cols["originator"]

    def row_of(self, originator: str) -> int | None:
        """The row of a listener (their last, should they have two), None when not in the snapshot."""
        row = int(self.rows_of(np.array([originator]))[0]) if len(self) else -1
        return row if row >= 0 else None

    def rows_of(self, originators) -> np.ndarray:
        """The row of each of these listeners (their last, should they have two), -1 for those not in the snapshot.
        Found by bisection in a sorted copy of the numbers: a dict of every listener was about 130 MB of Python
        objects at 1,000,000 listeners, in every process; the copy and the rows' order are 52 MB."""
        wanted = np.asarray(originators)
        if not len(self) or not len(wanted):
            return np.full(len(wanted), -1, dtype=np.int64)
        if self._rows is None:
            order = np.argsort(self.originators, kind="stable")
            self._rows = (self.originators[order], order)
        ordered, order = self._rows
        at = np.searchsorted(ordered, wanted, side="right") - 1
        found = (at >= 0) & (ordered[np.maximum(at, 0)] == wanted)
        return np.where(found, order[np.maximum(at, 0)], -1).astype(np.int64)

    def take(self, rows: np.ndarray) -> Snapshot:
        """A snapshot of the given rows (indices or a boolean mask), same vocabularies."""
        return Snapshot(self.company_id, {k: v[rows] for k, v in self.cols.items()}, self.vocab, dict(self.meta))

    def labels(self, name: str) -> np.ndarray:
        """A categorical column as its values (None where absent)."""
        values = np.array(list(self.vocab[name]) + [None], dtype=object)
        return values[self.cols[name]]


def empty(company_id: int) -> Snapshot:
    """A snapshot with no listeners."""
    return Snapshot(company_id, {"originator": np.array([], dtype="U1")}, {}, {})


def concat(parts: list[Snapshot]) -> Snapshot:
    """Rows of several snapshots of one company, with vocabularies merged and codes remapped."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty(0)
    names = parts[-1].cols.keys()
    vocab = {name: ordered_union(p.vocab.get(name, []) for p in parts)
             for name in names if KIND_OF.get(name) in ("cat", "multi")}
    cols = {name: np.concatenate([remapped(p.cols[name], p.vocab.get(name, []), name, vocab.get(name))
                                  if name in p.cols else absent(name, parts[-1].cols[name], len(p), vocab.get(name))
                                  for p in parts])
            for name in names}
    return Snapshot(parts[-1].company_id, cols, vocab, dict(parts[-1].meta))


def splice(previous: Snapshot, fresh: Snapshot) -> Snapshot:
    """Previous rows of the listeners not in `fresh`, then the rows of `fresh` (re-profiled or new listeners)."""
    if not len(previous):
        return fresh
    keep = ~np.isin(previous.originators, fresh.originators)
    return concat([previous.take(keep), fresh])


def splice_in_place(previous: Snapshot, fresh: Snapshot) -> Snapshot:
    """`splice`, but writing the rows of `fresh` over their listeners' rows of `previous` itself, so that a small batch
    costs the size of the batch, not of the station; a copy (`splice`) only when `fresh` brings a listener, a
    vocabulary value or a wider text that `previous` has no room for."""
    rows = _rows_in(previous, fresh)
    if rows is None:
        return splice(previous, fresh)
    for name in fresh.cols:
        previous.cols[name][rows] = remapped(fresh.cols[name], fresh.vocab.get(name, []), name,
                                             previous.vocab.get(name))
    return previous


def _rows_in(previous: Snapshot, fresh: Snapshot) -> np.ndarray | None:
    """The rows of `previous` that the rows of `fresh` replace, or None when they cannot be written there."""
    if not len(previous) or previous.cols.keys() != fresh.cols.keys():
        return None
    rows = previous.rows_of(fresh.originators)
    if (rows < 0).any() or not all(_fits(previous, fresh, name) for name in fresh.cols):
        return None
    return rows


def _fits(previous: Snapshot, fresh: Snapshot, name: str) -> bool:
    """Whether a column of `fresh` can be written into that of `previous` without losing anything."""
    if KIND_OF.get(name) in ("cat", "multi"):
        return set(fresh.vocab.get(name, [])) <= set(previous.vocab.get(name, []))
    old, new = previous.cols[name], fresh.cols[name]
    return old.shape[1:] == new.shape[1:] and np.can_cast(new.dtype, old.dtype, casting="safe")


def latest_rows(snapshot: Snapshot) -> Snapshot:
    """The last row of each listener that appears more than once (deltas written one after another)."""
    reversed_order = snapshot.originators[::-1]
    _, first_from_end = np.unique(reversed_order, return_index=True)
    if len(first_from_end) == len(snapshot):
        return snapshot
    return snapshot.take(np.sort(len(snapshot) - 1 - first_from_end))
