"""Measure churn risk honestly: `python -m bench.churn [--sizes 20000 200000] [--seed 7]`.

The demo station's interactions are generated in memory (no database). The cut-off is the last interaction minus 30
days; every score is computed from the interactions up to the cut-off only, and a listener with at least one
interaction by then is labelled "went quiet" when none follows in the 30 days after it. Each model is judged by its ROC
AUC against that label: core.search.churn, days since the last interaction alone, and the BG/NBD probability of
being alive (Fader, Hardie and Lee 2005, closed form, fitted by maximum likelihood on the same pre-cut-off histories,
labels unseen). When the `lifetimes` package can be imported, its BetaGeoFitter is run too as a cross-check; it is
not a dependency of the project. The churn weights were chosen on seed 11; seed 7 (the demo's own) is the test.
"""
from __future__ import annotations

import argparse
import math
from datetime import UTC, datetime

import numpy as np

from bench.generate import DEFAULT_NOW
from bench.run import markdown
from core import measured
from core.demo import catalogue as cat
from core.demo.history import place, plan_histories
from core.demo.station import generate_station
from core.search.churn import LEVELS, churn_inputs, churn_levels, churn_scores
from core.segmentation.behaviour import DAY

HORIZON_DAYS = 30


def demo_interactions(size: int, seed: int, now: str = DEFAULT_NOW) -> tuple[np.ndarray, np.ndarray]:
    """(listener row, epoch seconds) of every interaction of the demo station, built as the import files are."""
    station = generate_station(1, size, seed, datetime.fromisoformat(now))
    rows, times = [], []
    for people in station.batches():
        start = int(people["index"][0])
        rng = np.random.default_rng([station.seed, start, 2])
        events = place(rng, plan_histories(rng, people, station.calendar), people, station.calendar)
        rows.append(events["who"] + start)
        times.append(events["t"])
    return np.concatenate(rows).astype(np.int64), np.concatenate(times).astype(np.int64)


def auc(score: np.ndarray, positive: np.ndarray) -> float:
    """ROC AUC as the Mann-Whitney U of the positives' ranks (ties take their average rank)."""
    _, inverse, counts = np.unique(score, return_inverse=True, return_counts=True)
    average_rank = np.cumsum(counts) - (counts - 1) / 2.0
    ranks = average_rank[inverse.reshape(-1)]
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def _lgamma(values: np.ndarray) -> np.ndarray:
    """log Gamma elementwise (numpy has none), computed once per distinct value."""
    unique, inverse = np.unique(values, return_inverse=True)
    return np.array([math.lgamma(v) for v in unique.tolist()])[inverse.reshape(-1)]


def bgnbd_log_likelihood(params: np.ndarray, x: np.ndarray, t_x: np.ndarray, big_t: np.ndarray) -> float:
    """Total BG/NBD log-likelihood of (r, alpha, a, b), FHL 2005 eq. 6, with x repeat days, t_x and T in days."""
    r, alpha, a, b = params
    head = _lgamma(r + x) - math.lgamma(r) + r * math.log(alpha)
    head += math.lgamma(a + b) + _lgamma(b + x) - math.lgamma(b) - _lgamma(a + b + x)
    alive = -(r + x) * np.log(alpha + big_t)
    with np.errstate(divide="ignore", invalid="ignore"):
        died = np.where(x > 0, math.log(a) - np.log(b + x - 1) - (r + x) * np.log(alpha + t_x), -np.inf)
    return float(np.sum(head + np.logaddexp(alive, died)))


def nelder_mead(f, start: np.ndarray, steps: int = 600, tol: float = 1e-7) -> np.ndarray:
    """Minimise f by the Nelder-Mead simplex (scipy is not a dependency; four parameters need nothing more)."""
    simplex = np.vstack([start] + [start + 0.5 * np.eye(len(start))[i] for i in range(len(start))])
    values = np.array([f(p) for p in simplex])
    for _ in range(steps):
        order = np.argsort(values)
        simplex, values = simplex[order], values[order]
        if abs(values[-1] - values[0]) <= tol * (abs(values[0]) + 1):
            break
        centre = simplex[:-1].mean(axis=0)
        candidates = [centre + k * (simplex[-1] - centre) for k in (-1.0, -2.0, 0.5)]
        tried = [f(p) for p in candidates[:1]]
        if tried[0] < values[0]:
            grown = f(candidates[1])
            simplex[-1], values[-1] = (candidates[1], grown) if grown < tried[0] else (candidates[0], tried[0])
        elif tried[0] < values[-2]:
            simplex[-1], values[-1] = candidates[0], tried[0]
        else:
            inner = f(candidates[2])
            if inner < values[-1]:
                simplex[-1], values[-1] = candidates[2], inner
            else:
                simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
                values[1:] = [f(p) for p in simplex[1:]]
    return simplex[np.argmin(values)]


