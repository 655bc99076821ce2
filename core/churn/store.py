"""Learn a station's churn scoring and keep it; score listeners with the kept one until it no longer stands.

Learning backtests the station's history (core.churn.model.backtest, on a sample of its listeners at most), so a
station learns at most once a station day: the first full run of the day (the daily scheduled one) learns, and later
full runs that day (an import's, a producer's second click) and every partial or live run score with the kept
scoring while it stands (`stands`: learned earlier the same day in the station's zone, with the same horizon, from
interactions that have moved by at most core.calibration.REFIT_SHARE since). A run with an earlier `now` (a history
rebuild, a backdated run) learns."""
from __future__ import annotations

import time
from datetime import UTC, datetime

import numpy as np

from core.calibration import still_stands
from core.churn.model import HORIZON_DAYS, LEARN_FROM, Backtest, Interactions, Scoring, backtest
from core.churn.models import ChurnModel
from core.clock import as_utc, station_today, utcnow
from core.listeners.events import Events

_KEPT = {"chosen": 1, "weights": 1, "knots": 1, "usual": 1, "horizon_days": 1}


def interactions(events: Events, tz: str, at_most: int | None = None) -> Interactions:
    """A station's interactions as core.churn reads them: every listener's, or a random `at_most` listeners'."""
    return Interactions.of(events.row.astype(np.int64), events.ts.astype(np.int64), len(events.originators), tz,
                           events.channel, events.campaign, events.timeslot, at_most)


def learn(company_id: int, events: Events, now: datetime, horizon_days: int = HORIZON_DAYS,
          tz: str | None = None) -> Scoring:
    """Backtest the methods on the station's history (a random LEARN_FROM of its listeners at most), keep the report
    and the chosen scoring, and return it."""
    started = time.perf_counter()
    report, scoring = backtest(interactions(events, tz, LEARN_FROM), now, horizon_days)
    _keep(company_id, report, scoring, now, len(events.ts), time.perf_counter() - started)
    return scoring


def learned_or_kept(company_id: int, events: Events, now: datetime, horizon_days: int = HORIZON_DAYS,
                    tz: str | None = None) -> tuple[Scoring, bool]:
    """The kept scoring while it stands (and False), else one learned now (and True): a full run learns at most once
    a station day, so the day's later full runs skip the seconds of a backtest (and of ordering the interactions
    for it: a second at a million listeners)."""
    doc = ChurnModel._get_collection().find_one({"company_id": company_id},
                                                {**_KEPT, "as_of": 1, "interactions": 1})
    if stands(doc, len(events.ts), now, horizon_days, tz):
        return _scoring_of(doc), False
    return learn(company_id, events, now, horizon_days, tz), True


def stands(doc: dict | None, count: int, now: datetime, horizon_days: int, tz: str | None) -> bool:
    """Whether a kept scoring may score a full run at `now` without learning again: it was learned at or before `now`
    on the same day in the station's zone `tz` (a rebuild of the past learns as of its own time), for the same
    horizon, and the station's interactions (`count` of them now) moved by at most core.calibration.REFIT_SHARE of
    those it was learned from, or one. A doc stored before its interactions were counted does not stand."""
    if doc is None or doc.get("interactions") is None or doc.get("horizon_days") != horizon_days:
        return False
    as_of, moment = as_utc(doc["as_of"]), as_utc(now)
    if as_of > moment or station_today(tz, as_of) != station_today(tz, moment):
        return False
    return still_stands(doc["interactions"], abs(count - doc["interactions"]))


def kept(company_id: int) -> Scoring | None:
    """The station's scoring as its last full run learned it (None before any)."""
    doc = ChurnModel._get_collection().find_one({"company_id": company_id}, _KEPT)
    return None if doc is None else _scoring_of(doc)


def _scoring_of(doc: dict) -> Scoring:
    knots = doc.get("knots") or [[], []]
    return Scoring(doc["chosen"], doc.get("weights") or {}, (tuple(knots[0]), tuple(knots[1])),
                   tuple(doc.get("usual") or ()), doc.get("horizon_days") or HORIZON_DAYS)


def report_of(company_id: int) -> dict | None:
    """The last backtest's report, as stored (for pages and answers)."""
    return ChurnModel._get_collection().find_one({"company_id": company_id},
                                                 {"_id": 0, "weights": 0, "knots": 0, "usual": 0})


def probabilities(scoring: Scoring | None, events: Interactions, now: datetime) -> np.ndarray:
    """Each listener's chance of going quiet within the horizon after `now` (NaN: no interaction yet, or nothing
    learned yet)."""
    out = np.full(events.n, np.nan, dtype=np.float32)
    if scoring is None:
        return out
    features = events.at(int(now.astimezone(UTC).timestamp()) + 1)  # what happened at `now` itself counts
    out[features.rows] = scoring.probability(features)
    return out


def _keep(company_id: int, report: Backtest, scoring: Scoring, now: datetime, interactions: int,
          seconds: float) -> None:
    doc = {"company_id": company_id, "as_of": now, "held_out": datetime.fromtimestamp(report.held_out, UTC),
           "horizon_days": report.horizon_days, "labelled": report.labelled, "quiet_share": report.quiet_share,
           "metrics": report.metrics, "chosen": report.chosen, "reason": report.reason,
           "reliability": report.reliability, "sampled_from": report.sampled_from, "weights": scoring.weights,
           "knots": [list(scoring.knots[0]), list(scoring.knots[1])], "usual": list(scoring.usual),
           "interactions": interactions, "trained_s": round(seconds, 2),
           "made_at": utcnow()}
    ChurnModel._get_collection().replace_one({"company_id": company_id}, doc, upsert=True)

