"""Learn, judge and choose a station's churn scoring on its own past (the backtest), then score its listeners now.

At CUTOFFS cut-offs one horizon apart, the newest one horizon back (its outcomes are known), the listeners with an
interaction before the cut-off are read as of it (core.churn.features) and labelled quiet when none followed within
the horizon. The newest cut-off is held out: the model (a logistic regression on the features) learns from the older
ones, and every method is calibrated on the newest of those (core.churn.model.fitted says why). Each method (the
model; days since the last interaction; BG/NBD's expected active days, core.churn.bgnbd) is judged on the held-out
cut-off by how well it ranks who went quiet (AUC: the chance that of one listener who went quiet and one who did not,
the first is scored higher) and by the Brier score of its probabilities. The model scores the station only when it
ranks better than both baselines, else the better baseline does; a station with fewer than MIN_LABELLED listeners at
the held-out cut-off, or none heard from before the older ones, is scored by days since the last interaction (too
little to learn from). Whatever scores is
fitted again with the newest cut-off included, so that a probability of 0.7 means that about 7 in 10 listeners like
that went quiet within the horizon last time. A station of more than LEARN_FROM listeners heard from learns and is
checked on a fixed random LEARN_FROM of them (`sample_of`); every listener is scored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from core.churn import bgnbd
from core.churn.features import DAY, AsOf, as_of, quiet_after
from core.churn.measures import auc, brier, reliability

HORIZON_DAYS = 30
CUTOFFS = 4
"""Cut-offs one horizon apart, the newest one horizon back (its labels are complete): 30, 60, 90 and 120 days."""
MIN_LABELLED = 500
LEARN_FROM = 25_000
"""Listeners heard from that a backtest learns from and checks on at most (a fixed random sample of them beyond):
thirteen weights, four BG/NBD parameters and a calibration are as well measured on 25,000 listeners as on a
million (bench.churn --sampled measures it against learning from everyone), and the day's first run then learns in
a fraction of a second at any size instead of seconds to tens of seconds."""
MODEL, RECENCY, BGNBD = "model", "recency", "bgnbd"
METHODS = (MODEL, RECENCY, BGNBD)
ORDER_SHARE = 1e-3
"""The share of a probability that keeps the raw risk's order where the calibration is flat (`Scoring.probability`):
listeners the model tells apart are not tied, and no probability moves by more than a tenth of a percentage point."""


@dataclass(frozen=True)
class Interactions:
    """A station's interactions as the features read them: listener row, time (epoch seconds) and what they were."""

    row: np.ndarray
    ts: np.ndarray
    n: int
    tz: str | None = None  # the station's zone (core.clock.zone_of: none is the default station zone)
    channel: np.ndarray | None = None
    campaign: np.ndarray | None = None
    timeslot: np.ndarray | None = None
    heard: int | None = None  # listeners heard from, of whom these are a random sample (`sample_of`); None: all

    def __post_init__(self):
        """In order of listener, then time, as core.churn.features.as_of reads them."""
        if len(self.row) and not _in_order(self.row, self.ts):
            order = by_listener_then_time(self.row, self.ts)
            for name in ("row", "ts", "channel", "campaign", "timeslot"):
                if getattr(self, name) is not None:
                    object.__setattr__(self, name, np.asarray(getattr(self, name))[order])

    @classmethod
    def of(cls, row: np.ndarray, ts: np.ndarray, n: int, tz: str | None = None, channel: np.ndarray | None = None,
           campaign: np.ndarray | None = None, timeslot: np.ndarray | None = None,
           at_most: int | None = None) -> Interactions:
        """Every listener's interactions, or those of a random `at_most` of the listeners heard from (`sample_of`),
        drawn before they are put in order (a sort of a sample, not of every interaction)."""
        drawn = sample_of(row, n, at_most) if at_most else None
        if drawn is None:
            return cls(row, ts, n, tz, channel, campaign, timeslot)
        keep, sampled, heard = drawn
        kept = (None if v is None else v[keep] for v in (channel, campaign, timeslot))
        return cls(sampled, ts[keep], at_most, tz, *kept, heard=heard)

    def at(self, cutoff: int) -> AsOf:
        return as_of(self.row, self.ts, self.n, cutoff, self.tz, self.channel, self.campaign, self.timeslot)


def by_listener_then_time(row: np.ndarray, ts: np.ndarray) -> np.ndarray:
    """The order of interactions by listener, then time (ties kept as given): one stable sort of a key that packs
    both into an int64 (rows below 2^31, seconds from the earliest below 2^32, 136 years), which is three times
    faster than `np.lexsort` on 2M interactions, and faster still on the nearly ordered ones a station's copy
    holds."""
    ts = np.asarray(ts, dtype=np.int64)
    if not len(ts):
        return np.zeros(0, dtype=np.int64)
    since = ts - ts.min()
    if (since.max() >= 2 ** 32 or np.asarray(row).max() >= 2 ** 31):  # beyond what the key holds
        return np.lexsort((ts, row))
    return np.argsort((np.asarray(row, dtype=np.int64) << 32) | since, kind="stable")