def bgnbd_p_alive(x: np.ndarray, t_x: np.ndarray, big_t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P(alive) of every listener under BG/NBD fitted to these histories; also the fitted (r, alpha, a, b)."""
    def loss(log_params):
        return -bgnbd_log_likelihood(np.exp(log_params), x, t_x, big_t) / len(x)

    r, alpha, a, b = params = np.exp(nelder_mead(loss, np.zeros(4)))
    with np.errstate(over="ignore"):
        odds = np.where(x > 0, a / (b + x - 1) * ((alpha + big_t) / (alpha + t_x)) ** (r + x), 0.0)
    return 1.0 / (1.0 + odds), params


def lifetimes_p_alive(x, t_x, big_t) -> np.ndarray | None:
    """The same with the lifetimes package, when it is installed (a cross-check, not a dependency)."""
    try:
        from lifetimes import BetaGeoFitter  # optional: only this bench uses it, and only when present
    except ImportError:
        return None
    fitter = BetaGeoFitter(penalizer_coef=0.0).fit(x, t_x, big_t)
    return np.asarray(fitter.conditional_probability_alive(x, t_x, big_t))


CHURN = "churn risk (core.search.churn)"


def model_scores(size: int, seed: int) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Each model's risk of the listeners active before the cut-off, their label, and who was active in the 90 days
    before it; nothing after the cut-off reaches a score."""
    row, ts = demo_interactions(size, seed)
    cutoff = int(ts.max()) - HORIZON_DAYS * DAY
    c = churn_inputs(row, ts, size, datetime.fromtimestamp(cutoff, UTC), cat.TIMEZONE)
    after = (ts > cutoff) & (ts <= cutoff + HORIZON_DAYS * DAY)
    active = c["active_days"] > 0
    quiet = (np.bincount(row[after], minlength=size) == 0)[active]
    x, span, recency = c["active_days"][active] - 1.0, c["span_days"][active], c["recency_days"][active]
    t_x = np.where(x > 0, span, 0.0)  # hours between interactions of one single day are no repeat
    p_alive, params = bgnbd_p_alive(x, t_x, span + recency)
    print(f"  {size:,} listeners, seed {seed}: BG/NBD r, alpha, a, b = {np.round(params, 4).tolist()}", flush=True)
    scores = {CHURN: churn_scores(c)[active].astype(float), "days since last interaction": recency,
              "BG/NBD 1 - P(alive), numpy MLE": 1.0 - p_alive}
    checked = lifetimes_p_alive(x, t_x, span + recency)
    if checked is not None:
        scores["BG/NBD 1 - P(alive), lifetimes"] = 1.0 - checked
    return scores, quiet, recency <= 90


def evaluate(size: int, seed: int) -> tuple[list[dict], list[dict]]:
    """AUC rows of every model, for all listeners active before the cut-off and for those active in the 90 days before
    it (the dormant, who are easy, left out); and how often each churn level went quiet."""
    scores, quiet, recent = model_scores(size, seed)
    table = []
    for population, keep in (("all", np.ones(len(quiet), dtype=bool)), ("active in last 90 days", recent)):
        table += [{"size": f"{size:,}", "seed": seed, "listeners": population, "model": name,
                   "AUC": f"{auc(score[keep], quiet[keep]):.4f}", "n listeners": f"{int(keep.sum()):,}",
                   "share quiet": f"{quiet[keep].mean():.1%}"} for name, score in scores.items()]
    levels = churn_levels(scores[CHURN].astype(np.int16))
    calibration = [{"size": f"{size:,}", "seed": seed, "level": name, "n listeners": f"{int((levels == code).sum()):,}",
                    "share quiet": f"{quiet[levels == code].mean():.1%}" if (levels == code).any() else "-"}
                   for code, name in enumerate(LEVELS)]
    return table, calibration


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.churn", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    tables, calibrations = [], []
    for size in args.sizes:
        table, calibration = evaluate(size, args.seed)
        tables += table
        calibrations += calibration
    print(markdown(tables))
    print()
    print(markdown(calibrations))
    path = measured.write("churn", {"measured_at": datetime.now(UTC).date().isoformat(), "seed": args.seed,
                                    "horizon_days": HORIZON_DAYS, "auc": tables, "levels": calibrations})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
