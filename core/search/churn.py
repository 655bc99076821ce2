"""Churn risk: how likely a listener is to have gone quiet. Listeners never cancel, they just stop, so the risk is read
from their silence, measured against their own habit, and from how their activity moved.

The model is a sum of points, deterministic (the same interactions and `now` always give the same score):

- silence beyond habit (up to 30 points): a listener active on d distinct days over s days interacts at a rate taken
  as Gamma(d, s + 30) per day (a prior worth one 30-day gap, so that a short history is not over-read); the risk is the
  chance that this habit would have produced an interaction in the R days of silence: 1 - ((s + 30) / (s + 30 + R))^d.
- days since the last interaction (up to 35): R / (R + 14), a half at two weeks, two thirds at a month.
- frequency trend (up to 25): how far the last 30 days fell below the 30 before, (prev - last) / (prev + last + 1).
- active weeks (up to 10): the share of the last 13 weeks with no interaction (weeks with one, within 90 days).

Score = the sum of the points, rounded to a whole number 0..100; level high at 70 or more, medium at 40 or more, else
low. A listener with no interaction at all scores 100. bench/churn.py measures it against recency alone and BG/NBD.
"""
from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from core import measured
from core.segmentation.behaviour import DAY, local_seconds
from core.text.wording import days_ago, number, plural, sentence

WEIGHTS = {"silence_beyond_habit": 30, "days_since_last": 35, "frequency_trend": 25, "active_weeks": 10}
"""Points each signal gives at full risk; they add up to 100."""
HIGH, MEDIUM = 70, 40
"""Lowest scores of the high and medium levels."""
LEVELS = ("low", "medium", "high")
HABIT_PRIOR_DAYS = 30  # one pretend gap of this length: two days of history do not make a habit
RECENCY_HALF_DAYS = 14  # days of silence at which the days-since signal gives half its points
WEEKS_IN_90 = 13


