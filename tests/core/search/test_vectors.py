"""The vector store: vectors in MongoDB are the truth; a station's index file is used when whole and current,
caught up when stale, rebuilt when missing or corrupt; only changed texts are embedded again."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from core import personal
from core.config import active
from core.privacy.erasure import erase_listener
from core.search import lexical_store, process_indexes, vectors
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
    """The station's index file: the one its pointer (the .json beside the index's path) names."""
    pointer = process_indexes._path(1, vectors.embedder().name).with_suffix(".json")
    return pointer.with_name(json.loads(pointer.read_text())["file"])


def test_every_listener_is_embedded_once_and_an_unchanged_text_is_not_embedded_again(station):
    assert station == {"embedded": 6, "kept": 0, "texts": 6}
    assert vectors.refresh_embeddings(1) == {"embedded": 0, "kept": 6, "texts": 0}


def test_a_new_recipe_for_vectors_embeds_every_listener_again_once(station, monkeypatch):
    from core.search import composed

    monkeypatch.setattr(composed, "RECIPE", "the next way a text becomes a vector")
    assert vectors.refresh_embeddings(1) == {"embedded": 6, "kept": 0, "texts": 6}
    assert vectors.refresh_embeddings(1) == {"embedded": 0, "kept": 6, "texts": 0}


def test_a_listener_whose_text_changed_is_embedded_again_with_a_later_seq(station):
    before = ListenerEmbedding.objects.get(company_id=1, originator=personal.key_of(1, "27830000002"))
    add_interactions(1, "27830000002", [event(1, message="Soccer! Chiefs all the way")], import_id="second")
    segment_company(1, NOW)
    assert vectors.refresh_embeddings(1) == {"embedded": 1, "kept": 5, "texts": 1}
    after = ListenerEmbedding.objects.get(company_id=1, originator=personal.key_of(1, "27830000002"))
    assert after.seq > before.seq and after.vector != before.vector


def test_listeners_alike_in_every_trait_share_one_embedding(app):
    for n in range(5):
        make_listener(1, f"2785000000{n}", [event(2, message="Same words, same listener")])
    segment_company(1, NOW)
    assert vectors.refresh_embeddings(1) == {"embedded": 5, "kept": 0, "texts": 1}
    stored = {doc.vector for doc in ListenerEmbedding.objects(company_id=1)}
    assert len(stored) == 1


def test_the_index_is_saved_and_a_new_process_reads_it_whole(station):
    first = process_indexes.current_index(1)
    assert index_file().exists() and len(first) == 6
    process_indexes.forget_indexes()
    again = process_indexes.current_index(1)
    assert (len(again), again.seq) == (6, first.seq)


def test_a_corrupt_index_file_is_rebuilt_from_mongodb(station):
    process_indexes.current_index(1)
    process_indexes.forget_indexes()
    index_file().write_bytes(b"not an index")
    rebuilt = process_indexes.current_index(1)
    assert len(rebuilt) == 6
    _, ids = rebuilt.search(rebuilt.vectors_of(np.array([0]))[0], 1, np.arange(len(rebuilt.owner)))
    assert ids[0] == 0


def test_a_stale_index_file_catches_up_with_the_vectors_written_since(station):
    process_indexes.current_index(1)
    process_indexes.forget_indexes()
    pointer = process_indexes._path(1, vectors.embedder().name).with_suffix(".json")
    stale = {path: path.read_bytes() for path in (index_file(), pointer)}
    make_listener(1, "27830000009", [event(1, message="Newcomer here")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    process_indexes.current_index(1)
    process_indexes.forget_indexes()
    for path, data in stale.items():
        path.write_bytes(data)
    assert "27830000009" in process_indexes.current_index(1).current


def test_erasure_removes_the_vector_from_mongodb_and_from_this_process_index(station):
    process_indexes.current_index(1)
    assert erase_listener(1, "27830000001", "test-secret")["stores"]["vector_index"] == 1
    assert "27830000001" not in process_indexes.current_index(1).current
    assert not ListenerEmbedding.objects(company_id=1, originator=personal.key_of(1, "27830000001")).count()


def test_a_saved_index_of_a_replaced_database_is_not_taken_for_current(station):
    process_indexes.current_index(1)
    process_indexes.forget_indexes()
    empty_database()  # another database under the same DATA_DIR: its counter starts again
    for n in range(8):
        make_listener(1, f"2784000000{n}", [event(2, message="A brand new station")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    assert sorted(process_indexes.current_index(1).current) == [f"2784000000{n}" for n in range(8)]


def test_a_vector_written_after_its_listener_was_erased_does_not_stay(station):
    # a background refresh that read the listener before the erasure writes after it
    erase_listener(1, "27830000003", "test-secret")
    late = vectors.embedder().embed(["Play my song number 3, please"])
    vectors._write(1, vectors.embedder().name, ["27830000003"], ["late"], late)
    assert not ListenerEmbedding.objects(company_id=1, originator=personal.key_of(1, "27830000003")).count()


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


def mapped_here(path) -> bool:
    """Whether this process maps the file."""
    return str(path) in Path("/proc/self/maps").read_text()


def test_two_processes_reading_one_index_file_share_its_pages(station):
    process_indexes.current_index(1)
    path = process_indexes._path(1, vectors.embedder().name)
    other = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(path)], capture_output=True, text=True,
                           check=True)
    assert mapped_here(index_file()) and other.stdout.split() == ["6", str(index_file())]


OTHER_PROCESS = """
import sys
from pathlib import Path
from core.search import index
found = index.load(Path(sys.argv[1]))
target = [line.split()[-1] for line in Path("/proc/self/maps").read_text().splitlines() if ".faiss" in line]
print(len(found), target[0])
"""


def test_a_process_catches_up_in_a_tail_then_maps_the_newer_file(station, monkeypatch):
    before = process_indexes.current_index(1)
    old_file = index_file()
    make_listener(1, "27830000009", [event(1, message="Newcomer here")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    caught_up = process_indexes.current_index(1)
    assert caught_up is before and caught_up.tail_size == 1 and "27830000009" in caught_up.current
    monkeypatch.setattr(process_indexes, "FOLD_ABOVE", 0)
    folded = process_indexes.current_index(1)
    assert (folded.frozen, folded.tail_size, len(folded)) == (True, 0, 7)
    assert index_file() != old_file and not old_file.exists() and mapped_here(index_file())


def test_a_process_takes_the_newer_file_another_one_wrote(station, monkeypatch):
    mine = process_indexes.current_index(1)
    make_listener(1, "27830000009", [event(1, message="Newcomer here")])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    process_indexes.forget_indexes()
    monkeypatch.setattr(process_indexes, "FOLD_ABOVE", 0)
    theirs = process_indexes.current_index(1)  # another process: the file it starts from, caught up and folded
    theirs_file = index_file()
    process_indexes._indexes[(1, vectors.embedder().name)] = mine
    taken = process_indexes.current_index(1)
    assert taken is not mine and taken.seq == theirs.seq and "27830000009" in taken.current
    assert index_file() == theirs_file and mapped_here(theirs_file)


def test_the_index_files_name_listeners_by_the_keys_of_their_numbers_and_read_back_as_numbers(station):
    held = process_indexes.current_index(1)
    folder = process_indexes._path(1, vectors.embedder().name).parent
    assert held.frozen and not any(b"2783000000" in path.read_bytes() for path in folder.iterdir())
    assert personal.key_of(1, "27830000001").encode() in b"".join(p.read_bytes() for p in folder.iterdir())
    process_indexes.forget_indexes()
    loaded = process_indexes.current_index(1)
    assert loaded.frozen and loaded.current == held.current


def test_erasure_leaves_neither_the_number_nor_the_vector_in_any_index_file(station):
    erased = process_indexes.current_index(1)
    vector = erased.vectors_of(np.array([erased.current["27830000001"]]))[0]
    erase_listener(1, "27830000001", "test-secret")
    folder = process_indexes._path(1, vectors.embedder().name).parent
    assert not any(b"27830000001" in path.read_bytes() for path in folder.iterdir())
    process_indexes.forget_indexes()
    reread = process_indexes.current_index(1)  # another process, reading the file
    assert "27830000001" not in reread.current
    kept = reread.vectors_of(np.arange(len(reread.owner)))
    assert not np.isclose(kept @ vector, 1.0, atol=1e-5).any()


@pytest.fixture
def two_stations(app):
    """Stations 1 and 2 with a listener each, embedded; this process holds no index of either and no file."""
    for company in (1, 2):
        make_listener(company, f"278{company}0000000", [event(2, message="Gospel on Sunday, please")])
        segment_company(company, NOW)
        vectors.refresh_embeddings(company)
    process_indexes.forget_indexes()
    for stale in (Path(active().data_dir) / "vectors").glob("company-*"):
        stale.unlink()


def held_for_station_1(module, monkeypatch) -> tuple[threading.Event, threading.Event]:
    """Makes `module`'s reads by seq wait, for station 1 only, until released: a catch-up that takes long."""
    reading, release, real = threading.Event(), threading.Event(), module.by_seq

    def slow(collection, query, *args, **kwargs):
        if query.get("company_id") == 1:
            reading.set()
            release.wait(30)
        return real(collection, query, *args, **kwargs)

    monkeypatch.setattr(module, "by_seq", slow)
    return reading, release


