"""No score without evidence (docs/decisions.md §5): a listener is an answer to a query's free words only when they
hold what those words are about, as a value of the station the words mean (core.search.meaning) or in their own
words (what they wrote, as the lexical index holds it: the word, its stem, or the English of a word of another
language, core.search.glosses). Closeness in meaning alone is no evidence: it orders the answers, it never makes one.

Each word weighs what holding it tells (its idf among the station's listeners: a word nobody wrote tells the most),
and a listener's coverage is the weight of the words they hold over the weight of all the query's words. "worship
music" is about worship more than music (a word many listeners wrote), so a listener holding only "music" covers
little of it; "heavy metal" is not answered by listeners who wrote about heavy traffic. A listener is an answer
when they cover at least COVER. The query is read as written and, where it holds words of the station's other
languages, as their English too: the better reading counts.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.search.bound import EXACT_FLOOR
from core.search.meaning import Value

COVER = 0.5
"""The share of a query's weight a listener must hold more than to be an answer: more of what it is about than
not (one of two words that tell as much is not enough)."""


@dataclass(frozen=True)
class Word:
    """One free word of a query: what it means among the station's values, who holds those values, who wrote it,
    and what holding it tells."""

    text: str
    meant: tuple[tuple[Value, float], ...] = ()
    holders: np.ndarray | None = None  # bool per candidate: holds a value the word means
    writers: np.ndarray | None = None  # bool per candidate: wrote it
    weight: float = 0.0
    heard: bool = False  # some listener of the station holds it, either way

    def held(self, n: int) -> np.ndarray:
        """Who holds the word, either way (bool per candidate)."""
        out = np.zeros(n, dtype=bool)
        for part in (self.holders, self.writers):
            if part is not None:
                out |= part
        return out


@dataclass(frozen=True)
class Reading:
    """The query's free words as one reading: as written, or their English."""

    words: tuple[Word, ...] = field(default_factory=tuple)

    def coverage(self, n: int) -> np.ndarray:
        """Each candidate's share of the reading's weight that they hold."""
        weights = self.weights()
        total = sum(weights)
        if not total:
            return np.zeros(n)
        return sum(weight * w.held(n) for weight, w in zip(weights, self.words) if weight) / total

    def weights(self) -> list[float]:
        """Each word's weight. A run of words nobody holds either way is one unknown thing, weighing as a single word
        does, and no more than the most telling word someone holds: "power cuts and load shedding" is mostly about
        the load shedding listeners wrote of, while "heavy metal" weighs as much on the metal nobody wrote of as on
        the heavy somebody did (so that heavy traffic is no answer)."""
        cap = max((w.weight for w in self.words if w.heard), default=0.0)
        out, in_run = [], False
        for word in self.words:
            out.append(word.weight if word.heard else 0.0 if in_run else min(word.weight, cap))
            in_run = not word.heard
        return out


def covered(readings: list[Reading], n: int) -> np.ndarray:
    """Each candidate's coverage: the best of the readings."""
    if not readings:
        return np.zeros(n)
    return np.max([r.coverage(n) for r in readings], axis=0)


def answers(cover: np.ndarray) -> np.ndarray:
    """Positions of the candidates that are answers: holding more than COVER of the query's weight."""
    return np.flatnonzero(cover > COVER + 1e-9)


def scores(cover: np.ndarray, lexical: np.ndarray) -> np.ndarray:
    """The score of answers with this coverage and lexical share: an answer holds what the query is about, so it
    scores as an exact match does (core.search.bound: from EXACT_FLOOR, above the contract's default min_score),
    higher by half how much more of the query it holds than it must, half how strongly its text holds the words."""
    beyond = np.clip((np.asarray(cover) - COVER) / (1 - COVER), 0, 1)
    strength = 0.5 * beyond + 0.5 * np.clip(np.asarray(lexical), 0, 1)
    return np.round(EXACT_FLOOR + (1 - EXACT_FLOOR) * np.minimum(strength, 0.999), 4)  # below 1: min_score 1 is none
