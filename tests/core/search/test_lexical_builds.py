"""BM25 builds shared by the processes of a host: made once, mapped by every process that holds the same
documents, and holding no word and no number of anyone."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

from core.config import active
from core.search import lexical_builds, lexical_store, process_indexes, vectors
from core.search.lexical import LexicalIndex
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

TEXTS = [f"messages: please play Jerusalema for my gogo in Soweto {n}" if n % 3 else
         f"messages: load shedding again, greetings to Thandeka {n}" for n in range(300)]
QUERIES = ("Jerusalema", "load shedding", "gogo Soweto", "Thandeka", "nobody wrote this")


def indexed(place=None, texts: list[str] = TEXTS) -> LexicalIndex:
    found = LexicalIndex(shared_at=place)
    found.put(list(range(len(texts))), texts)
    found.refresh()
    return found


def folders(tmp_path) -> list:
    return sorted(tmp_path.glob("company-1-m-*"))


def test_a_second_process_maps_the_first_ones_build_and_scores_as_an_unshared_index(tmp_path):
    place = tmp_path / "company-1-m"
    first = indexed(place)
    [folder] = folders(tmp_path)
    written = {path.name: path.stat().st_mtime_ns for path in folder.iterdir()}
    second = indexed(place)
    assert {path.name: path.stat().st_mtime_ns for path in folder.iterdir()} == written  # mapped, not made again
    alone = indexed()
    for found in (first, second):
        data = found.built.retriever.scores["data"]
        assert isinstance(data, np.memmap) and os.path.dirname(data.filename) == str(folder)
        assert isinstance(found.docs[7], np.memmap)  # the token ids are the shared ones too
        for query in QUERIES:
            np.testing.assert_allclose(found.shares(query), alone.shares(query))


def test_a_shared_build_holds_no_word_anyone_wrote(tmp_path):
    indexed(tmp_path / "company-1-m")
    [folder] = folders(tmp_path)
    on_disk = b"".join(path.read_bytes() for path in folder.iterdir()).lower()
    for word in ("jerusalema", "gogo", "soweto", "thandeka", "shedding", "greetings", "messages"):
        assert word.encode() not in on_disk and word.encode("utf-32-le") not in on_disk


def test_a_text_written_again_makes_a_build_of_its_own_and_the_older_process_reads_its_own(tmp_path):
    place = tmp_path / "company-1-m"
    older, newer = indexed(place), indexed(place)
    newer.put([1], ["messages: a brand new song by Makhadzi"], dead=[])
    newer.refresh()
    assert len(folders(tmp_path)) == 2
    assert np.flatnonzero(newer.shares("Makhadzi")).tolist() == [1]
    assert not newer.shares("Jerusalema")[1] and older.shares("Jerusalema")[1]
    assert not isinstance(newer.docs[1], np.memmap) or newer.docs[1].filename != older.docs[1].filename


def test_builds_older_than_the_grace_are_removed_at_the_next_save_and_another_models_never(tmp_path):
    place = tmp_path / "company-1-m"
    indexed(place)
    [old] = folders(tmp_path)
    other_model = tmp_path / f"company-1-m-large-{'0' * 32}"
    other_model.mkdir()
    stale = time.time() - lexical_builds.KEEP_OTHERS_S - 60
    for path in (old, other_model):
        os.utime(path, (stale, stale))
    indexed(place, TEXTS[:200])
    assert not old.exists() and other_model.exists() and len(folders(tmp_path)) == 2


def test_a_host_whose_disk_takes_nothing_still_builds_in_memory(tmp_path):
    (tmp_path / "lexical").write_text("not a folder")
    found = indexed(tmp_path / "lexical" / "company-1-m")
    assert np.flatnonzero(found.shares("Thandeka")).tolist() == list(range(0, 300, 3))
    assert not isinstance(found.built.retriever.scores["data"], np.memmap)


@pytest.mark.db
def test_the_service_shares_a_stations_build_under_data_dir(app):
    for n, words in enumerate(["Play Jerusalema for my gogo", "Load shedding again", "Traffic on the N3"]):
        make_listener(1, f"2783000000{n}", [event(2, message=words)])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    first = lexical_store.current_lexical(1, process_indexes.current_index(1))
    lexical_store.forget()  # as another process of the host reads it
    second = lexical_store.current_lexical(1, process_indexes.current_index(1))
    assert second is not first
    made = first.built.retriever.scores["data"].filename
    assert second.built.retriever.scores["data"].filename == made
    assert os.path.commonpath([made, active().data_dir]) == str(active().data_dir)
    assert np.flatnonzero(second.shares("Jerusalema")).tolist() == np.flatnonzero(first.shares("Jerusalema")).tolist()


def test_a_text_written_while_the_shared_build_was_made_is_kept_and_found_at_the_next_build(tmp_path):
    found = LexicalIndex(shared_at=tmp_path / "company-1-m")
    found.put(list(range(len(TEXTS))), TEXTS)
    was, terms = found.docs.copy(), dict(found.terms)  # what a build reads, in its thread
    found.put([5], ["messages: a brand new song by Makhadzi"])  # meanwhile, in a request
    found._shared(list(was), terms, was)
    assert isinstance(found.docs[6], np.memmap) and not isinstance(found.docs[5], np.memmap)
    found.refresh()
    assert np.flatnonzero(found.shares("Makhadzi")).tolist() == [5]
    assert not found.shares("Jerusalema")[5] and found.shares("Jerusalema")[4]
