"""Conditions named together hold together, and how strongly a listener meets what a query asks.

"competition entries on WhatsApp" asks for interactions that are competition entries and on WhatsApp, not for a
listener who once entered a competition by SMS and, another time, wrote on WhatsApp. The snapshot knows only what a
listener used at all, so asks about interactions (a channel, a campaign type, a show, a daypart, weekdays or the
weekend) named next to each other, with nothing but "on", "during", "at" and the like between them, are bound: the
listeners the snapshot lets through are read interaction by interaction (only theirs), and only those with at least
one interaction meeting every bound ask stay. Asks of the same kind ("SMS or WhatsApp", "song requests and
competition entries") and asks joined by "and", "who" or a comma stay apart.

Every listener who meets a query without free text is an answer for certain; the score among them says how strongly
(`exact_scores`): how many interactions meet what the query asks of them, and how recent the latest is, so that a
listener dormant for months does not lead a list of active ones. Scores lie in [EXACT_FLOOR, 1): above the contract's
default min_score, so every exact match is still returned at the defaults.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.explore.operations import Selection
from core.listeners.events import Events
from core.search import station_events
from core.search import words as w
from core.segmentation.behaviour import DAY, DAYPART_OF_HOUR, DAYPARTS, local_seconds

FACETS = ("has_channel", "campaign_type", "timeslot_id", "peak_time_of_day", "weekday_pattern")
"""The filters an ask of one interaction can name (core.search.queries calls a channel asked for `has_channel`)."""
COUNT_COLUMNS = {"has_channel": "channel_counts", "campaign_type": "campaign_counts",
                 "timeslot_id": "timeslot_counts"}
EXACT_FLOOR = 0.7
"""The lowest score of an exact match: above the contract's default min_score (0.68), so that strength orders the
answers without dropping any at the defaults; a stricter min_score keeps the stronger matches."""
HALF_LIFE_DAYS = 30  # the latest matching interaction's weight halves every 30 days
TYPICAL_COUNT = 3  # a listener with 3 matching interactions is half way to the most frequent


@dataclass(frozen=True)
class Facet:
    """One ask about interactions: its filter and the values of which any will do."""

    field: str
    values: tuple

    def holds(self, events: Events, local: np.ndarray) -> np.ndarray:
        """Per interaction, whether it meets this ask (`local`: its time in the station's wall-clock seconds)."""
        if self.field == "has_channel":
            return np.isin(events.channel, [int(v) for v in self.values])
        if self.field == "timeslot_id":
            return np.isin(events.timeslot, [int(v) for v in self.values])
        if self.field == "campaign_type":
            codes = [i for i, name in enumerate(events.campaign_vocab) if name in {str(v) for v in self.values}]
            return np.isin(events.campaign, codes)
        if self.field == "peak_time_of_day":
            hours = (local % DAY) // 3600
            return np.isin(DAYPART_OF_HOUR[hours], [DAYPARTS.index(v) for v in self.values if v in DAYPARTS])
        weekday = ((local // DAY + 3) % 7) < 5
        return weekday if bool(self.values[0]) else ~weekday


WORDING = {"has_channel": "on {}", "timeslot_id": "during {}", "peak_time_of_day": "in the {}"}
DAYS = {True: "on weekdays", False: "on weekends"}


def described(parts: list[tuple[str, tuple, tuple[str, ...]]]) -> str:
    """A bound group in words, each ask's (filter, values, labels): "competition · on WhatsApp"."""
    out = []
    for name, values, labels in parts:
        if name == "weekday_pattern":
            out.append(DAYS[bool(values[0])])
        else:
            out.append(WORDING.get(name, "{}").format(" or ".join(labels)))
    return " · ".join(out)


def facet_of(criteria: tuple[tuple[str, tuple], ...]) -> Facet | None:
    """The ask as one about interactions: every criterion of it is of the same interaction filter (alternatives
    merged); None for an ask about the listener (a tag, a place), an exclusion, or a mix."""
    fields = {name for name, _ in criteria}
    if len(fields) != 1 or next(iter(fields)) not in FACETS:
        return None
    return Facet(next(iter(fields)), tuple(dict.fromkeys(v for _, values in criteria for v in values)))


def bindings(query: str, spans: list[tuple[int, int]], facets: list[Facet | None]) -> tuple[tuple[int, ...], ...]:
    """Groups (of two asks or more, by position) of asks about interactions named together: each next to the one
    before, of another filter, with only binding words between them ("competitions on WhatsApp")."""
    groups: list[list[int]] = []
    for i, facet in enumerate(facets):
        previous = groups[-1][-1] if groups else None
        if facet is not None and previous == i - 1 and facet.field not in {facets[j].field for j in groups[-1]} \
                and _binds(query[spans[i - 1][1]:spans[i][0]]):
            groups[-1].append(i)
        elif facet is not None:
            groups.append([i])
    return tuple(tuple(g) for g in groups if len(g) > 1)


def _binds(between: str) -> bool:
    """Whether the text between two asks joins them into one ("on", "during the", nothing); a comma, "and", "or",
    "who" keep them apart."""
    words = between.casefold().replace("-", " ").split()
    return "," not in between and all(word in w.BINDING_WORDS for word in words)


def held(events: Events, groups: list[tuple[Facet, ...]], tz: str | None) -> np.ndarray:
    """Per group and interaction, whether the interaction meets every ask of the group: a (groups x events)
    boolean matrix."""
    local = local_seconds(events.ts, tz)
    return np.array([np.logical_and.reduce([f.holds(events, local) for f in group]) for group in groups],
                    dtype=bool).reshape(len(groups), len(events))


def per_listener(owner: np.ndarray, ts: np.ndarray, matrix: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(count, latest epoch second) per listener (n of them; `owner`: each interaction's) of the interactions
    meeting every group: the count the weakest group's, the latest the oldest group's latest (0: none)."""
    if not len(matrix):
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    counts = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    latest = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    for hit in matrix:
        counts = np.minimum(counts, np.bincount(owner[hit], minlength=n))
        last = np.zeros(n, dtype=np.int64)
        np.maximum.at(last, owner[hit], ts[hit])
        latest = np.minimum(latest, last)
    return counts, latest


def strength(counts: np.ndarray, days: np.ndarray) -> np.ndarray:
    """How strongly listeners meet a query, in [0, 1): half how often (saturating), half how recently."""
    frequency = counts / (counts + TYPICAL_COUNT)
    recency = np.power(0.5, np.maximum(days, 0) / HALF_LIFE_DAYS)
    return 0.5 * frequency + 0.5 * recency


def exact_scores(counts: np.ndarray, days: np.ndarray) -> np.ndarray:
    """The score of exact matches with these counts and days since their latest matching interaction."""
    return np.round(EXACT_FLOOR + (1 - EXACT_FLOOR) * strength(counts, days), 4)


@dataclass
class Asked(Selection):
    """The listeners who meet every ask of a query, with how strongly: per snapshot row, how many interactions meet
    what it asks of them and the epoch second of the latest (None: read from the snapshot when asked)."""

    counts: np.ndarray | None = None
    latest: np.ndarray | None = None


def narrowed(sel: Selection, groups: list[tuple[Facet, ...]], events: Events | None = None) -> Asked:
    """The selected listeners with an interaction meeting each bound group (`events`: theirs, when the caller has
    them); with the count and latest of those interactions."""
    events, owner = (station_events.interactions(sel.snap, sel.rows) if events is None
                     else (events, station_events.owners(sel.snap, events)))
    keep = owner >= 0
    matrix = held(events, groups, sel.company.timezone)[:, keep]
    counts, latest = per_listener(owner[keep], events.ts[keep], matrix, len(sel.snap))
    return Asked(sel.company, sel.snap, sel.mask & (counts > 0), counts, latest)


def evidence(sel: Selection, loose: list[Facet]) -> tuple[np.ndarray, np.ndarray]:
    """(count, latest) of the selected rows: bound interactions where read, else the weakest loose ask's count from
    the snapshot (every interaction when the query asks nothing of them), and the listener's latest interaction."""
    rows, cols = sel.rows, sel.snap.cols
    counts = cols["n_total"][rows].astype(np.int64)
    for facet in loose:
        counts = np.minimum(counts, _facet_counts(sel, facet, rows))
    latest = cols["last_ts"][rows].astype(np.int64)
    if isinstance(sel, Asked) and sel.counts is not None:
        counts, latest = np.minimum(counts, sel.counts[rows]), sel.latest[rows]
    return counts, latest


def _facet_counts(sel: Selection, facet: Facet, rows: np.ndarray) -> np.ndarray:
    """A loose ask's interactions per listener from the snapshot's counts (all of them where it has none)."""
    name = COUNT_COLUMNS.get(facet.field)
    if name is None or name not in sel.snap.cols:
        return sel.snap.cols["n_total"][rows].astype(np.int64)
    vocab = [str(v) for v in sel.snap.vocab.get(name, [])]
    columns = [vocab.index(str(v)) for v in facet.values if str(v) in vocab]
    return sel.snap.cols[name][rows][:, columns].sum(axis=1).astype(np.int64)


def ranked_exact(sel: Selection, loose: list[Facet]) -> tuple[np.ndarray, np.ndarray]:
    """The selected rows, strongest match first (ties: the latest interaction first), and their scores."""
    counts, latest = evidence(sel, loose)
    now = int(sel.snap.cols["as_of"].max()) if "as_of" in sel.snap.cols and len(sel.snap) else int(latest.max(
        initial=0))
    scores = exact_scores(counts, (now - latest) / DAY)
    order = np.lexsort((-latest, -scores))
    return sel.rows[order], scores[order]
