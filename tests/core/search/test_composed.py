"""A listener's vector composed of its pieces: the direction of their messages, or of their profile's phrases when
they wrote nothing, each piece embedded once; a new way of composing makes every vector again."""
from __future__ import annotations

import numpy as np

from core.search import composed
from core.search.composed import composed as compose
from core.search.composed import pieces, vector_hash
from core.search.texts import Document

VECTORS = {"segment: Super fans": np.array([1, 0, 0], dtype=np.float32),
           "shows: Gospel Sunday": np.array([0, 1, 0], dtype=np.float32),
           "Amen to that": np.array([0, 0, 1], dtype=np.float32)}


def document(phrases: dict[str, tuple[str, ...]], *messages: str) -> Document:
    return Document(tuple(phrases.items()), messages)


FAN = document({"segment": ("Super fans",), "shows": ("Gospel Sunday",)}, "Amen to that")


def test_the_text_is_the_profile_then_the_messages():
    assert FAN.text == "segment: Super fans. shows: Gospel Sunday. messages: Amen to that"
    assert FAN.phrases == ["segment: Super fans", "shows: Gospel Sunday"]


QUIET = document({"segment": ("Super fans",), "shows": ("Gospel Sunday",)})


def test_pieces_are_the_messages_of_who_wrote_and_the_phrases_of_who_did_not_each_once_in_order():
    assert pieces([FAN, QUIET, FAN]) == ["Amen to that", "segment: Super fans", "shows: Gospel Sunday"]


def test_a_listener_who_wrote_is_the_direction_of_what_they_wrote():
    vector = compose([FAN], VECTORS, 3)[0]
    assert np.allclose(vector, [0, 0, 1])


def test_a_listener_who_wrote_nothing_is_the_direction_of_their_profile_at_unit_length():
    vector = compose([QUIET], VECTORS, 3)[0]
    assert np.allclose(vector, np.array([1, 1, 0]) / np.sqrt(2))


def test_a_listener_with_no_piece_has_a_zero_vector_not_a_division_by_zero():
    assert np.allclose(compose([document({})], VECTORS, 3), 0)


def test_the_hash_changes_with_the_text_and_with_the_way_vectors_are_composed(monkeypatch):
    before = vector_hash(FAN.text)
    assert vector_hash(FAN.text + ".") != before
    monkeypatch.setattr(composed, "RECIPE", "another way")
    assert vector_hash(FAN.text) != before
