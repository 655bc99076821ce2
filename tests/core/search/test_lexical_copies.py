"""A station's lexical index copied (core.search.lexical_copies): a process that read many texts leaves a sealed copy,
and the next process opens it rather than reading and tokenising every text, catches up from it by `seq`, and never
opens one made before an erasure."""
from __future__ import annotations

import numpy as np
import pytest

from core.listeners import station_copies
from core.privacy.erasure import erase_listener
from core.search import lexical_copies, lexical_store, process_indexes, vectors
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

PEOPLE = [f"2784100000{n}" for n in range(6)]
NEW = "27841000009"


@pytest.fixture
@kept
def station(app):
    """Six listeners embedded, each of whom said something of their own."""
    for n, originator in enumerate(PEOPLE):
        make_listener(1, originator, [event(2 + n, message=f"Gospel choir number {n} on Sunday, please")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)


@pytest.fixture
def copied(station, monkeypatch):
    """The station's lexical index read by this process (which copies it, copies being worth it from one text), what
    it holds by listener, and then a new process: nothing of the station held."""
    monkeypatch.setattr(lexical_store, "WORTH_FROM", 1)
    seen = held_by_listener()
    new_process()
    return seen


def held_by_listener() -> dict[str, tuple[str, float]]:
    """What the process's lexical index gives each listener it holds: what they said, and their score for a query."""
    index = process_indexes.current_index(1)
    found = lexical_store.current_lexical(1, index)
    shares = found.shares("gospel choir sunday")
    return {o: (found.said_of(np.array([at]))[0], round(float(shares[at]), 6)) for o, at in index.current.items()}


def new_process() -> None:
    lexical_store.forget()
    process_indexes.forget_indexes()


def texts_read(monkeypatch) -> list[int]:
    """From now on, the `seq` each read of stored texts starts from."""
    starts, read = [], lexical_store.by_seq

    def recorded(collection, query, after, upto, fields):
        starts.append(after)
        return read(collection, query, after, upto, fields)

    monkeypatch.setattr(lexical_store, "by_seq", recorded)
    return starts


def copies() -> list[dict]:
    return list(station_copies.files().find({"metadata.kind": lexical_copies.kind_of(vectors.embedder().name)}))


def test_the_next_process_opens_the_copy_and_reads_no_text(copied, monkeypatch):
    assert len(copies()) == 1
    starts = texts_read(monkeypatch)
    assert held_by_listener() == copied
    assert starts == []
    assert sorted(copied) == PEOPLE and all(said.startswith("Gospel choir") for said, _ in copied.values())


def test_a_process_catches_up_from_the_copy_on_the_texts_written_since(copied, monkeypatch):
    copy_seq = process_indexes.current_index(1).seq
    new_process()
    make_listener(1, NEW, [event(1, message="Maskandi for the cane cutters")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    starts = texts_read(monkeypatch)
    now = held_by_listener()
    assert starts == [copy_seq]
    assert now[NEW][0] == "Maskandi for the cane cutters"
    assert {o: said for o, (said, _) in now.items() if o != NEW} == {o: said for o, (said, _) in copied.items()}


def test_an_erasure_destroys_the_copy_and_the_next_process_reads_the_texts_without_the_listener(copied,
                                                                                                monkeypatch):
    erase_listener(1, PEOPLE[0], "test-secret")
    assert copies() == []
    new_process()
    starts = texts_read(monkeypatch)
    now = held_by_listener()
    assert starts == [0]
    assert PEOPLE[0] not in now and all("number 0" not in said for said, _ in now.values())


def test_a_copy_is_laid_on_the_reading_process_s_own_vector_ids(copied):
    index = process_indexes.current_index(1)
    index.remove([PEOPLE[1]])  # this process's index no longer holds them: their row of the copy has no id here
    found = lexical_store.current_lexical(1, index)
    assert PEOPLE[1] not in found.where
    assert {o: found.said_of(np.array([at]))[0] for o, at in index.current.items()} == {
        o: said for o, (said, _) in copied.items() if o != PEOPLE[1]}
