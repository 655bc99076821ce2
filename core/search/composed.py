"""A listener's vector composed of the vectors of their parts: the mean of their traits' phrases, each embedded once
per station (a station has a few hundred), and what they said, embedded alone. The model pays per token, and
three quarters of a listener's text are traits that thousands of listeners share; the messages are what only the
dense path reads well (the traits are met exactly or by words: core.search.understanding, core.search.lexical).
bench/README.md has what it saved and what search measured with it."""
from __future__ import annotations

import hashlib

import numpy as np

from core.search.embeddings import Embedder
from core.search.texts import phrases
from core.search.unit import unit_rows

SAID_WEIGHT = 0.5
"""What a listener said weighs half as much as all their traits together. Chosen on bench.search_quality's 33 tuned
queries (recall 0.81 at 1, 0.88 at 0.5, 0.88 at 0.3; the 24 held-out queries agreed): the station's calibration is
fitted on labelled queries that name traits, and a vector that is mostly messages tells those apart less well."""
RECIPE = f"the unit mean of the traits' phrases, plus {SAID_WEIGHT} times what was said"
"""How a text becomes a vector, in every text hash: a new recipe (or weight) embeds every listener again, once."""


def text_hash(text: str) -> str:
    """What decides whether a listener is embedded again: their text and the recipe that makes it a vector."""
    return hashlib.sha256(f"{RECIPE}\n{text}".encode()).hexdigest()[:32]


def listener_vectors(model: Embedder, texts: list[str], traits_known: dict[str, np.ndarray]) -> np.ndarray:
    """One unit vector per text (a zero row for an empty one); `traits_known`: the trait phrases embedded so far,
    kept by the caller across its batches and filled here (messages are not kept: they are the listener's own)."""
    cut = [phrases(text) for text in texts]
    new_traits = list(dict.fromkeys(t for traits, _ in cut for t in traits if t not in traits_known))
    saids = list(dict.fromkeys(said for _, said in cut if said))
    made = model.embed(new_traits + saids) if new_traits or saids else np.zeros((0, 0), dtype=np.float32)
    traits_known.update(zip(new_traits, made[:len(new_traits)]))
    said_vectors = dict(zip(saids, made[len(new_traits):]))
    out = np.zeros((len(texts), made.shape[1] if len(made) else _dim(traits_known)), dtype=np.float32)
    for row, (traits, said) in enumerate(cut):
        if traits:
            out[row] = unit_rows(np.mean([traits_known[t] for t in traits], axis=0, keepdims=True))[0]
        if said:
            out[row] += SAID_WEIGHT * said_vectors[said]
    return unit_rows(out)


def _dim(traits_known: dict[str, np.ndarray]) -> int:
    return len(next(iter(traits_known.values()))) if traits_known else 0
