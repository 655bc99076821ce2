"""Where the station's listeners are, as the gazetteer reads their declared locations (core.places): how many hold a
place it knows, and every value it does not know, kept as written, for the imports page and its API."""
from __future__ import annotations

import numpy as np

from core.listeners import snapshot
from core.listeners.snapshot_rows import Snapshot
from core.places.placing import placing


def station_places(company_id: int) -> dict:
    """The station's locations on the map, from its current snapshot."""
    return places_of(snapshot.current(company_id))


def places_of(snap: Snapshot) -> dict:
    """The locations of a snapshot's listeners (erased ones left out), placed or not (a pure function of it)."""
    vocab = [str(v) for v in snap.vocab.get("location", [])]
    counts = _listeners_per_value(snap, len(vocab))
    placed = placing(vocab)
    known, unknown = [], []
    for value, held in zip(vocab, counts.tolist()):
        if not held or not value.strip():
            continue
        chain = placed.hierarchy(value)
        if chain:
            known.append({"value": value, "listeners": held, "place": chain[0].name, "level": chain[0].level,
                          "within": [p.name for p in chain[1:]]})
        else:
            unknown.append({"value": value, "listeners": held})
    return {"company_id": snap.company_id, "placed": sorted(known, key=_most_first),
            "unknown": sorted(unknown, key=_most_first),
            "placed_listeners": sum(r["listeners"] for r in known),
            "unknown_listeners": sum(r["listeners"] for r in unknown)}


def _most_first(row: dict) -> tuple:
    return -row["listeners"], row["value"].casefold()


def _listeners_per_value(snap: Snapshot, values: int) -> np.ndarray:
    """How many listeners declared each location value (codes of the snapshot's column; -1: none declared)."""
    if not values or "location" not in snap.cols:
        return np.zeros(values, dtype=np.int64)
    codes = snap.cols["location"]
    keep = codes >= 0
    if "erased" in snap.cols:
        keep &= ~snap.cols["erased"]
    return np.bincount(codes[keep], minlength=values)
