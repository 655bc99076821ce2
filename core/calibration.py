"""Honest confidences: what a raw score was worth on the station's own labelled data (an AI guess against the values
listeners declared, core.ai; a search score against queries whose answer the station's data knows, core.search).

A raw score (the winning value's share of a vote, a posterior, a cosine) is not a probability of being right: 60% of
the look-alikes agreeing may be right 80% of the time for one field and 40% for another. So the same guess is made
where the answer is known (for a field, for a sample of listeners who declared it, leaving themselves out), and the
scores are binned (at least PER_BIN guesses a bin) with the share of each bin that was right; a monotone fit (pool
adjacent violators) makes a higher score never worth less. The confidence shown for a score is the accuracy of its
bin (by the rule of succession, (right + 1) / (guesses + 2), so that a bin right every time still claims no
certainty): 0.70 or more means that on this station, guesses like it were right at least 70% of the time. Fewer
than MIN_SAMPLES checked guesses are too few to say that; the confidence is then held at CAP at most, below the
promotion threshold.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PER_BIN = 100
REFIT_SHARE = 0.01
"""A fit stands while what it was fitted on moved by at most this share of it (or one): the station's search
calibration (core.search.calibration) and its churn scoring (core.churn.store) are made again past it."""
MIN_SAMPLES = 200
CAP = 0.5
MOST = 0.99
"""No guess is certain, however often guesses like it came true."""


@dataclass(frozen=True)
class Calibration:
    """Score bins (their upper edges) and the monotone accuracy of each; `samples` guesses were checked."""

    upper: np.ndarray
    accuracy: np.ndarray
    samples: int

    @property
    def trusted(self) -> bool:
        """Whether enough guesses were checked for the accuracy to be shown as it is."""
        return self.samples >= MIN_SAMPLES

    def confidences(self, scores: np.ndarray) -> np.ndarray:
        """confidence() of many scores at once, unrounded (a ranking keeps its order)."""
        scores = np.asarray(scores, dtype=float)
        if not len(self.accuracy):
            return np.minimum(scores, CAP)
        at = np.minimum(np.searchsorted(self.upper, scores, side="left"), len(self.accuracy) - 1)
        values = np.minimum(self.accuracy[at], MOST)
        return values if self.trusted else np.minimum(values, CAP)

    def confidence(self, score: float) -> float:
        """The accuracy of guesses with this score, to 2 decimals (at most CAP when not trusted)."""
        if not len(self.accuracy):
            return round(min(float(score), CAP), 2)
        at = min(int(np.searchsorted(self.upper, score, side="left")), len(self.accuracy) - 1)
        value = min(float(self.accuracy[at]), MOST)
        return round(value if self.trusted else min(value, CAP), 2)


def calibrate(scores: np.ndarray, correct: np.ndarray, per_bin: int = PER_BIN) -> Calibration:
    """The calibration of guesses with these raw scores, of which `correct` were right."""
    scores, correct = np.asarray(scores, dtype=float), np.asarray(correct, dtype=float)
    if not len(scores):
        return Calibration(np.array([]), np.array([]), 0)
    order = np.argsort(scores, kind="stable")
    scores, correct = scores[order], correct[order]
    ends = _bin_ends(scores, max(1, min(per_bin, len(scores))))
    starts = np.r_[0, ends[:-1]]
    counts = ends - starts
    accuracy = (np.add.reduceat(correct, starts) + 1) / (counts + 2)  # rule of succession: never quite 0 or 1
    return Calibration(scores[ends - 1], isotonic(accuracy, counts), len(scores))


def _bin_ends(scores: np.ndarray, per_bin: int) -> np.ndarray:
    """Exclusive ends of consecutive bins of at least `per_bin` sorted scores; equal scores share a bin, and a short
    last bin joins the one before."""
    ends, start = [], 0
    while start < len(scores):
        end = min(start + per_bin, len(scores))
        end = int(np.searchsorted(scores, scores[end - 1], side="right"))
        ends.append(end)
        start = end
    if len(ends) > 1 and ends[-1] - ends[-2] < per_bin:
        ends.pop(-2)
    return np.array(ends)


def isotonic(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence nearest to `values` in weighted least squares (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for value, weight in zip(values.tolist(), np.asarray(weights, dtype=float).tolist()):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (m1, w1, n1), (m2, w2, n2) = blocks[-2], blocks[-1]
            blocks[-2:] = [[(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2]]
    return np.concatenate([np.full(n, m) for m, _, n in blocks])


def still_stands(fitted_on: int, moved: int) -> bool:
    """Whether a fit made on `fitted_on` items (vectors, interactions) still stands after `moved` of them were added,
    removed or written again: at most REFIT_SHARE of them, or one."""
    return moved <= max(1, REFIT_SHARE * fitted_on)