def sample_of(row: np.ndarray, n: int, at_most: int = LEARN_FROM) -> tuple[np.ndarray, np.ndarray, int] | None:
    """None when no more than `at_most` of the `n` listeners were heard from; else which interactions belong to a fixed
    random `at_most` of them, their rows renumbered 0 to `at_most` - 1 in the same order (so interactions in order
    stay in order), and how many listeners were heard from. The same station's sample is the same listeners from one
    run to the next while its rows stand."""
    heard = np.flatnonzero(np.bincount(row, minlength=n)) if len(row) else np.zeros(0, dtype=np.int64)
    if len(heard) <= at_most:
        return None
    chosen = np.sort(np.random.default_rng(0).choice(heard, at_most, replace=False))
    renumbered = np.full(n, -1, dtype=np.int64)
    renumbered[chosen] = np.arange(at_most)
    mapped = renumbered[row]
    keep = mapped >= 0
    return keep, mapped[keep], len(heard)


def _in_order(row: np.ndarray, ts: np.ndarray) -> bool:
    step, same = np.diff(row), np.diff(row) == 0
    return bool((step >= 0).all() and (np.diff(ts)[same] >= 0).all())


@dataclass(frozen=True)
class Sample:
    """The listeners as of one cut-off and whether each went quiet in the horizon after it."""

    cutoff: int
    features: AsOf
    quiet: np.ndarray


@dataclass(frozen=True)
class Scoring:
    """A fitted way of scoring: the method, what it learned, and its calibration from raw risk to probability."""

    method: str
    weights: dict = field(default_factory=dict)  # model: mean, scale, coef, intercept; bgnbd: params
    knots: tuple = ((), ())  # the isotonic calibration's raw risks and probabilities
    usual: tuple = ()  # the typical listener's features (medians at the latest cut-off), core.churn.explain
    horizon_days: int = HORIZON_DAYS  # the chance is of going quiet within this many days

    def risk(self, features: AsOf) -> np.ndarray:
        """Raw risk, higher for more likely quiet (not a probability)."""
        if self.method == MODEL:
            w = self.weights
            z = ((features.matrix - w["mean"]) / w["scale"]) @ np.asarray(w["coef"]) + w["intercept"]
            return 1.0 / (1.0 + np.exp(-z))
        if self.method == BGNBD:
            params = np.asarray(self.weights["params"])
            return -bgnbd.expected_active_days(params, self.horizon_days, features.repeat_days, features.span,
                                               features.age)
        return features.recency

    def probability(self, features: AsOf) -> np.ndarray:
        """The calibrated chance of going quiet within the horizon, in the order of the raw risk (ORDER_SHARE); for a
        station with nothing to calibrate on yet (no listener heard from before the newest cut-off), each listener's
        own pace (`own_pace`)."""
        xs, ys = self.knots
        if not len(xs):
            return own_pace(features, self.horizon_days)
        risk = self.risk(features)
        place = np.interp(risk, xs, np.linspace(0.0, 1.0, len(xs)))  # rises between every two knots
        return (1.0 - ORDER_SHARE) * np.interp(risk, xs, ys) + ORDER_SHARE * place


def own_pace(features: AsOf, horizon_days: int = HORIZON_DAYS) -> np.ndarray:
    """The chance that a listener active on d days over s days, silent for the last R, stays silent for h more days,
    if they take part at a steady rate of their own, Gamma(d, s + 30 + R) a day (a prior worth one 30-day gap): the
    Gamma-Poisson chance ((s + 30 + R) / (s + 30 + R + h)) ** d. What a station too young to learn from is scored by."""
    exposure = features.span + 30.0 + features.recency
    return (exposure / (exposure + horizon_days)) ** (features.repeat_days + 1)


@dataclass(frozen=True)
class Backtest:
    """How each method did on the held-out cut-off, and which one scores the station, and why."""

    held_out: int  # epoch seconds of the newest cut-off
    horizon_days: int
    labelled: int
    quiet_share: float
    metrics: dict  # method -> {"auc", "brier"}
    chosen: str
    reason: str
    reliability: list  # bands of the chosen method's held-out probabilities -> share that went quiet
    sampled_from: int | None = None  # listeners heard from, of whom a random LEARN_FROM were learned from; None: all


def samples(events: Interactions, now: datetime, horizon_days: int = HORIZON_DAYS,
            cutoffs: int = CUTOFFS) -> list[Sample]:
    """The labelled listeners at each cut-off, newest first."""
    end = int(now.astimezone(UTC).timestamp())
    found = []
    for k in range(1, cutoffs + 1):
        cutoff = end - k * horizon_days * DAY
        features = events.at(cutoff)
        quiet = quiet_after(events.row, events.ts, events.n, cutoff, horizon_days)[features.rows]
        found.append(Sample(cutoff, features, quiet))
    return found