def churn_inputs(row: np.ndarray, ts: np.ndarray, n: int, now: datetime, tz_name: str = "UTC") -> dict:
    """What the model reads of each of n listeners, from flat interactions (Events.row, Events.ts in epoch seconds);
    interactions after `now` are not seen, so that a score as of an earlier `now` cannot peek at what came later."""
    now_s = int(now.astimezone(UTC).timestamp())
    keep = ts <= now_s
    row, ts = row[keep].astype(np.int64), ts[keep].astype(np.int64)
    local = local_seconds(ts, tz_name)
    age = now_s - ts
    first, last = np.full(n, np.iinfo(np.int64).max), np.full(n, np.iinfo(np.int64).min)
    np.minimum.at(first, row, ts)
    np.maximum.at(last, row, ts)
    has = np.bincount(row, minlength=n) > 0
    recent = age < 90 * DAY
    return {
        "recency_days": np.where(has, (now_s - last) / DAY, np.inf),
        "span_days": np.where(has, (last - first) / DAY, 0.0),
        "active_days": _distinct(row, local // DAY, n),
        "n_30": np.bincount(row[age < 30 * DAY], minlength=n),
        "n_prev30": np.bincount(row[(age >= 30 * DAY) & (age < 60 * DAY)], minlength=n),
        "active_weeks_90": _distinct(row[recent], (local[recent] // DAY + 3) // 7, n),
    }


def _distinct(row: np.ndarray, codes: np.ndarray, n: int) -> np.ndarray:
    """How many distinct codes (days, weeks) each listener has."""
    pairs = np.unique(row << 32 | codes.astype(np.int64))
    return np.bincount((pairs >> 32).astype(np.int64), minlength=n)


def signal_risks(c: dict) -> dict[str, np.ndarray]:
    """Each signal's risk in [0, 1] per listener (1 for a listener with no interaction at all)."""
    has = c["active_days"] > 0
    recency = np.where(has, c["recency_days"], 0.0)
    rate_days = c["span_days"] + HABIT_PRIOR_DAYS
    habit_explains = (rate_days / (rate_days + recency)) ** c["active_days"]
    last, prev = c["n_30"], c["n_prev30"]
    risks = {
        "silence_beyond_habit": 1.0 - habit_explains,
        "days_since_last": recency / (recency + RECENCY_HALF_DAYS),
        "frequency_trend": np.clip((prev - last) / (prev + last + 1.0), 0.0, 1.0),
        "active_weeks": 1.0 - np.minimum(c["active_weeks_90"], WEEKS_IN_90) / WEEKS_IN_90,
    }
    return {name: np.where(has, risk, 1.0) for name, risk in risks.items()}


def churn_scores(c: dict) -> np.ndarray:
    """Score 0..100 of every listener: the weighted sum of the signal risks, as a whole number."""
    risks = signal_risks(c)
    return np.rint(sum(WEIGHTS[name] * risks[name] for name in WEIGHTS)).astype(np.int16)


def churn_levels(scores: np.ndarray) -> np.ndarray:
    """Level code (index into LEVELS) of every score."""
    return np.select([scores >= HIGH, scores >= MEDIUM], [2, 1], 0).astype(np.int8)


def risk_level(score: float) -> str:
    """The level of one score: high, medium or low."""
    return LEVELS[int(churn_levels(np.array([score]))[0])]


def churn_risk(ts: np.ndarray, now: datetime, tz_name: str = "UTC") -> dict:
    """One listener's risk with the signals behind it, from that listener's interaction times (epoch seconds; for a
    History, `history.ms // 1000`)."""
    ts = np.asarray(ts, dtype=np.int64)
    return explain(churn_inputs(np.zeros(len(ts), dtype=np.int64), ts, 1, now, tz_name))


def explain(c: dict, i: int = 0) -> dict:
    """Listener i of the inputs as {level, score, signals}, its signals by the points they give, most first."""
    one = {name: np.asarray(values)[i:i + 1] for name, values in c.items()}
    risks, score = signal_risks(one), int(churn_scores(one)[0])
    values, sentences = _values(one), _sentences({name: values[0] for name, values in one.items()})
    signals = [{"name": name, "value": values[name], "weight": weight,
                "points": round(weight * float(risks[name][0]), 1), "sentence": sentences[name]}
               for name, weight in WEIGHTS.items()]
    signals.sort(key=lambda s: -s["points"])
    return {"level": risk_level(score), "score": score, "signals": signals}


def _values(c: dict) -> dict:
    """The number each signal shows: the risk of the silence, days, the change in interactions, weeks."""
    has = bool(c["active_days"][0] > 0)
    return {
        "silence_beyond_habit": round(float(signal_risks(c)["silence_beyond_habit"][0]), 2),
        "days_since_last": round(float(c["recency_days"][0]), 1) if has else None,
        "frequency_trend": int(c["n_30"][0]) - int(c["n_prev30"][0]),
        "active_weeks": int(c["active_weeks_90"][0]),
    }


def _sentences(c: dict) -> dict[str, str]:
    """Each signal in plain English, from the numbers that gave its points."""
    if c["active_days"] == 0:
        never = "No interactions at all so far"
        return {name: sentence(never) for name in WEIGHTS}
    silent = int(c["recency_days"])
    return {
        "silence_beyond_habit": sentence(_habit(c, silent)),
        "days_since_last": sentence(f"Last heard from {days_ago(c['recency_days'])}"),
        "frequency_trend": sentence(_trend(int(c["n_30"]), int(c["n_prev30"]))),
        "active_weeks": sentence(f"Active in {plural(int(c['active_weeks_90']), 'week')} of the last "
                                 "90 days"),
    }


def _habit(c: dict, silent: int) -> str:
    """The silence set against the listener's usual gap between days with interactions."""
    since = f"{plural(silent, 'day')} since the last interaction" if silent else "An interaction today"
    if c["active_days"] < 2:
        return f"{since}; with interactions on only 1 day so far, this listener has no habit yet to compare with"
    gap = c["span_days"] / (c["active_days"] - 1)
    usually = "almost every day" if gap < 1.5 else f"every {plural(round(gap), 'day')}"
    return f"{since}; this listener usually interacts {usually}"


def _trend(last: int, prev: int) -> str:
    """Interactions of the last 30 days against the 30 before."""
    if last == prev == 0:
        return "No interactions in the last 60 days"
    if last == prev:
        return f"{plural(last, 'interaction')} in the last 30 days, the same as in the 30 days before"
    direction = "down" if last < prev else "up"
    return f"{plural(last, 'interaction')} in the last 30 days, {direction} from {number(prev)} in the 30 days before"


def published_evaluation() -> dict | None:
    """How well the score predicted who went quiet, as bench/churn.py last measured it: AUC against days since the
    last interaction and BG/NBD, per population, and how often each level went quiet (None: never measured)."""
    found = measured.read("churn")
    if not found:
        return None
    size = min((row["size"] for row in found["auc"]), key=lambda text: int(text.replace(",", "")))  # the demo's
    rows = [r for r in found["auc"] if r["size"] == size and "lifetimes" not in r["model"]]
    populations = list(dict.fromkeys(r["listeners"] for r in rows))
    return {"size": size, "seed": found["seed"], "horizon_days": found["horizon_days"],
            "measured_at": found["measured_at"],
            "models": [{"model": _model_name(model),
                        "auc": {r["listeners"]: float(r["AUC"]) for r in rows if r["model"] == model}}
                       for model in dict.fromkeys(r["model"] for r in rows)],
            "populations": populations,
            "levels": [{"level": r["level"], "share_quiet": r["share quiet"]}
                       for r in found["levels"] if r["size"] == size]}


def _model_name(bench_name: str) -> str:
    """"churn risk (core.search.churn)" -> "Churn risk"; "BG/NBD 1 - P(alive), numpy MLE" -> "BG/NBD 1 - P(alive)"."""
    name = bench_name.replace(" (core.search.churn)", "").replace(", numpy MLE", "")
    return name[:1].upper() + name[1:]
