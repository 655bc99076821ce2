"""Campaigns with a known effect, generated: what the results' honesty is measured on (the simulation test, and
bench/lift_simulation.py's coverage table). Each run draws an audience split at random into target and holdout,
plants responses at known rates on the station's calendar, adds interactions that are not responses (before the
window, or of another campaign type), and counts them as the results do (core.audiences.results.responses_of)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.audiences import lift as stats
from core.audiences.results import responses_of
from core.listeners.events import Events

DAY = 86_400
GOAL = {"campaign_type": "competition", "channel_type": None, "timeslot_id": None}


@dataclass(frozen=True)
class Scenario:
    members: int
    holdout_share: float
    base_rate: float
    planted: float  # the lift planted: the target responds at base_rate + planted


def run(scenario: Scenario, rng: np.random.Generator, days: int = 30, methods: tuple[str, ...] = (stats.METHOD,)
        ) -> list[dict | None]:
    """One campaign drawn and counted: its lift as the results give it, by each interval's method."""
    held = rng.random(scenario.members) < scenario.holdout_share
    rate = np.where(held, scenario.base_rate, scenario.base_rate + scenario.planted)
    responds = rng.random(scenario.members) < rate
    bounds = np.arange(days + 1, dtype=np.int64) * DAY + 1_790_000_000
    who = np.concatenate([np.flatnonzero(responds), np.arange(scenario.members), np.arange(scenario.members)])
    ts = np.concatenate([rng.integers(bounds[0], bounds[-1], responds.sum()),  # a response in the window
                         rng.integers(bounds[0] - 30 * DAY, bounds[0], scenario.members),  # before it
                         rng.integers(bounds[0], bounds[-1], scenario.members)])  # in it, but no competition entry
    campaign = np.concatenate([np.zeros(responds.sum(), dtype=np.int16), np.zeros(scenario.members, np.int16),
                               np.ones(scenario.members, np.int16)])
    events = Events(originators=[], row=who.astype(np.int32), ts=ts, channel=np.ones(len(ts), np.int16),
                    campaign=campaign, campaign_vocab=["competition", "song_request"],
                    timeslot=np.full(len(ts), -1, np.int32))
    responded, _ = responses_of(events, who.astype(np.int64), np.arange(scenario.members), GOAL, bounds,
                                scenario.members)
    target = stats.arm(int((~held).sum()), int(responded[~held].sum()))
    holdout = stats.arm(int(held.sum()), int(responded[held].sum()))
    return [stats.lift(target, holdout, method) for method in methods]


def coverage(scenario: Scenario, runs: int, seed: int = 0, methods: tuple[str, ...] = (stats.METHOD,)) -> dict:
    """Over many runs, per method: how often the 95% interval held the planted lift, and how often the lift was
    called significant (with nothing planted, the false positives). The methods see the same campaigns."""
    rng = np.random.default_rng(seed)
    drawn = [run(scenario, rng, methods=methods) for _ in range(runs)]
    out = {}
    for i, method in enumerate(methods):
        found = [d[i] for d in drawn if d[i] is not None]
        covered = sum(f["interval"][0] <= scenario.planted <= f["interval"][1] for f in found)
        out[method] = {"runs": len(found), "covered": covered / len(found),
                       "significant": sum(f["significant"] for f in found) / len(found)}
    return out