def fitted(method: str, training: list[Sample], horizon_days: int = HORIZON_DAYS) -> Scoring:
    """The method fitted on these samples (newest first): the model learns from all of them, and every method is
    calibrated on the newest alone, the season closest to the one it will score (a station's share of listeners
    going quiet moves with its campaigns, from a third one month to two thirds another)."""
    from sklearn.isotonic import IsotonicRegression  # about 1 s to import: only a fit needs it, not a score

    used = [s for s in training if len(s.quiet)]
    quiet = np.concatenate([s.quiet for s in used]) if used else np.zeros(0, dtype=bool)
    if not used:
        return Scoring(method, {"params": [1.0, 1.0, 1.0, 1.0]} if method == BGNBD else {}, horizon_days=horizon_days)
    latest = used[0]
    weights = {}
    if method == MODEL:
        weights = _learned([s.features.matrix for s in used], quiet)
    elif method == BGNBD:  # the station's habits as they stood at the latest cut-off
        weights = {"params": bgnbd.fit(latest.features.repeat_days, latest.features.span,
                                       latest.features.age).tolist()}
    scoring = Scoring(method, weights, horizon_days=horizon_days)
    raw = scoring.risk(latest.features)
    calibration = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(raw, latest.quiet.astype(float))
    return Scoring(method, scoring.weights, (tuple(calibration.X_thresholds_.tolist()),
                                             tuple(calibration.y_thresholds_.tolist())),
                   tuple(np.median(latest.features.matrix, axis=0).tolist()), horizon_days)


def _learned(matrices: list[np.ndarray], quiet: np.ndarray) -> dict:
    """A logistic regression of going quiet on the standardised features."""
    from sklearn.linear_model import LogisticRegression  # about 1 s to import: only a fit needs it, not a score

    if not matrices or len(np.unique(quiet)) < 2:
        width = matrices[0].shape[1] if matrices else 0
        return {"mean": [0.0] * width, "scale": [1.0] * width, "coef": [0.0] * width, "intercept": 0.0}
    x = np.vstack(matrices)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    # Newton's method on 13 features: the same penalised fit as L-BFGS in about 6 steps instead of about 30
    found = LogisticRegression(C=1.0, max_iter=2000, solver="newton-cholesky").fit((x - mean) / scale,
                                                                                   quiet.astype(int))
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": found.coef_[0].tolist(),
            "intercept": float(found.intercept_[0])}


def backtest(events: Interactions, now: datetime, horizon_days: int = HORIZON_DAYS,
             cutoffs: int = CUTOFFS) -> tuple[Backtest, Scoring]:
    """Judge every method on the newest cut-off, choose, and fit the chosen one on every cut-off."""
    every = samples(events, now, horizon_days, cutoffs)
    newest, older = every[0], every[1:]
    learnable = any(len(s.quiet) for s in older)  # a station younger than two horizons has nothing to learn from
    judged = METHODS if len(newest.quiet) >= MIN_LABELLED and learnable else (RECENCY,)
    metrics = {method: {"auc": None, "brier": None} for method in METHODS}
    probabilities = {}
    for method in judged:
        scoring = fitted(method, older, horizon_days)
        p = scoring.probability(newest.features)
        probabilities[method] = p
        metrics[method] = {"auc": auc(scoring.risk(newest.features), newest.quiet),
                           "brier": brier(p, newest.quiet)}
    chosen, reason = choose(metrics, len(newest.quiet), learnable)
    report = Backtest(newest.cutoff, horizon_days, len(newest.quiet),
                      float(newest.quiet.mean()) if len(newest.quiet) else 0.0, metrics, chosen, reason,
                      reliability(probabilities[chosen], newest.quiet), events.heard)
    return report, fitted(chosen, every, horizon_days)


def choose(metrics: dict, labelled: int, learnable: bool = True) -> tuple[str, str]:
    """The method that scores the station, and why in a sentence (`learnable`: a listener was heard from before an
    older cut-off, so that the model and BG/NBD had something to learn from)."""
    if not labelled:
        return RECENCY, ("No listener was heard from before the newest cut-off, so nothing could be checked yet: "
                         "each listener is scored by their own pace until the station has history enough.")
    if labelled < MIN_LABELLED:
        return RECENCY, (f"Only {labelled} listeners could be checked against what they did next (at least "
                         f"{MIN_LABELLED} are needed to learn from): scored by days since the last interaction.")
    if not learnable:
        return RECENCY, ("No listener was heard from before the older cut-offs, so nothing could be learned yet: "
                         "scored by days since the last interaction.")
    best_baseline = max((RECENCY, BGNBD), key=lambda m: (_value(metrics[m]["auc"]), m == RECENCY))
    if _value(metrics[MODEL]["auc"]) > _value(metrics[best_baseline]["auc"]):
        return MODEL, "The station's own model ranked who went quiet better than both simple rules."
    return best_baseline, ("The station's own model did not rank who went quiet better than "
                           + ("days since the last interaction" if best_baseline == RECENCY else
                              "the habit model (BG/NBD)") + ", so that scores the station.")


def _value(x: float | None) -> float:
    return -1.0 if x is None or not np.isfinite(x) else x
