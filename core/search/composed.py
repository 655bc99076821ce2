"""A listener's vector, composed of the vectors of its pieces rather than embedding their whole text.

A station's profiles are made of few distinct phrases ("shows: Gospel Sunday", "channels: WhatsApp", "segment:
Super fans": a few hundred per station), and what its listeners write repeats often ("Good morning!"). So each
distinct phrase and message is embedded once, and a listener's vector is the direction of their profile (the mean
of their phrases) plus the direction of what they said (the mean of their latest messages). A whole text of about
400 characters costs the model six times a message of 60, and a station's texts are almost all different; its
pieces are not. Words of a profile are met exactly by the query reader and the lexical index anyway; the dense
vector is what finds a message by its meaning (core.search.fusion weighs the two per station).
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

import numpy as np

from core.search.texts import Document
from core.search.unit import unit_rows

RECIPE = "profile phrases + messages, v1"
"""Part of every stored hash (`vector_hash`): vectors made another way are made again."""
MESSAGE_WEIGHT = 1.0
"""What the direction of a listener's messages weighs against that of their profile."""


def vector_hash(text: str) -> str:
    """What decides whether a listener is embedded again: their text, and how a text is made into a vector."""
    return hashlib.sha256(f"{RECIPE}\n{text}".encode()).hexdigest()[:32]


def pieces(documents: Iterable[Document]) -> list[str]:
    """Every distinct phrase and message of the documents, in order of first sight."""
    return list(dict.fromkeys(piece for d in documents for piece in (*d.phrases, *d.messages)))


def composed(documents: list[Document], vector_of: Mapping[str, np.ndarray], dim: int) -> np.ndarray:
    """(len(documents), dim) unit rows: unit(mean of phrases) + MESSAGE_WEIGHT x unit(mean of messages)."""
    profiles = _means([d.phrases for d in documents], vector_of, dim)
    said = _means([d.messages for d in documents], vector_of, dim)
    return unit_rows(unit_rows(profiles) + MESSAGE_WEIGHT * unit_rows(said))


def _means(groups: list, vector_of: Mapping[str, np.ndarray], dim: int) -> np.ndarray:
    """The sum of each group's vectors (a zero row for an empty group): the direction of their mean."""
    owners = np.fromiter((i for i, group in enumerate(groups) for _ in group), dtype=np.int64)
    out = np.zeros((len(groups), dim), dtype=np.float32)
    if len(owners):
        np.add.at(out, owners, np.vstack([vector_of[piece] for group in groups for piece in group]))
    return out
