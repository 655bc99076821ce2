"""Churn risk of one listener as a service: the station's own scoring (core.churn, learned in its last full run) over
that listener's interactions as of now, the signals that moved it, and how well the scoring did on the station's
past (the backtest), so that a score is never shown without what it is worth."""
from __future__ import annotations

from datetime import datetime

import numpy as np

from core.churn import store
from core.churn.explain import level, signals
from core.churn.model import Interactions
from core.clock import as_utc, from_epoch
from core.explore.listener import find_listener
from core.listeners.events import listener_history, load_events
from core.stations.companies import get_company
from core.text.wording import heard


def listener_churn_risk(company_id: int, originator: str, now: datetime | None = None) -> dict:
    """{company_id, originator, probability, score, level, signals, method, backtest, as_of} of one listener as of
    `now` (default: the clock); reads that listener's batches alone. ListenerNotFound for a listener who is unknown
    or was erased."""
    company = get_company(company_id)
    find_listener(company_id, originator, {"originator": 1})
    moment, tz = as_utc(now), company.timezone
    scoring = store.kept(company_id) or _learned_now(company_id, tz, moment)
    history = listener_history(company_id, originator, moment)
    one = Interactions(np.zeros(len(history.ms), dtype=np.int64), history.ms // 1000, 1, tz, history.channel,
                       np.unique(np.asarray(history.campaign, dtype=str), return_inverse=True)[1].reshape(-1),
                       history.timeslot).at(int(moment.timestamp()) + 1)
    report = store.report_of(company_id) or {}
    answer = {"company_id": company_id, "originator": originator, "method": scoring.method,
              "backtest": _backtest(report), "as_of": moment.isoformat()}
    if not len(one.rows):  # never heard from: nothing says how they behave, and nothing of them is heard
        return {**answer, "probability": None, "score": 100, "level": "high", "signals": []}
    probability = float(scoring.probability(one)[0])
    score = round(100 * probability)
    last = from_epoch(int(history.ms[history.ms // 1000 <= moment.timestamp()].max()) // 1000)
    return {**answer, "probability": round(probability, 3), "score": score, "level": level(score),
            "signals": signals(scoring, one, heard(last, tz, moment))}


def _learned_now(company_id: int, tz: str, now: datetime):
    """A station whose full run has not learned its scoring yet (it ran before there was one) learns it now, once."""
    return store.learn(company_id, load_events(company_id, now=now), now, tz=tz)


def station_backtest(company_id: int) -> dict | None:
    """How the station's churn scoring did on its past (None before a full run learned one)."""
    return _backtest(store.report_of(company_id) or {})


def _backtest(report: dict) -> dict | None:
    """What the answer says of the scoring: its method, why, and how each method ranked on the held-out cut-off."""
    if not report:
        return None
    return {"chosen": report["chosen"], "reason": report.get("reason"), "horizon_days": report["horizon_days"],
            "held_out": as_utc(report["held_out"]).date().isoformat(), "labelled": report["labelled"],
            "sampled_from": report.get("sampled_from"),
            "auc": {m: v.get("auc") for m, v in report["metrics"].items()},
            "brier": {m: v.get("brier") for m, v in report["metrics"].items()}}
