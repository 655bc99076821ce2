"""Ideas for a better churn model, each measured beside the baselines in one run (`python -m bench.churn --ideas`),
and CDNOW's 39-week holdout, the split the literature judges BG/NBD on.

Each idea learns as the service's model does (core.churn.model.fitted: from the older cut-offs, the newest held
out) and is judged twice: on the newest training cut-off, learning from the ones before it (the check an idea is
chosen on), and on the held-out cut-off (the figure reported, never chosen on). The ideas: BG/NBD's P(alive) and
expected active days as features; frequency x recency x tenure interactions on the logarithms; monotone gradient
boosting (scikit-learn's HistGradientBoostingClassifier, risk rising with silence and falling with activity) on the
features and with BG/NBD's; stacking (a logistic regression, fitted on the newest training cut-off, of the model's
logit, recency and BG/NBD, each learned on the cut-offs before it); and learning from eight cut-offs, not four.
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta

import numpy as np

from core.churn import bgnbd
from core.churn.features import AsOf, quiet_after
from core.churn.measures import auc
from core.churn.model import CUTOFFS, HORIZON_DAYS, Interactions, _learned, backtest, samples
from core.churn.store import probabilities

RISING = (1, 0, -1, -1, -1, -1, -1, -1, 1, -1, 0, 0, -1)
"""Monotone constraints on core.churn.features.NAMES: risk rises with silence, falls with activity, free elsewhere."""


def bg_columns(f: AsOf, params: np.ndarray, horizon: int) -> list[np.ndarray]:
    """BG/NBD's log expected active days in the horizon and its P(alive), as features."""
    r, alpha, a, b = params
    x, t_x, big_t = f.repeat_days, f.span, f.age
    odds = np.where(x > 0, a / np.maximum(b + x - 1, 1e-12) * ((alpha + big_t) / (alpha + t_x)) ** (r + x), 0.0)
    return [np.log1p(bgnbd.expected_active_days(params, horizon, x, t_x, big_t)), 1.0 / (1.0 + odds)]


def crossed(f: AsOf) -> list[np.ndarray]:
    """Frequency x recency x tenure, on their logarithms, and the active span's share of the tenure."""
    rec, freq, age = np.log1p(f.recency), np.log1p(f.repeat_days), np.log1p(f.age)
    return [rec * freq, age * freq, rec * age, np.log1p(f.span) - age]


def _logistic(train: list[np.ndarray], quiet: np.ndarray):
    w = _learned(train, quiet)
    return lambda x: ((x - w["mean"]) / w["scale"]) @ np.asarray(w["coef"])


def _boosted(train: list[np.ndarray], quiet: np.ndarray, monotone: tuple):
    from sklearn.ensemble import HistGradientBoostingClassifier

    found = HistGradientBoostingClassifier(max_iter=100, learning_rate=0.1, max_leaf_nodes=15, min_samples_leaf=100,
                                           monotonic_cst=list(monotone), early_stopping=False, random_state=0)
    found.fit(np.vstack(train), quiet.astype(int))
    return lambda x: found.predict_proba(x)[:, 1]


IDEAS = {
    "the service's model (logistic regression)": (lambda f, p, h: [], "logistic"),
    "+ BG/NBD P(alive) and expected days": (bg_columns, "logistic"),
    "+ frequency x recency x tenure": (lambda f, p, h: crossed(f), "logistic"),
    "+ both": (lambda f, p, h: bg_columns(f, p, h) + crossed(f), "logistic"),
    "monotone boosting": (lambda f, p, h: [], "boosted"),
    "monotone boosting + BG/NBD": (bg_columns, "boosted"),
}


def scored(idea: str, train: list, test: AsOf, horizon: int, score_horizon: int | None = None) -> np.ndarray:
    """An idea learned on `train` (samples, newest first) and scoring `test`; BG/NBD is fitted on the newest."""
    extra, kind = IDEAS[idea]
    latest = train[0].features
    params = bgnbd.fit(latest.repeat_days, latest.span, latest.age)

    def matrix(f: AsOf, h: int) -> np.ndarray:
        return np.column_stack([f.matrix, *extra(f, params, h)])

    xs, quiet = [matrix(s.features, horizon) for s in train], np.concatenate([s.quiet for s in train])
    monotone = RISING + (-1, -1)[:len(xs[0][0]) - len(RISING)]
    learner = _logistic(xs, quiet) if kind == "logistic" else _boosted(xs, quiet, monotone)
    return learner(matrix(test, score_horizon or horizon))


def stacked(train: list, test: AsOf, horizon: int, score_horizon: int | None = None) -> np.ndarray:
    """The model's logit, log recency and BG/NBD's log expected days, learned on the cut-offs before the newest
    training one, combined by a logistic regression fitted on that newest one."""
    top, rest = train[0], train[1:] or train
    params = bgnbd.fit(rest[0].features.repeat_days, rest[0].features.span, rest[0].features.age)
    model = _logistic([s.features.matrix for s in rest], np.concatenate([s.quiet for s in rest]))

    def parts(f: AsOf, h: int) -> np.ndarray:
        return np.column_stack([model(f.matrix), np.log1p(f.recency), bg_columns(f, params, h)[0]])

    return _logistic([parts(top.features, horizon)], top.quiet)(parts(test, score_horizon or horizon))


