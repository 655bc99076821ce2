"""The panel: the listeners of a station that inference learns from, with their behaviour as feature rows.

The panel is every listener who declared something inference can learn from (a demographic, or income, education
or employment for the LSM); on a station with more than PANEL of them, PANEL of them in evenly spaced blocks of
consecutive originators, so that building it reads a bounded number of interaction batches whatever the station's
size (about 3 s on the embedded database) and one inference is a product of one row with at most PANEL rows.
It is kept while its `fingerprint` holds (core.ai.memo): live batches change a few rows, not who behaves like whom;
an erasure moves the fingerprint, and the panel is built again without the erased listener.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from core.ai.lookalikes import Voters, voters_of
from core.listeners.events import Events, History, load_events
from core.listeners.snapshot import Snapshot
from core.search.behaviour_vectors import Interactions, Vocabulary, feature_rows
from core.stations.models import Company
from core.stations.shows import timeslot_ids

PANEL = 20_000
LEARNED = ("gender", "age_group", "language", "location", "income_bracket", "education", "employment_status")
"""The declared fields the panel's listeners teach."""
READ_ALL = 0.8
"""Above this share of the station, the panel's interactions are read in one pass over the station."""
BLOCK = 1000
"""Listeners read together (more than core.db.quirks.RANGE_ABOVE, so that they are read as one index range)."""


@dataclass(frozen=True)
class Panel:
    """The panel of one station: originators (sorted), one feature row each, and their declared codes per field."""

    company_id: int
    key: object  # its fingerprint and which build of the process it is: what is learned from it is kept under it
    originators: np.ndarray
    matrix: np.ndarray
    vocab: Vocabulary
    codes: dict[str, np.ndarray]
    labels: dict[str, list[str]]

    def __len__(self) -> int:
        return len(self.originators)

    def row_of(self, originator: str) -> int:
        """The listener's row in the panel, -1 when not in it."""
        at = int(np.searchsorted(self.originators, originator))
        return at if at < len(self.originators) and self.originators[at] == originator else -1

    def voters(self, field: str) -> Voters:
        """The panel's listeners who declared `field`."""
        return voters_of(field, self.codes[field], self.labels[field])


def fingerprint(snap: Snapshot) -> tuple:
    """What the panel was built from, as far as it can be told in a few vectorised counts: how many listeners are
    erased (an erased listener's answers must stop counting at once) and how many declared each field it learns
    from. A live batch or the re-segmentation after an AI answer moves neither."""
    erased = int(np.count_nonzero(snap.cols["erased"])) if "erased" in snap.cols else 0
    return (erased, *(int(np.count_nonzero(snap.cols[f] >= 0)) if f in snap.cols else -1 for f in LEARNED))


_builds = itertools.count()


def key_of(print_: tuple) -> tuple:
    """A panel's key: its fingerprint, and which panel of the process it is (what is learned from it is kept
    under it, core.ai.memo)."""
    return print_, next(_builds)


def build_panel(snap: Snapshot, key: object = None, limit: int = PANEL) -> Panel:
    """The panel of a snapshot: its members' interactions read and turned into feature rows."""
    rows = members(snap, limit)
    originators = snap.originators[rows]
    vocab = vocabulary(snap)
    codes = {f: snap.cols[f][rows].astype(np.int64) for f in LEARNED if f in snap.cols}
    labels = {f: [str(v) for v in snap.vocab.get(f, [])] for f in codes}
    matrix = feature_rows(_interactions(snap, originators), len(rows), vocab)
    return Panel(snap.company_id, key, originators, matrix, vocab, codes, labels)


def _interactions(snap: Snapshot, originators: np.ndarray) -> Interactions:
    """The panel's interactions: the whole station's in one pass when the panel is most of it, else block by
    block (each block one range of the index)."""
    if len(originators) >= READ_ALL * len(snap):
        return interactions_of(load_events(snap.company_id), originators)
    parts = [interactions_of(load_events(snap.company_id, originators[block]), originators)
             for block in blocks(len(originators))]
    return Interactions(*(np.concatenate([getattr(p, name) for p in parts]) if parts else np.zeros(0)
                          for name in ("owner", "timeslot", "channel", "campaign")))


def members(snap: Snapshot, limit: int = PANEL) -> np.ndarray:
    """Rows of the listeners who declared a LEARNED field, in originator order, down to about `limit` of them in
    evenly spaced blocks."""
    declared = np.zeros(len(snap), dtype=bool)
    for field in LEARNED:
        if field in snap.cols:
            declared |= snap.cols[field] >= 0
    if "erased" in snap.cols:
        declared &= ~snap.cols["erased"]
    rows = np.flatnonzero(declared)
    rows = rows[np.argsort(snap.originators[rows], kind="stable")]
    chosen = blocks(len(rows), limit)
    return np.concatenate([rows[block] for block in chosen]) if chosen else rows


def blocks(n: int, limit: int | None = None) -> list[slice]:
    """Runs of BLOCK consecutive positions of 0..n-1, evenly spaced, about `limit` positions in all (every run when
    n is within it). Listeners next to each other in originator order are one range of the index, read in one
    pass: on the embedded database a scattered sample costs four times as much to read (bench/inference.py at
    100,000 listeners: 11.6 s for a panel of every fourth listener, 2.7 s in blocks)."""
    runs = [slice(start, min(start + BLOCK, n)) for start in range(0, n, BLOCK)]
    if limit is None or n <= limit:
        return runs
    keep = np.unique(np.linspace(0, len(runs) - 1, max(1, limit // BLOCK)).round().astype(np.int64))
    return [runs[i] for i in keep.tolist()]


def vocabulary(snap: Snapshot) -> Vocabulary:
    """The station's shows, channels and campaign types: the columns of every feature row."""
    company = Company.objects(company_id=snap.company_id).only("channels").first()
    channels = set(company.channel_names() if company else ()) | {int(c) for c in snap.vocab.get("channels", [])}
    return Vocabulary(tuple(timeslot_ids(snap.company_id)), tuple(sorted(channels)),
                      tuple(str(c) for c in snap.vocab.get("campaign_types", [])))


def interactions_of(events: Events, originators: np.ndarray) -> Interactions:
    """The events of these listeners, owned by their position in `originators` (other listeners' are dropped)."""
    position = {o: i for i, o in enumerate(originators.tolist())}
    owner_of = np.array([position.get(o, -1) for o in events.originators] + [-1], dtype=np.int64)
    owner = owner_of[events.row] if len(events) else np.zeros(0, dtype=np.int64)
    keep = owner >= 0
    names = np.asarray(events.campaign_vocab + [""], dtype=object)
    return Interactions(owner[keep], events.timeslot[keep], events.channel[keep], names[events.campaign[keep]])


def history_interactions(history: History) -> Interactions:
    """One listener's interactions (all owned by 0), as read for their own feature row."""
    return Interactions(np.zeros(len(history), dtype=np.int64), history.timeslot, history.channel,
                        np.asarray(history.campaign, dtype=object))
