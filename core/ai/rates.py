"""Message token rates: how often listeners who declared each value of a field write each token (core.ai.language),
learned from the station's own declared listeners, as naive Bayes needs them.

Rates start from prior rates worth PSEUDO tokens, OWN of them on the value's own tokens (isiZulu speakers write
`lang:ZULU`, Durban's listeners name Durban), so that a value few listeners declared still reads its own evidence;
the station's listeners then teach the rest (on the demo station a quarter of isiZulu speakers' messages are in
English, and listeners who give a province name the city).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.ai.language import SPELLINGS, language_named, station_spelling

PSEUDO = 5.0
OWN = 0.6


@dataclass(frozen=True)
class Rates:
    """How often listeners who declared each value write each token (values x tokens, as logarithms)."""

    tokens: dict[str, int]
    log_rates: np.ndarray

    def log_likelihood(self, tokens: list[str]) -> np.ndarray:
        """Log-likelihood of these tokens under each value (tokens never learned count for nothing)."""
        columns = [self.tokens[t] for t in tokens if t in self.tokens]
        return self.log_rates[:, columns].sum(axis=1)


def learn_rates(codes: np.ndarray, token_lists: list[list[str]], labels: list[str], prefixes: tuple) -> Rates:
    """Each value's token rates: counts over its declared listeners' tokens, started from prior rates."""
    names = sorted({t for tokens in token_lists for t in tokens} | _expected_tokens(labels, prefixes))
    index = {t: i for i, t in enumerate(names)}
    counts = np.zeros((len(labels), len(names)))
    for code, tokens in zip(codes.tolist(), token_lists):
        for t in tokens:
            counts[code, index[t]] += 1
    prior = _prior_rates(labels, names)
    rates = (counts + PSEUDO * prior) / (counts.sum(axis=1, keepdims=True) + PSEUDO)
    return Rates(index, np.log(rates))


def _expected_tokens(labels: list[str], prefixes: tuple) -> set[str]:
    """Tokens a value's listeners are expected to write before any is seen: their language, their place."""
    expected = set()
    if "lang:" in prefixes:
        expected |= {f"lang:{language.name}" for language in SPELLINGS if station_spelling(language, labels)}
    if "place:" in prefixes:
        expected |= {f"place:{label}" for label in labels}
    return expected


def _prior_rates(labels: list[str], names: list[str]) -> np.ndarray:
    """Prior token rates per value: OWN on the value's own tokens, the rest spread evenly."""
    rates = np.full((len(labels), len(names)), 1.0 / max(len(names), 1))
    for v, label in enumerate(labels):
        own = np.array([_is_own(name, label) for name in names], dtype=bool)
        if own.any() and not own.all():
            rates[v] = np.where(own, OWN / own.sum(), (1 - OWN) / (~own).sum())
    return rates


def _is_own(token: str, label: str) -> bool:
    """Whether a token is what listeners of this value write: their language, or their place."""
    if token.startswith("lang:"):
        return station_spelling(language_named(token), [label]) is not None
    return token == f"place:{label}"
