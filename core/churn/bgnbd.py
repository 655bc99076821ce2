"""BG/NBD (Fader, Hardie and Lee 2005), the standard model of customers who stop without saying so: each listener
interacts at their own Poisson rate (Gamma across listeners) and after any active day may go quiet for good (Beta
across listeners). Fitted by maximum likelihood on the histories before a cut-off; its churn baseline is the expected
number of active days in the horizon (few means likely quiet), not P(alive), which calls everyone who was active on
one day only alive.
"""
from __future__ import annotations

import numpy as np
from scipy.special import gammaln, hyp2f1


def log_likelihood(params: np.ndarray, x: np.ndarray, t_x: np.ndarray, big_t: np.ndarray,
                   distinct: tuple[np.ndarray, np.ndarray] | None = None) -> float:
    """Total log-likelihood of (r, alpha, a, b), FHL 2005 eq. 6; x repeat active days, t_x and T in days. `distinct`
    is `np.unique(x, return_inverse=True)`, which a fit computes once for its hundreds of evaluations."""
    r, alpha, a, b = params
    counts, at = np.unique(x, return_inverse=True) if distinct is None else distinct  # few distinct whole numbers
    per_count = gammaln(r + counts) + gammaln(b + counts) - gammaln(a + b + counts)
    head = per_count[at.reshape(-1)] - gammaln(r) + r * np.log(alpha) + gammaln(a + b) - gammaln(b)
    alive = -(r + x) * np.log(alpha + big_t)
    with np.errstate(divide="ignore", invalid="ignore"):
        died = np.where(x > 0, np.log(a) - np.log(np.maximum(b + x - 1, 1e-12)) - (r + x) * np.log(alpha + t_x),
                        -np.inf)
    return float(np.sum(head + np.logaddexp(alive, died)))


def fit(x: np.ndarray, t_x: np.ndarray, big_t: np.ndarray) -> np.ndarray:
    """(r, alpha, a, b) of the histories, by Nelder-Mead on their logarithms (all four are positive), to a thousandth
    of each (far finer than a month's histories measure them)."""
    distinct = np.unique(x, return_inverse=True)

    def loss(log_params: np.ndarray) -> float:
        value = -log_likelihood(np.exp(log_params), x, t_x, big_t, distinct) / max(1, len(x))
        return value if np.isfinite(value) else 1e12

    from scipy.optimize import minimize  # about 0.5 s to import: only a fit needs it, not a score

    found = minimize(loss, np.zeros(4), method="Nelder-Mead", options={"maxiter": 2000, "xatol": 1e-3,
                                                                       "fatol": 1e-7})
    return np.exp(found.x)


def expected_active_days(params: np.ndarray, t: float, x: np.ndarray, t_x: np.ndarray,
                         big_t: np.ndarray) -> np.ndarray:
    """E[active days in the next t days | x, t_x, T], FHL 2005 eq. 10. It holds for any a > 0, below 1 too (the
    fit on CDNOW and on most stations): (a - 1) and the bracket then change sign together."""
    r, alpha, a, b = params
    if abs(a - 1.0) < 1e-6:  # a = 1 is the formula's one removable break (0 / 0): read a just beside it
        a = 1.0 + 1e-6
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        z = t / (alpha + big_t + t)
        growth = 1.0 - ((alpha + big_t) / (alpha + big_t + t)) ** (r + x) * hyp2f1(r + x, b + x, a + b + x - 1, z)
        head = (a + b + x - 1) / (a - 1) * growth
        odds = np.where(x > 0, a / np.maximum(b + x - 1, 1e-12) * ((alpha + big_t) / (alpha + t_x)) ** (r + x), 0.0)
        out = head / (1.0 + odds)
    return np.nan_to_num(out, nan=0.0, posinf=float(t), neginf=0.0)
