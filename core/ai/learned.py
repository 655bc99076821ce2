"""What inference has learned of a station, kept: its panel (core.ai.panel) and every field's model
(core.ai.demographics), in this process while the panel's fingerprint holds (core.ai.memo), and for a large station
in one sealed copy (core.listeners.station_copies) that the next process opens rather than reading the panel's
interactions and messages and learning again: at 100,000 listeners that was about 12 s of each web process's first
AI profile (bench/README.md#cold-start).

A copy is opened only for the fingerprint it was learned at and within MAX_AGE_S of its learning, so it is learned
again exactly when a process's own memory would have been. It names listeners and holds words they wrote: it is
sealed under a key of its own, and the station's next erasure destroys it. Its contents are pickled: the blob is
sealed with authenticated encryption, so nothing but this service can have written what is unpickled.
"""
from __future__ import annotations

import pickle
from dataclasses import replace
from datetime import timedelta

from core.ai import memo
from core.ai.demographics import build_models
from core.ai.panel import Panel, build_panel, fingerprint, key_of
from core.clock import utcnow
from core.listeners import snapshot, station_copies
from core.listeners.snapshot import Snapshot

KIND = "inference"
WORTH_FROM = station_copies.WORTH_FROM
"""Listeners from which a station's learning is copied: below, learning takes well under a second."""


def current_panel(snap: Snapshot) -> Panel:
    """The station's panel, built again when its fingerprint moves (or after a day); for a large station its field
    models are learned with it and both are copied, or both are opened from the copy."""
    print_ = fingerprint(snap)
    return memo.remembered("panel", snap.company_id, print_, lambda: _learned(snap, print_))


def _learned(snap: Snapshot, print_: tuple) -> Panel:
    if len(snap) < WORTH_FROM:
        return build_panel(snap, key_of(print_))
    company_id, at_epoch, began = snap.company_id, station_copies.epoch(snap.company_id), utcnow()
    found = _opened(company_id, print_, at_epoch)
    if found is not None:
        return _kept(company_id, print_, found)
    panel = build_panel(snap, key_of(print_))
    models = memo.remembered("fields", company_id, panel.key, lambda: build_models(panel))
    blob = pickle.dumps({"fingerprint": list(print_), "panel": panel, "models": models}, protocol=5)
    station_copies.save(company_id, KIND, blob, began, at_epoch)
    return panel


def open_every_copy() -> int:
    """Open every station's copy that holds for its fingerprint into this process's memory; how many. For a
    preforking server's parent, whose workers then share them: learning there would hold up the start, so a station
    without a copy is left to learn at its first AI profile, which copies it for the next start."""
    copied = station_copies.files().distinct("metadata.company_id", {"metadata.kind": KIND})
    return sum(_open(company_id) for company_id in copied)


def _open(company_id: int) -> bool:
    print_ = fingerprint(snapshot.current(company_id))
    found = _opened(company_id, print_, station_copies.epoch(company_id))
    if found is not None:
        panel = _kept(company_id, print_, found)
        memo.remembered("panel", company_id, print_, lambda: panel)
    return found is not None


def _kept(company_id: int, print_: tuple, found: dict) -> Panel:
    """The opened panel under a key of this process, its models kept under that key."""
    panel = replace(found["panel"], key=key_of(print_))
    memo.remembered("fields", company_id, panel.key, lambda: found["models"])
    return panel


def _opened(company_id: int, print_: tuple, at_epoch: int) -> dict | None:
    copy = station_copies.current(company_id, KIND, at_epoch)
    if copy is None or utcnow() - copy[1] > timedelta(seconds=memo.MAX_AGE_S):
        return None
    kept = pickle.loads(copy[0])  # noqa: S301 - sealed with authenticated encryption by this service (see above)
    return kept if kept["fingerprint"] == list(print_) else None
