"""Free text by meaning and by words: the lexical index (BM25 over the texts the vectors were made from), the pooling
of both rankings within the candidates, reciprocal rank fusion, every candidate with evidence read on both, and the
lexical index kept with the vectors in MongoDB (texts written with them, read by seq, gone with erasure), and what a
result shows as matched."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from core.privacy.erasure import erase_listener
from core.search import lexical as lexical_module
from core.search import lexical_store, process_indexes, vectors
from core.search.fusion import Evidence, evidenced, gather
from core.search.index import VectorIndex
from core.search.lexical import BUILD_AT_ONCE_BELOW, LexicalIndex
from core.search.models import ListenerEmbedding
from core.search.sealed_texts import opened
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

TEXTS = ["messages: please play Jerusalema for my gogo", "messages: load shedding again in Soweto",
         "messages: stuck in traffic on the N3", "tags: gospel. messages: we entered the competitions",
         "messages: play Jerusalema, Jerusalema again!"]


def lexical(texts: list[str] = TEXTS) -> LexicalIndex:
    found = LexicalIndex()
    found.put(list(range(len(texts))), texts)
    found.refresh()
    return found


def test_a_word_finds_exactly_the_texts_that_hold_it():
    shares = lexical().shares("Jerusalema")
    assert np.flatnonzero(shares).tolist() == [0, 4]


def test_words_meet_their_other_forms_and_case():
    assert np.flatnonzero(lexical().shares("COMPETITION"))[0] == 3
    assert np.flatnonzero(lexical().shares("shedding"))[0] == 1


def test_a_text_holding_every_word_of_the_query_scores_more_than_one_holding_some():
    shares = lexical().shares("load shedding Soweto")
    partial = lexical(["messages: load shedding in Durban", "messages: load shedding in Soweto"]).shares(
        "load shedding Soweto")
    assert shares[1] > 0 and partial[1] > partial[0] > 0


def test_a_share_of_the_query_is_about_one_for_a_text_of_average_length_holding_each_word_once():
    shares = lexical(["alpha beta", "gamma delta", "epsilon zeta"]).shares("alpha")
    assert shares[0] == pytest.approx(1.0, abs=0.01)


def test_words_nobody_wrote_count_for_nothing():
    assert not lexical().shares("xylophone").any()
    assert lexical().shares("Jerusalema xylophone")[0] == lexical().shares("Jerusalema")[0]


def test_a_replaced_or_dead_text_is_found_no_more():
    found = lexical()
    found.put([5], ["messages: Jerusalema"], dead=[0])
    found.refresh()
    assert np.flatnonzero(found.shares("Jerusalema")).tolist() == [4, 5]
    assert not found.shares("gogo").any()


def test_a_large_index_is_built_again_in_the_background_and_serves_its_last_build_meanwhile():
    found = lexical(["messages: filler words only"] * BUILD_AT_ONCE_BELOW)
    found.put([BUILD_AT_ONCE_BELOW], ["messages: Jerusalema"])
    found.refresh()
    assert len(found.shares("filler")) == BUILD_AT_ONCE_BELOW + 1  # every id answers, the new one at 0 until built
    found._building.acquire()  # the background build is done once it lets go
    found._building.release()
    assert found.shares("Jerusalema")[BUILD_AT_ONCE_BELOW] > 0


def test_a_search_while_another_request_builds_the_index_waits_for_that_build_rather_than_answer_from_none(
        monkeypatch):
    found = LexicalIndex()
    found.put(list(range(len(TEXTS))), TEXTS)
    building, made = threading.Event(), lexical_module._made

    def slow(docs, terms):
        building.set()
        time.sleep(0.3)
        return made(docs, terms)

    monkeypatch.setattr(lexical_module, "_made", slow)
    first = threading.Thread(target=found.refresh)
    first.start()
    assert building.wait(10)
    found.refresh()  # a second request, while the first one's build is under way
    assert np.flatnonzero(found.shares("Jerusalema")).tolist() == [0, 4]
    first.join()


# pooling meaning and words

def index_of(vectors: np.ndarray) -> VectorIndex:
    index = VectorIndex(vectors.shape[1])
    index.upsert([f"o{n}" for n in range(len(vectors))], vectors / np.linalg.norm(vectors, axis=1, keepdims=True))
    return index


def test_a_listener_meaning_ranks_last_is_pooled_when_their_words_match():
    index = index_of(np.array([[1.0, 0.0]] * 4 + [[0.0, 1.0]]))
    texts = ["messages: hello"] * 4 + ["messages: Jerusalema"]
    rows = np.arange(5) + 100  # snapshot rows differ from vector ids
    evidence = gather(rows, np.arange(5), index, lexical(texts), np.array([1.0, 0.0]), "Jerusalema", depth=2)
    assert sorted(evidence.rows.tolist()) == [100, 101, 104]
    assert evidence.lexical[evidence.rows == 104][0] > 0 and evidence.similarity[evidence.rows == 104][0] == 0.5


def test_only_the_candidates_are_pooled_whatever_the_words_or_the_meaning():
    index = index_of(np.array([[1.0, 0.0]] * 5))
    evidence = gather(np.array([1, 3]), np.array([1, 3]), index, lexical(), np.array([1.0, 0.0]), "Jerusalema")
    assert sorted(evidence.rows.tolist()) == [1, 3]


def test_reciprocal_rank_fusion_puts_first_who_both_rankings_put_high():
    evidence = Evidence(np.arange(3), np.array([0.9, 0.8, 0.7]), np.array([0.5, 0.0, 0.9]))
    fused = evidence.rrf()
    assert fused[0] > fused[2] > fused[1]


def test_every_candidate_with_evidence_is_read_with_its_similarity_share_and_coverage():
    index = VectorIndex(2)
    index.upsert([f"r{n}" for n in range(5)], np.eye(2)[[0, 1, 0, 1, 0]])
    found = evidenced(np.array([0, 2, 4]), np.array([0, 2, -1]), np.array([1.0, 0.6, 0.8]), index,
                      lexical(), np.array([1.0, 0.0]), "Jerusalema")
    assert found.rows.tolist() == [0, 2, 4] and found.coverage.tolist() == [1.0, 0.6, 0.8]
    assert found.similarity.tolist() == [1.0, 1.0, 0.5]  # the last has no vector yet: neutral
    assert found.lexical[0] > 0 and found.lexical[1] == 0 and found.lexical[2] == 0


def test_a_word_is_held_by_the_texts_that_hold_its_stem_and_a_word_nobody_wrote_tells_the_most():
    index = lexical()
    held, idf = index.holding("competition")
    assert held.tolist() == [False, False, False, True, False]
    unheard, most = index.holding("opera")
    assert not unheard.any() and most > idf
    assert index.holding("the") == (None, 0.0)  # a stop word is no word to the index


# the lexical index kept with the vectors

@pytest.fixture
def station(app):
    for n, words in enumerate(["Play Jerusalema for my gogo", "Load shedding again", "Traffic on the N3"]):
        make_listener(1, f"2783000000{n}", [event(2, message=words)])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    return 1


def words_find(text: str) -> list[str]:
    index = process_indexes.current_index(1)
    shares = lexical_store.current_lexical(1, index).shares(text)
    return sorted(index.owner[i] for i in np.flatnonzero(shares))  # dead ids too: what the index still holds


@pytest.mark.db
def test_a_listener_is_found_by_the_words_they_wrote(station):
    assert words_find("Jerusalema") == ["27830000000"]
    assert words_find("load shedding") == ["27830000001"]


@pytest.mark.db
def test_after_erasure_the_listeners_words_find_nobody_and_their_text_is_nowhere(station):
    assert words_find("gogo") == ["27830000000"]
    erase_listener(1, "27830000000", "test-secret")
    assert words_find("gogo") == []
    assert "gogo" not in " ".join(opened(list(ListenerEmbedding._get_collection().find())))
    lexical = lexical_store.current_lexical(1, process_indexes.current_index(1))
    assert "gogo" not in lexical.terms and "jerusalema" not in lexical.terms  # no word of theirs is kept anywhere
    assert not [words for words in lexical.said if "gogo" in words] and "Load shedding again" in lexical.said
    assert words_find("shedding") == ["27830000001"]


@pytest.mark.db
def test_a_process_that_did_not_erase_the_listener_forgets_their_words_too(station):
    assert words_find("gogo") == ["27830000000"]
    kept = dict(lexical_store._lexicals)
    erase_listener(1, "27830000000", "test-secret")
    lexical_store._lexicals.update(kept)  # as another process holds it: its erasure hook never ran there
    assert words_find("gogo") == []
    lexical = lexical_store.current_lexical(1, process_indexes.current_index(1))
    assert "gogo" not in lexical.terms and not [words for words in lexical.said if "gogo" in words]


@pytest.mark.db
def test_vectors_of_an_earlier_recipe_stored_without_their_text_are_made_again_with_it(station):
    collection = ListenerEmbedding._get_collection()
    collection.update_many({}, {"$unset": {"sealed_text": "", "text_group": ""},
                                "$set": {"text_hash": "made the way before texts were kept"}})
    process_indexes.forget_indexes()
    assert words_find("Jerusalema") == []
    assert vectors.refresh_embeddings(1)["embedded"] == collection.count_documents({})
    assert words_find("Jerusalema") == ["27830000000"]


def test_what_matched_shows_a_message_sent_twice_once():
    from core.search.why import matched

    text = "segment: Super fan. messages: Load shedding again | Load shedding again | Lights out"
    assert matched("load shedding", text) == ["messages: Load shedding again | Lights out"]


def test_without_a_listener_their_words_go_and_the_others_are_found_as_before():
    found = lexical()
    before = found.shares("load shedding")
    fresh = found.without([0], ("next",))
    assert "gogo" not in fresh.terms and "jerusalema" in fresh.terms  # id 4 still says Jerusalema
    assert fresh.built is found.built  # the last build serves until the copy's own is made
    fresh.refresh()
    assert np.flatnonzero(fresh.shares("Jerusalema")).tolist() == [4] and not fresh.shares("gogo").any()
    assert np.flatnonzero(fresh.shares("load shedding")).tolist() == np.flatnonzero(before).tolist() == [1]


@pytest.mark.db
def test_a_result_shows_what_the_listener_said_as_it_was_indexed(station):
    from core.explore.filters import ListenerFilter
    from core.listeners.models import InteractionBatch
    from core.search.search import search_listeners

    InteractionBatch.objects(company_id=1).delete()  # their messages are read from the index, not again
    found = search_listeners(1, "Jerusalema", ListenerFilter(), min_score=0)["results"]
    assert found[0]["originator"] == "27830000000"
    assert found[0]["matched"] == ["messages: Play Jerusalema for my gogo"]


class Rows:
    """The part of a snapshot that row ids are read from."""

    def __init__(self, company_id: int, originators: list[str]):
        self.company_id, self.originators = company_id, np.array(originators)

    def __len__(self) -> int:
        return len(self.originators)


def test_row_ids_are_those_of_the_index_asked_even_of_one_made_where_a_freed_one_was():
    from core.search.search import _row_ids

    rows = Rows(1, ["2783000001", "2783000002"])
    first = VectorIndex(2)
    first.upsert(["2783000001", "2783000002"], np.eye(2, dtype=np.float32))
    assert _row_ids(rows, first).tolist() == [0, 1]
    del first  # replaced: folded into its file again, or rebuilt
    second = VectorIndex(2)  # the same length and version; CPython mostly puts it at the freed one's address
    second.upsert(["2783000002", "2783000001"], np.eye(2, dtype=np.float32))
    assert _row_ids(rows, second).tolist() == [1, 0]
