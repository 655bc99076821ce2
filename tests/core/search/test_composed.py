"""Listener vectors composed of their parts: each trait phrase embedded once for all the listeners who hold it, what
a listener said embedded on its own, both in the vector and the traits weighing more."""
from __future__ import annotations

import numpy as np

from core.search.composed import listener_vectors
from core.search.texts import phrases


class Counting:
    """An embedder that gives each distinct text its own direction and keeps what it was asked."""

    name, dim = "test:counting", 256  # near-orthogonal directions

    def __init__(self):
        self.asked: list[str] = []

    def embed(self, texts, kind="passage"):
        self.asked.extend(texts)
        rng = [np.random.default_rng(sum(map(ord, text))) for text in texts]
        rows = np.array([r.normal(size=self.dim) for r in rng], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


TEXT = ("segment: Super fans. shows: Gospel Sunday, The Drive. tags: faith. age group: 25-34. "
        "messages: Play Shwele Baba please | Greetings to my mother")


def test_a_text_is_cut_into_one_phrase_per_trait_value_and_what_was_said():
    traits, said = phrases(TEXT)
    assert traits == ["segment: Super fans", "shows: Gospel Sunday", "shows: The Drive", "tags: faith",
                      "age group: 25-34"]
    assert said == "Play Shwele Baba please | Greetings to my mother"
    assert phrases("segment: At risk. listens: evening") == (["segment: At risk", "listens: evening"], "")


def test_traits_are_embedded_once_across_batches_and_messages_every_time():
    model, known = Counting(), {}
    listener_vectors(model, [TEXT, TEXT.replace("Greetings to my mother", "Hello")], known)
    first = list(model.asked)
    listener_vectors(model, [TEXT.replace("tags: faith", "tags: sport")], known)
    assert first.count("shows: Gospel Sunday") == 1 and len(first) == 5 + 2
    assert model.asked[len(first):] == ["tags: sport", "Play Shwele Baba please | Greetings to my mother"]
    assert "Play Shwele Baba please | Greetings to my mother" not in known  # a listener's words are not kept


def test_a_vector_leans_to_the_mean_of_its_traits_and_towards_what_was_said():
    model = Counting()
    vector = listener_vectors(model, [TEXT], {})[0]
    traits, said = phrases(TEXT)
    mean = np.mean(model.embed(traits), axis=0)
    to_traits, to_said = vector @ (mean / np.linalg.norm(mean)), vector @ model.embed([said])[0]
    assert np.isclose(np.linalg.norm(vector), 1) and to_traits > to_said > 0.3
    each_trait = [vector @ row for row in model.embed(traits)]
    assert to_said > max(each_trait)  # what was said outweighs any one trait
    silent = listener_vectors(model, ["segment: At risk. listens: evening"], {})[0]
    assert np.isclose(np.linalg.norm(silent), 1)


def test_with_the_local_model_what_a_listener_said_is_not_drowned_by_their_many_traits():
    """Two listeners of the demo's twenty traits, apart only in their words: embedded as one text, a theme query
    told them apart by 0.05 (the traits' three quarters of the tokens drowned the words); composed, by 0.1 and more."""
    from core.search.local_model import LocalEmbedder

    model = LocalEmbedder()
    head = ("segment: Occasional engagers. shows: The Drive with Thabo & Lerato, The Quiet Storm, Mzansi Top 40, "
            "Saturday Night Amapiano Mix, Jazz on Sunday. channels: SMS 33123, WhatsApp 082 555 0123, Studio Line "
            "031 555 0100. takes part in: competition, feedback, other, shoutout, song request. tags: faith, "
            "music_lover. listens: evening. gender: male. age group: 35-44. language: English. location: Durban. "
            "messages: ")
    power, song = listener_vectors(model, [head + "the power went off again, load shedding all night",
                                           head + "please play my favourite song"], {})
    query = model.embed(["listeners complaining about load shedding"], kind="query")[0]
    assert query @ power > query @ song + 0.08
