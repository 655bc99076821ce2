"""A station's past rebuilt from its interactions: the segment rules run again as of the end of each of the last 57
weeks (13 months), without touching the current snapshot. Each week's point counts the listeners heard from by then
in each segment, who moved between segments during the week, who was heard for the first time and who became dormant.

One read of the station's interactions serves every week: the rule inputs as of a week's end are a vectorised pass
over the interactions before it (core.segmentation.behaviour.rule_inputs), about 1 s per week at 2 million.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import numpy as np

from core.clock import as_utc, utcnow, zone_of
from core.history.models import HistoryPoint
from core.history.periods import first_heard
from core.listeners import snapshot
from core.listeners.events import load_events
from core.segmentation import rules
from core.segmentation.behaviour import local_seconds, rule_inputs
from core.stations.companies import get_company

WEEKS = 57
"""Weeks rebuilt: 13 months."""
DORMANT = rules.SEGMENTS.index("dormant")


def week_ends(now: datetime, tz: str, weeks: int) -> list[datetime]:
    """The ends of the last `weeks` whole weeks before `now` in the station's zone (each Monday at 00:00 there), oldest
    first."""
    local = as_utc(now).astimezone(zone_of(tz))
    monday = (local - timedelta(days=local.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
    return [(monday - timedelta(weeks=k)).replace(tzinfo=zone_of(tz)) for k in reversed(range(weeks))]


def rebuild_history(company_id: int, now: datetime | None = None, weeks: int = WEEKS,
                    progress: Callable[[str], None] | None = None) -> int:
    """Replace the station's rebuilt points with the last `weeks` weeks as its interactions tell them; how many."""
    say, now = progress or (lambda message: None), as_utc(now or utcnow())
    company = get_company(company_id)
    tz = company.timezone
    events = load_events(company_id, None, now=now)
    say(f"read {len(events):,} interactions of {len(events.originators):,} listeners")
    counted = ~np.isin(np.array(events.originators, dtype=object), sorted(_erased(company_id)))
    local, thresholds = local_seconds(events.ts, tz), rules.thresholds_for(company.thresholds)
    ends = week_ends(now, tz, weeks + 1)  # the first is only the baseline of the second's moves
    before, points = None, []
    for since, end in zip([None, *ends], ends):
        inputs = rule_inputs(events, end, local)
        heard = (inputs["n_total"] > 0) & counted
        segment = np.where(heard, rules.assign(inputs, thresholds), -1)
        if before is not None:
            new = int((first_heard(inputs["first_ts"], since, end) & counted).sum())
            points.append(_point(company_id, end, segment, before, new))
            say(f"week to {points[-1].date}: {points[-1].total:,} listeners")
        before = segment
    HistoryPoint.objects(company_id=company_id, source="rebuilt").delete()
    if points:
        HistoryPoint.objects.insert(points, load_bulk=False)
    return len(points)


def _point(company_id: int, end: datetime, segment: np.ndarray, before: np.ndarray, new: int) -> HistoryPoint:
    """The week ending at `end`: counts by segment, what changed since `before` (the week before's segments), and
    `new` listeners, first heard that week."""
    heard = segment >= 0
    counts = np.bincount(segment[heard], minlength=len(rules.SEGMENTS))
    return HistoryPoint(company_id=company_id, date=(end - timedelta(days=1)).date().isoformat(), source="rebuilt",
                        as_of=end.astimezone(UTC), total=int(heard.sum()),
                        segments={key: int(counts[i]) for i, key in enumerate(rules.SEGMENTS)},
                        moves=moves_between(before, segment), new=new,
                        lost=int(((segment == DORMANT) & (before >= 0) & (before != DORMANT)).sum()))


def moves_between(before: np.ndarray, after: np.ndarray) -> dict[str, dict[str, int]]:
    """{from: {to: listeners}} of those whose segment changed (-1: not heard from yet, named "new" as a from)."""
    changed = (after >= 0) & (before != after)
    pairs, counts = np.unique(np.stack([before[changed], after[changed]]), axis=1, return_counts=True) \
        if changed.any() else (np.empty((2, 0), dtype=np.int64), np.empty(0, dtype=np.int64))
    out: dict[str, dict[str, int]] = {}
    for (source, target), n in zip(pairs.T.tolist(), counts.tolist(), strict=True):
        name = "new" if source < 0 else rules.SEGMENTS[source]
        out.setdefault(name, {})[rules.SEGMENTS[target]] = int(n)
    return out


def _erased(company_id: int) -> set[str]:
    """The pseudonyms of the station's erased listeners: left out of every count, as the overview leaves them out."""
    snap = snapshot.current(company_id)
    if not len(snap) or "erased" not in snap.cols:
        return set()
    return set(snap.originators[snap.cols["erased"]].tolist())
