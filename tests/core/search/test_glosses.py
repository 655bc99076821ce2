"""The themes listeners write about, glossed in English from isiZulu, isiXhosa, Sesotho and Afrikaans: queries and
listeners' messages alike, so that a producer asking in one language finds listeners who wrote in another."""
from __future__ import annotations

import numpy as np
import pytest

from core.search.glosses import glossed
from core.search.lexical import LexicalIndex
from core.search.texts import lexical_document
from core.search.why import matched


@pytest.mark.parametrize(("text", "english"), [
    ("abantu abakhononda ngokucima kukagesi", "load shedding"),  # isiZulu
    ("ukucinywa kombane", "load shedding"),  # isiXhosa
    ("bamameli ba tletlebang ka motlakase", "load shedding"),  # Sesotho
    ("luisteraars wat oor beurtkrag kla", "load shedding"),  # Afrikaans
    ("luisteraars vas in die verkeer", "traffic"),
    ("abantu abangenawo amanzi", "water outage"),
    ("groete aan ouma", "grandmother"),
    ("kea leboha", "thank"),
])
def test_a_theme_named_in_a_station_language_is_glossed_in_english_after_the_words_as_written(text, english):
    out = glossed(text)
    assert out.startswith(text) and english in out[len(text):]


@pytest.mark.parametrize(("word", "english"), [("ngomculo", "music"), ("kugogo", "grandmother"),
                                               ("kukagesi", "load shedding")])
def test_a_nguni_word_is_known_with_the_prefix_it_carries(word, english):
    assert english in glossed(word)


@pytest.mark.parametrize("text", ["listeners who love gospel in Durban", "decimal", "ugly index", "kl"])
def test_english_and_unknown_words_are_left_as_they_are(text):
    assert glossed(text) == text


def test_a_theme_named_twice_is_glossed_once():
    out = glossed("ugesi beurtkrag motlakase")
    assert out.count("load shedding") == 1


def test_only_a_listeners_messages_are_glossed_for_the_lexical_index():
    text = "segment: Super fan. location: Ouma. messages: dankie vir die musiek"
    document = lexical_document(text)
    assert document.startswith("segment: Super fan. location: Ouma. messages: dankie vir die musiek")
    assert "thank" in document and "grandmother" not in document
    assert lexical_document("segment: Dormant. location: Ouma") == "segment: Dormant. location: Ouma"


def test_an_english_query_finds_a_listener_who_wrote_in_afrikaans_through_the_glosses():
    index = LexicalIndex()
    texts = ["messages: dankie vir die musiek", "messages: stuck on the N1 again", "messages: play Jerusalema"]
    index.put([0, 1, 2], [lexical_document(t) for t in texts])
    index.refresh()
    shares = index.shares(glossed("listeners thanking the station for the music"))
    assert int(np.argmax(shares)) == 0 and shares[1] == shares[2] == 0


def test_a_matched_message_is_shown_as_written_when_it_meets_the_query_in_another_language():
    text = "segment: Super fan. messages: krag is weer af in Bellville"
    assert matched("luisteraars wat oor beurtkrag kla", text) == ["messages: krag is weer af in Bellville"]
