"""The vector store: vectors in MongoDB are the truth; a station's index file is used when whole and current,
caught up when stale, rebuilt when missing or corrupt; only changed texts are embedded again."""
from __future__ import annotations

import numpy as np
import pytest

from core.privacy.erasure import erase_listener
from core.search import vectors
from core.search.models import EmbeddingCounter, ListenerEmbedding
from core.segmentation.runs import segment_company
from tests.conftest import empty_database, restored
from tests.factories import add_interactions, make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def station(app):
    return restored("six-songs", _station)


def _station() -> dict:
    for n in range(6):
        make_listener(1, f"2783000000{n}", [event(2 + n, message=f"Play my song number {n}, please")])
    segment_company(1, NOW)
    return vectors.refresh_embeddings(1)


def index_file():
    return vectors._path(1, vectors.embedder().name)


def test_every_listener_is_embedded_once_and_an_unchanged_text_is_not_embedded_again(station):
    assert station == {"embedded": 6, "kept": 0, "texts": 6}
    assert vectors.refresh_embeddings(1) == {"embedded": 0, "kept": 6, "texts": 0}


def test_a_listener_whose_text_changed_is_embedded_again_with_a_later_seq(station):
    before = ListenerEmbedding.objects.get(company_id=1, originator="27830000002")
    add_interactions(1, "27830000002", [event(1, message="Soccer! Chiefs all the way")], import_id="second")
    segment_company(1, NOW)
    assert vectors.refresh_embeddings(1) == {"embedded": 1, "kept": 5, "texts": 1}
    after = ListenerEmbedding.objects.get(company_id=1, originator="27830000002")
    assert after.seq > before.seq and after.vector != before.vector


def test_listeners_alike_in_every_trait_share_one_embedding(app):
    for n in range(5):
        make_listener(1, f"2785000000{n}", [event(2, message="Same words, same listener")])
    segment_company(1, NOW)
    assert vectors.refresh_embeddings(1) == {"embedded": 5, "kept": 0, "texts": 1}
    stored = {doc.vector for doc in ListenerEmbedding.objects(company_id=1)}
    assert len(stored) == 1


def test_the_index_is_saved_and_a_new_process_reads_it_whole(station):
    first = vectors.current_index(1)
    assert index_file().exists() and len(first) == 6
    vectors.forget_indexes()
    again = vectors.current_index(1)
    assert (len(again), again.seq) == (6, first.seq)


def test_a_corrupt_index_file_is_rebuilt_from_mongodb(station):
    vectors.current_index(1)
    vectors.forget_indexes()
    index_file().write_bytes(b"not an index")
    rebuilt = vectors.current_index(1)
    assert len(rebuilt) == 6
    _, ids = rebuilt.search(rebuilt.vectors_of(np.array([0]))[0], 1, np.arange(len(rebuilt.owner)))
    assert ids[0] == 0


def test_a_stale_index_file_catches_up_with_the_vectors_written_since(station):
    vectors.current_index(1)
    vectors.forget_indexes()
    stale = index_file().read_bytes(), index_file().with_suffix(".json").read_text()
    make_listener(1, "27830000009", [event(1, message="Newcomer here")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    vectors.current_index(1)
    vectors.forget_indexes()
    index_file().write_bytes(stale[0])
    index_file().with_suffix(".json").write_text(stale[1])
    assert "27830000009" in vectors.current_index(1).current


def test_erasure_removes_the_vector_from_mongodb_and_from_this_process_index(station):
    vectors.current_index(1)
    assert erase_listener(1, "27830000001", "test-secret")["stores"]["vector_index"] == 1
    assert "27830000001" not in vectors.current_index(1).current
    assert ListenerEmbedding.objects(company_id=1, originator="27830000001").count() == 0


def test_a_saved_index_of_a_replaced_database_is_not_taken_for_current(station):
    vectors.current_index(1)
    vectors.forget_indexes()
    empty_database()  # another database under the same DATA_DIR: its counter starts again
    for n in range(8):
        make_listener(1, f"2784000000{n}", [event(2, message="A brand new station")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    assert sorted(vectors.current_index(1).current) == [f"2784000000{n}" for n in range(8)]


def test_a_vector_written_after_its_listener_was_erased_does_not_stay(station):
    # a background refresh that read the listener before the erasure writes after it
    erase_listener(1, "27830000003", "test-secret")
    late = vectors.embedder().embed(["Play my song number 3, please"])
    vectors._write(1, vectors.embedder().name, ["27830000003"], ["late"], late)
    assert ListenerEmbedding.objects(company_id=1, originator="27830000003").count() == 0


def runs() -> list[dict]:
    """The embedding runs under way (core.search.progress), as stored."""
    doc = EmbeddingCounter._get_collection().find_one({"company_id": 1}) or {}
    return [{k: run[k] for k in ("total", "done")} for run in (doc.get("runs") or {}).values()]


def test_a_refresh_counts_its_run_while_it_writes_and_leaves_none_after_even_when_it_fails(app, monkeypatch):
    for n in range(6):
        make_listener(1, f"2783000000{n}", [event(2 + n, message=f"Play my song number {n}, please")])
    segment_company(1, NOW)
    seen, write = [], vectors._write
    monkeypatch.setattr(vectors, "_write", lambda *a, **k: (write(*a, **k), seen.append(runs())))
    vectors.refresh_embeddings(1)
    assert seen == [[{"total": 6, "done": 0}]] and runs() == []
    add_interactions(1, "27830000002", [event(1, message="Soccer! Chiefs all the way")], import_id="second")
    segment_company(1, NOW)
    monkeypatch.setattr(vectors, "_write", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        vectors.refresh_embeddings(1)
    assert runs() == []