def answered_while_held(reading, release, held, other) -> list:
    """What `other` answered while `held` was stuck in station 1's read (nothing, if it had to wait for it)."""
    first, answered = threading.Thread(target=held), []
    first.start()
    try:
        assert reading.wait(30)
        second = threading.Thread(target=lambda: answered.append(other()))
        second.start()
        second.join(10)
    finally:
        release.set()
        first.join(30)
    return answered


def test_one_stations_vector_catch_up_does_not_hold_up_another_stations(two_stations, monkeypatch):
    reading, release = held_for_station_1(process_indexes, monkeypatch)
    answered = answered_while_held(reading, release, lambda: process_indexes.current_index(1),
                                   lambda: len(process_indexes.current_index(2)))
    assert answered == [1]
    assert len(process_indexes.current_index(1)) == 1


def test_one_stations_lexical_catch_up_does_not_hold_up_another_stations(two_stations, monkeypatch):
    first, second = process_indexes.current_index(1), process_indexes.current_index(2)
    lexical_store.forget()
    reading, release = held_for_station_1(lexical_store, monkeypatch)
    answered = answered_while_held(reading, release, lambda: lexical_store.current_lexical(1, first),
                                   lambda: lexical_store.current_lexical(2, second).said_of(np.array([0])))
    assert answered == [["Gospel on Sunday, please"]]
