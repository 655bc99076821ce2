"""A web process's follower (core.search.following): the stations it holds whose vectors moved are caught up off
the request threads, so that a search after a worker embedded something reads and tokenises nothing first."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from core.search import lexical_store, process_indexes, vectors
from core.search.following import start_following
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

NEW = "27840000009"
SAID = "Maskandi for the cane cutters, please"


@pytest.fixture
def held(app):
    """Station 1 embedded and held by this process (its vector and lexical index), then a listener embedded since,
    as a worker process would have done it: this process has not read them yet."""
    for n in range(2):
        make_listener(1, f"2784000000{n}", [event(2, message=f"Gospel on Sunday number {n}")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    lexical_store.current_lexical(1, process_indexes.current_index(1))
    make_listener(1, NEW, [event(1, message=SAID)])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)


def no_more_reads(monkeypatch) -> None:
    """From now on, reading vectors or texts by seq fails the test: a request must find everything read already."""
    def refused(*args, **kwargs):
        raise AssertionError("a search read what the follower should have read")

    monkeypatch.setattr(process_indexes, "by_seq", refused)
    monkeypatch.setattr(lexical_store, "by_seq", refused)


def said_by_new(index) -> list[str]:
    return lexical_store.current_lexical(1, index).said_of(np.array([index.current[NEW]]))


def test_a_station_whose_vectors_moved_is_caught_up_before_a_search_asks(held, monkeypatch):
    assert process_indexes.load_every_index() == 1
    no_more_reads(monkeypatch)
    index = process_indexes.current_index(1)
    assert len(index) == 3
    assert said_by_new(index) == [SAID]


def test_nothing_is_read_again_for_a_station_that_did_not_move(held, monkeypatch):
    process_indexes.load_every_index()
    no_more_reads(monkeypatch)
    assert process_indexes.load_every_index() == 1


def test_a_station_whose_lexical_index_this_process_let_go_of_is_read_again(held, monkeypatch):
    process_indexes.load_every_index()
    lexical_store.forget()
    process_indexes.load_every_index()
    no_more_reads(monkeypatch)
    assert said_by_new(process_indexes.current_index(1)) == [SAID]


def test_a_station_this_process_never_searched_is_loaded_before_its_first_search(app, monkeypatch):
    make_listener(2, NEW, [event(1, message=SAID)])
    segment_company(2, NOW)
    vectors.refresh_embeddings(2)
    process_indexes.forget_indexes()
    assert process_indexes.load_every_index() == 1
    no_more_reads(monkeypatch)
    index = process_indexes.current_index(2)
    assert lexical_store.current_lexical(2, index).said_of(np.array([index.current[NEW]])) == [SAID]


def test_the_follower_thread_catches_up_on_its_own_and_one_runs_per_process(held, monkeypatch):
    stop = threading.Event()
    thread = start_following(every=0.05, stop=stop)
    try:
        assert start_following(every=0.05, stop=stop) is None
        deadline = time.monotonic() + 20
        held_here = process_indexes._indexes
        while held_here[(1, vectors.embedder().name)].seq < _counter_seq() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    no_more_reads(monkeypatch)
    assert said_by_new(process_indexes.current_index(1)) == [SAID]


def _counter_seq() -> int:
    from core.search.models import EmbeddingCounter

    return EmbeddingCounter.objects.get(company_id=1, model=vectors.embedder().name).seq
