"""A listener's vector, composed of the vectors of its pieces rather than embedding their whole text.

The words of a profile (a show, a tag, a channel, a place) are met exactly by the query reader and found by the
lexical index; what only meaning finds is what a listener wrote in their own words. So a listener's vector is the
direction of their latest messages (the mean of each message's vector), and only a listener who wrote nothing gets
the direction of their profile's phrases ("shows: Gospel Sunday", "channels: WhatsApp"), so that look-alike and
coverage still have a vector for everyone. Each distinct message and phrase is embedded once: a station's messages
repeat ("Good morning!") and its phrases are a few hundred, where its whole texts of about 400 characters were
almost all different and cost the model six times a message of 60.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

import numpy as np

from core.search.texts import Document
from core.search.unit import unit_rows

RECIPE = "messages, else profile phrases, v2"
"""Part of every stored hash (`vector_hash`): vectors made another way are made again."""


def vector_hash(text: str) -> str:
    """What decides whether a listener is embedded again: their text, and how a text is made into a vector."""
    return hashlib.sha256(f"{RECIPE}\n{text}".encode()).hexdigest()[:32]


def pieces(documents: Iterable[Document]) -> list[str]:
    """What the documents' vectors are made of, each once, in order of first sight: the messages of those who wrote
    some, the phrases of those who did not."""
    return list(dict.fromkeys(piece for d in documents for piece in (d.messages or d.phrases)))


def composed(documents: list[Document], vector_of: Mapping[str, np.ndarray], dim: int) -> np.ndarray:
    """(len(documents), dim) unit rows: the mean of each listener's messages, or of their phrases when they wrote
    nothing."""
    said = _means([d.messages for d in documents], vector_of, dim)
    wrote = np.array([bool(d.messages) for d in documents], dtype=bool)
    silent = [d.phrases if not d.messages else () for d in documents]
    return unit_rows(np.where(wrote[:, None], said, _means(silent, vector_of, dim)))


def _means(groups: list, vector_of: Mapping[str, np.ndarray], dim: int) -> np.ndarray:
    """The sum of each group's vectors (a zero row for an empty group): the direction of their mean."""
    owners = np.fromiter((i for i, group in enumerate(groups) for _ in group), dtype=np.int64)
    out = np.zeros((len(groups), dim), dtype=np.float32)
    if len(owners):
        np.add.at(out, owners, np.vstack([vector_of[piece] for group in groups for piece in group]))
    return out
