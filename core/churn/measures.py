"""How well a way of scoring churn did on listeners whose outcome is known: how it ranked them (AUC), how close its
probabilities came (Brier) and how reliable each band of them was."""
from __future__ import annotations

import numpy as np

BANDS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0001)


def auc(score: np.ndarray, positive: np.ndarray) -> float | None:
    """ROC AUC as the Mann-Whitney U of the positives' ranks (ties take their average rank); None with one class."""
    positive = np.asarray(positive, dtype=bool)
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    if not n_pos or not n_neg:
        return None
    _, inverse, counts = np.unique(score, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2.0)[inverse.reshape(-1)]
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def brier(p: np.ndarray, quiet: np.ndarray) -> float | None:
    """Mean squared distance of the probabilities from what happened (0 is perfect; always 0.5 scores 0.25)."""
    return float(np.mean((p - quiet) ** 2)) if len(p) and np.isfinite(p).all() else None


def reliability(p: np.ndarray, quiet: np.ndarray) -> list[dict]:
    """Per band of predicted probability: how many listeners, and the share that went quiet."""
    out = []
    for low, high in zip(BANDS, BANDS[1:]):
        inside = (p >= low) & (p < high)
        out.append({"band": f"{low:.1f}-{min(high, 1.0):.1f}", "listeners": int(inside.sum()),
                    "predicted": round(float(p[inside].mean()), 3) if inside.any() else None,
                    "observed": round(float(quiet[inside].mean()), 3) if inside.any() else None})
    return out
