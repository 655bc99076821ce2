"""Listeners built in memory, without the database: their interactions as Events, the snapshot a segmentation
run would profile from them, and the stations an import reads its rows against. Pure rules are tested on these."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from core.ingest.kinds import row_parser
from core.ingest.tally import Companies, Tally
from core.listeners.declared import declared
from core.listeners.events import Events
from core.listeners.snapshot import Snapshot
from core.segmentation.profiling import profile_listeners
from core.stations.models import Company
from core.stations.shows import timeslot_lookup

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def event(days_ago: float, channel: int = 1, campaign: str = "song_request", timeslot: int | None = None,
          message: str | None = None, now: datetime = NOW) -> dict:
    """One interaction `days_ago` days before now."""
    return {"t": now - timedelta(days=days_ago), "channel": channel, "campaign": campaign, "timeslot": timeslot,
            "message": message}


def events_of(histories: dict[str, list[dict]]) -> Events:
    """The Events of several listeners (originator -> events from `event`), in the order given."""
    originators = list(histories)
    flat = [(row, e) for row, o in enumerate(originators) for e in histories[o]]
    vocab = sorted({e["campaign"] for _, e in flat})
    return Events(originators=originators,
                  row=np.array([row for row, _ in flat], dtype=np.int32),
                  ts=np.array([int(e["t"].timestamp()) for _, e in flat], dtype=np.int64),
                  channel=np.array([e["channel"] for _, e in flat], dtype=np.int16),
                  campaign=np.array([vocab.index(e["campaign"]) for _, e in flat], dtype=np.int16),
                  campaign_vocab=vocab,
                  timeslot=np.array([-1 if e["timeslot"] is None else e["timeslot"] for _, e in flat],
                                    dtype=np.int32))


def snapshot_of(people: list[dict], now: datetime = NOW, timeslots=(), **company) -> Snapshot:
    """The snapshot of these listeners as of `now`; each person is a listener document plus its `events`."""
    docs = [{k: v for k, v in p.items() if k != "events"} for p in people]
    events = events_of({p["originator"]: list(p.get("events", ())) for p in people})
    return profile_listeners(Company(company_id=1, **company), declared(1, docs), events, now, sorted(timeslots))


def column(snap: Snapshot, name: str, originator: str):
    """A listener's value of one snapshot column (categorical columns as their labels, multi ones as lists)."""
    row = snap.row_of(originator)
    if name in snap.vocab and snap.cols[name].ndim == 1:
        return snap.labels(name)[row]
    if name in snap.vocab:
        return [v for v, on in zip(snap.vocab[name], snap.cols[name][row]) if on]
    return snap.cols[name][row].item()


class StationsInMemory(Companies):
    """The stations an import reads its rows against (core.ingest.tally.Companies), given rather than stored: each
    company's document (country, timezone, channels; {} for one the import would create) and its shows as stored."""

    def __init__(self, docs: dict[int, dict] | None = None, shows: list[dict] = (), now: datetime = NOW):
        super().__init__(now)
        self._given, self._shows = docs or {}, list(shows)

    def doc(self, company_id: int) -> dict:
        return self._given.get(company_id, {})

    def schedule(self, company_id: int) -> list:
        return timeslot_lookup(show for show in self._shows if show["company_id"] == company_id)


def rows_read(kind: str, rows, stations: Companies | None = None) -> tuple[list[tuple], Tally]:
    """What an import of these rows of one kind keeps (each row's parsed values) and its tally (bad rows, warnings),
    read as the importer reads them (core.ingest.kinds), nothing written; rows are (line, row) pairs or rows, lines
    then counted from 1."""
    pairs = [row if isinstance(row, tuple) else (line, row) for line, row in enumerate(rows, 1)]
    tally = Tally(None)
    return list(tally.valid(pairs, row_parser(kind, stations or StationsInMemory()))), tally
