"""Learn a station's churn scoring in its full run and keep it; score listeners with the kept one in any other run."""
from __future__ import annotations

import time
from datetime import UTC, datetime

import numpy as np

from core.churn.model import HORIZON_DAYS, Backtest, Interactions, Scoring, backtest
from core.churn.models import ChurnModel
from core.clock import utcnow
from core.listeners.events import Events


def interactions(events: Events, tz: str) -> Interactions:
    """A station's interactions as core.churn reads them."""
    return Interactions(events.row.astype(np.int64), events.ts.astype(np.int64), len(events.originators), tz,
                        events.channel, events.campaign, events.timeslot)


def learn(company_id: int, events: Interactions, now: datetime, horizon_days: int = HORIZON_DAYS) -> Scoring:
    """Backtest the methods on the station's history, keep the report and the chosen scoring, and return it."""
    started = time.perf_counter()
    report, scoring = backtest(events, now, horizon_days)
    _keep(company_id, report, scoring, now, time.perf_counter() - started)
    return scoring


def kept(company_id: int) -> Scoring | None:
    """The station's scoring as its last full run learned it (None before any)."""
    doc = ChurnModel._get_collection().find_one({"company_id": company_id}, {"chosen": 1, "weights": 1, "knots": 1,
                                                                             "usual": 1, "horizon_days": 1})
    if doc is None:
        return None
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


def _keep(company_id: int, report: Backtest, scoring: Scoring, now: datetime, seconds: float) -> None:
    doc = {"company_id": company_id, "as_of": now, "held_out": datetime.fromtimestamp(report.held_out, UTC),
           "horizon_days": report.horizon_days, "labelled": report.labelled, "quiet_share": report.quiet_share,
           "metrics": report.metrics, "chosen": report.chosen, "reason": report.reason,
           "reliability": report.reliability, "weights": scoring.weights,
           "knots": [list(scoring.knots[0]), list(scoring.knots[1])], "usual": list(scoring.usual),
           "trained_s": round(seconds, 2),
           "made_at": utcnow()}
    ChurnModel._get_collection().replace_one({"company_id": company_id}, doc, upsert=True)

