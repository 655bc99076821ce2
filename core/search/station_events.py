"""The interactions of some of a station's listeners, each with its listener's snapshot row: what a bound query
(core.search.bound) and a campaign's results (core.audiences.results) read. From READ_ALL of the station's listeners,
the whole station's interactions are read once and kept with its snapshot; below it, the listeners' own are read.
"""
from __future__ import annotations

import numpy as np

from core.listeners.events import Events, load_events
from core.listeners.snapshot import Snapshot
from core.search.kept import KeptPerStation

READ_ALL = 0.1
"""From this share of the station's listeners, the whole station's interactions are read once and kept with its
snapshot (on the embedded database, 1,900 of 5,000 listeners read one by one took 2.5 s and the whole station 3.7 s;
once kept, a read costs what numpy does over them: 12 bytes or so per interaction); below it, the few listeners'
own interactions are read."""
_kept: KeptPerStation[tuple[Events, np.ndarray]] = KeptPerStation()


def interactions(snap: Snapshot, rows: np.ndarray) -> tuple[Events, np.ndarray]:
    """Interactions including those of the listeners at these snapshot rows, with each one's snapshot row (-1: a
    listener not in the snapshot); a caller keeps the interactions of its rows by that row."""
    company_id, sources, key = snap.company_id, (snap,), len(snap)
    kept = _kept.peek(company_id, sources, key)
    if kept is not None:
        return kept
    if len(rows) >= READ_ALL * len(snap):
        def whole() -> tuple[Events, np.ndarray]:
            events = load_events(company_id)
            return events, owners(snap, events)
        return _kept.get(company_id, sources, key, whole)
    events = load_events(company_id, snap.originators[rows].tolist())
    return events, owners(snap, events)


def owners(snap: Snapshot, events: Events) -> np.ndarray:
    """The snapshot row of each interaction's listener (-1: not in the snapshot)."""
    if not len(events):
        return np.zeros(0, dtype=np.int64)
    return np.asarray(snap.rows_of(np.asarray(events.originators, dtype=object)), dtype=np.int64)[events.row]
