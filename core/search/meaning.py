"""What a query's words mean among the station's own values (docs/decisions.md §5): its tags, interests and shows,
reached through the embedding model's similarity, not through a list of words written beside the tests.

A word means a value when the model places them close: closer than FLOOR, closer than the words listeners write
usually come to that value (the value's background: the QUANTILE of its similarities to a sample of the station's
own message words, plus MARGIN), and within SPREAD of the best value the word reaches. The background is what keeps
a value that the model finds close to everything (a broad "music lover" tag, a genre name the model knows little
of) from being meant by every word; it is measured per station, on the station's words, whenever the station's
search is calibrated, and kept with that calibration so that every process reads the same. FLOOR, MARGIN and
SPREAD were chosen on the demo station's queries and checked on a station built apart from it
(bench/README.md, "Search you can trust").
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import numpy as np

from core.personal.keyed import MEANING, keyed
from core.search.kept import KeptPerStation
from core.search.vocabulary import Vocabulary

FLOOR, MARGIN, SPREAD = 0.50, 0.05, 0.10
QUANTILE, BACKGROUND = 0.98, 2_000
"""A value's background is the QUANTILE of its similarities to up to BACKGROUND of the station's message words."""
MEANT_FIELDS = ("tags", "inferred_interests", "timeslot_id")
SUGGESTED = 3
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)


@dataclass(frozen=True)
class Value:
    """One of the station's values a word may mean: its filter, the value, and its name as the station writes it."""

    field: str
    value: object
    label: str

    @property
    def phrase(self) -> str:
        """What the model reads for the value ("rnb soul" for the tag `rnb_soul`)."""
        return self.label.replace("_", " ")


def station_values(vocab: Vocabulary) -> tuple[Value, ...]:
    """The station's tags, inferred interests (those that are not also tags) and shows, in a stable order."""
    tags = [Value("tags", v, str(v)) for v in vocab.values.get("tags", [])]
    known = {v.label.casefold() for v in tags}
    interests = [Value("inferred_interests", v, str(v)) for v in vocab.values.get("inferred_interests", [])
                 if str(v).casefold() not in known]
    shows = [Value("timeslot_id", t, title) for t, title in sorted(vocab.shows.items())]
    return tuple(tags + interests + shows)


@dataclass(frozen=True)
class Meanings:
    """The station's values, their unit vectors and the similarity from which a word means each."""

    values: tuple[Value, ...]
    vectors: np.ndarray
    floors: np.ndarray

    def meant(self, word_vectors: np.ndarray) -> list[list[tuple[Value, float]]]:
        """The values each word means, closest first, with the cosine that placed it there."""
        if not len(self.values) or not len(word_vectors):
            return [[] for _ in range(len(word_vectors))]
        out = []
        for row in np.asarray(word_vectors, dtype=np.float32) @ self.vectors.T:
            near = np.flatnonzero(row >= self.floors)
            if len(near):
                near = near[row[near] >= row[near].max() - SPREAD]
            out.append([(self.values[j], float(row[j])) for j in near[np.argsort(-row[near])]])
        return out

    def closest(self, vector: np.ndarray, n: int = SUGGESTED) -> list[tuple[Value, float]]:
        """The `n` values closest to a text, whether or not it means them: what a query with no evidence is offered."""
        if not len(self.values):
            return []
        row = self.vectors @ np.asarray(vector, dtype=np.float32)
        return [(self.values[j], float(row[j])) for j in np.argsort(-row)[:n]]


def floors_of(value_vectors: np.ndarray, background: np.ndarray) -> np.ndarray:
    """The similarity from which a word means each value: FLOOR, or the value's background plus MARGIN if higher."""
    if not len(background) or not len(value_vectors):
        return np.full(len(value_vectors), FLOOR + MARGIN, dtype=np.float32)
    usual = np.quantile(np.asarray(background, dtype=np.float32) @ value_vectors.T, QUANTILE, axis=0)
    return np.maximum(FLOOR, usual + MARGIN).astype(np.float32)


def background_words(said: list[str], at_most: int = BACKGROUND) -> list[str]:
    """Up to `at_most` distinct words of what the station's listeners wrote, the same ones in every process (taken
    by a hash of the word, not by chance); they are held in memory only, never stored."""
    words = {w for text in said if text for w in WORD.findall(text.casefold())}
    return sorted(words, key=lambda w: hashlib.blake2b(w.encode(), digest_size=8).digest())[:at_most]


_vectors: KeptPerStation[np.ndarray] = KeptPerStation()


def value_vectors(company_id: int, model, values: tuple[Value, ...]) -> np.ndarray:
    """The unit vectors of the station's values, embedded once per process for each set of values and model."""
    phrases = tuple(v.phrase for v in values)
    return _vectors.get(company_id, (), (model.name, phrases),
                        lambda: model.embed(list(phrases), kind="query") if phrases
                        else np.zeros((0, getattr(model, "dim", 0) or 1), dtype=np.float32))


def meanings(company_id: int, model, vocab: Vocabulary, floors: dict[str, float] | None) -> Meanings:
    """The station's values with their floors as last measured (`floors`: keyed phrase -> floor, from the station's
    search calibration); a value measured on no background yet means a word from FLOOR + MARGIN."""
    values = station_values(vocab)
    known = floors or {}
    levels = np.array([known.get(key, FLOOR + MARGIN) for key in floor_keys(company_id, values)], dtype=np.float32)
    return Meanings(values, value_vectors(company_id, model, values), levels)


def floor_keys(company_id: int, values: tuple[Value, ...]) -> list[str]:
    """What a value's floor is stored under: a keyed hash of its phrase (a tag a station sent may name a listener,
    so no phrase is stored)."""
    return keyed(MEANING, [f"{company_id}\n{v.field}\n{v.phrase}" for v in values])