def judged(train: list, test, horizon: int, score_horizon: int | None = None) -> dict[str, tuple[float, float]]:
    """Every idea's AUC on `test` (features, quiet) and the seconds it took to learn and score."""
    features, quiet = test
    out = {}
    for idea in [*IDEAS, "stacking"]:
        started = time.perf_counter()
        score = (stacked(train, features, horizon, score_horizon) if idea == "stacking"
                 else scored(idea, train, features, horizon, score_horizon))
        out[idea] = (auc(score, quiet), time.perf_counter() - started)
    return out


def baselines(train: list, test, score_horizon: int) -> dict[str, float]:
    """Days since the last interaction and BG/NBD's expected active days (fitted on the newest training cut-off)."""
    features, quiet = test
    latest = train[0].features
    params = bgnbd.fit(latest.repeat_days, latest.span, latest.age)
    expected = bgnbd.expected_active_days(params, score_horizon, features.repeat_days, features.span, features.age)
    return {"days since the last interaction": auc(features.recency, quiet), "BG/NBD expected active days":
            auc(-expected, quiet)}


def ideas(name: str, events: Interactions, now: datetime) -> list[dict]:
    """Each idea and each baseline on the newest training cut-off (learning from the ones before it) and on the
    held-out cut-off (learning from every training one), and the model learned from eight cut-offs; from the
    listeners the service learns from (a random LEARN_FROM at most)."""
    from bench.churn import as_learned

    every = samples(as_learned(events), now, HORIZON_DAYS, 2 * CUTOFFS)
    held, train = every[0], every[1:CUTOFFS]
    checks = {"chosen on (newest training cut-off)": (train[1:], (train[0].features, train[0].quiet)),
              "held out (reported)": (train, (held.features, held.quiet))}
    rows = {}
    for column, (learn, test) in checks.items():
        for method, value in baselines(learn, test, HORIZON_DAYS).items():
            rows.setdefault(method, {"dataset": name, "scored by": method})[column] = _fmt(value)
        for idea, (value, seconds) in judged(learn, test, HORIZON_DAYS).items():
            rows.setdefault(idea, {"dataset": name, "scored by": idea})[column] = _fmt(value)
            rows[idea]["s"] = f"{seconds:.2f}"
        more = every[1:] if column.startswith("held") else every[2:]
        started = time.perf_counter()
        value = auc(scored(next(iter(IDEAS)), more, test[0], HORIZON_DAYS), test[1])
        rows.setdefault("eight", {"dataset": name, "scored by": "the service's model, from 8 cut-offs"})[column] = (
            _fmt(value))
        rows["eight"]["s"] = f"{time.perf_counter() - started:.2f}"
    return list(rows.values())


def holdout(name: str, events: Interactions, end: datetime, weeks: int = 39) -> list[dict]:
    """The literature's split: at `weeks` before the end, the service learns from what it knew then (its backtest
    at its own horizon) and ranks every customer by its probabilities; AUC on who made no purchase in the `weeks`
    after, beside the baselines, each idea, and the most these features can rank (a logistic regression fitted on
    these very outcomes, five-fold cross-validated)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict

    from bench.churn import as_learned

    at = end - timedelta(weeks=weeks)
    cutoff, horizon = int(at.timestamp()), weeks * 7
    known = as_learned(events, cutoff)
    report, scoring = backtest(known, at)
    heard = events.at(cutoff + 1)
    quiet = quiet_after(events.row, events.ts, events.n, cutoff + 1, horizon)[heard.rows]  # `at` itself is known
    train = samples(known, at, HORIZON_DAYS, CUTOFFS + 1)  # what the service refits on: every cut-off
    rows = [{"dataset": name, "scored by": f"the service ({report.chosen}, its probabilities)",
             f"AUC, {weeks} weeks after": _fmt(auc(probabilities(scoring, events, at)[heard.rows], quiet))}]
    for method, value in baselines(train, (heard, quiet), horizon).items():
        rows.append({"dataset": name, "scored by": method, f"AUC, {weeks} weeks after": _fmt(value)})
    for idea, (value, _) in judged(train, (heard, quiet), HORIZON_DAYS, horizon).items():
        rows.append({"dataset": name, "scored by": idea, f"AUC, {weeks} weeks after": _fmt(value)})
    x = np.column_stack([heard.matrix, *crossed(heard)])
    x = (x - x.mean(axis=0)) / np.where(x.std(axis=0) > 0, x.std(axis=0), 1.0)
    best = cross_val_predict(LogisticRegression(max_iter=3000), x, quiet, cv=5, method="predict_proba")[:, 1]
    rows.append({"dataset": name, "scored by": "fitted on these very outcomes, 5-fold (about the most these "
                 "features rank)", f"AUC, {weeks} weeks after": _fmt(auc(best, quiet))})
    return rows


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"

