"""The texts stored with the vectors are sealed a group at a time: nothing plain is stored, and once a listener is
erased no copy of any text of theirs (a backup taken before, an older text of theirs) can be read, while the others'
texts still read and still find them."""
from __future__ import annotations

import bson
import numpy as np
import pytest

from core import personal
from core.listeners.models import InteractionBatch
from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from core.search import lexical_store, process_indexes, vectors
from core.search.models import ListenerEmbedding
from core.search.sealed_texts import opened
from core.segmentation.runs import segment_company
from tests.factories import add_interactions, make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

WORDS = ["Play Jerusalema for my gogo", "Load shedding again", "Traffic on the N3"]


@pytest.fixture
def station(app):
    for n, words in enumerate(WORDS):
        make_listener(1, f"2783000000{n}", [event(2, message=words)])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)


def stored() -> list[dict]:
    """Every stored vector document, as a copy of the database (a backup) holds it."""
    return list(ListenerEmbedding._get_collection().find({}, {"_id": 0}))


def texts_by_listener(docs: list[dict]) -> dict[str, str]:
    """Each listener's text in these stored documents, by originator (the documents hold its key)."""
    names = {personal.key_of(1, f"2783000000{n}"): f"2783000000{n}" for n in range(len(WORDS))}
    return {names.get(doc["originator"], doc["originator"]): text for doc, text in zip(docs, opened(docs))}


def words_find(text: str) -> list[str]:
    index = process_indexes.current_index(1)
    shares = lexical_store.current_lexical(1, index).shares(text)
    return sorted(index.owner[i] for i in np.flatnonzero(shares))


def test_no_text_is_stored_plain_and_each_reads_back(station):
    raw = b"".join(bson.encode(doc) for doc in stored()).lower()
    plain = (b"jerusalema", b"gogo", b"shedding", b"traffic on the n3", b"278300000")  # long enough never to be chance
    assert [w for w in plain if w in raw] == []
    texts = texts_by_listener(stored())
    assert [words in texts[f"2783000000{n}"] for n, words in enumerate(WORDS)] == [True, True, True]
    assert words_find("Jerusalema") == ["27830000000"]


def test_after_erasure_a_backup_reads_none_of_their_texts_and_the_others_read_live(station):
    backup = stored()
    erase_listener(1, "27830000000", "test-secret")
    assert set(texts_by_listener(backup).values()) == {""}  # the whole group's copies: its key is gone
    live = texts_by_listener(stored())
    assert "27830000000" not in live and "Load shedding again" in live["27830000001"]
    process_indexes.forget_indexes()
    assert words_find("shedding") == ["27830000001"] and words_find("gogo") == []


def test_an_older_text_of_theirs_sealed_with_others_is_unreadable_after_erasure(station):
    first = stored()  # a backup: the first texts of all three, sealed together
    add_interactions(1, "27830000000", [event(1, message="Ndiyabulela for the gospel hour")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    assert "Ndiyabulela" in texts_by_listener(stored())["27830000000"]  # sealed again, in a group of its own
    assert "Jerusalema" in texts_by_listener(first)["27830000000"]  # the older copy, with the others', still reads
    erase_listener(1, "27830000000", "test-secret")
    assert set(texts_by_listener(first).values()) == {""}
    assert "Traffic on the N3" in texts_by_listener(stored())["27830000002"]


def test_texts_stored_before_sealing_are_sealed_in_place_by_encrypt(station):
    collection = ListenerEmbedding._get_collection()
    for doc, text in zip(stored(), opened(stored())):
        collection.update_one({"originator": doc["originator"]},
                              {"$set": {"text": text}, "$unset": {"sealed_text": "", "text_group": ""}})
    before = {doc["originator"]: (doc["text"], doc["seq"]) for doc in stored()}
    assert words_find("Jerusalema") == ["27830000000"]
    encrypt_stations()
    after = stored()
    assert all("text" not in doc for doc in after)
    assert {doc["originator"]: (text, doc["seq"]) for doc, text in zip(after, opened(after))} == before
    assert InteractionBatch.objects(company_id=1).count() == 3
