"""The FAISS index: exact and approximate search among allowed ids only, replaced vectors, files that are whole or
rebuilt."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.search import index as faiss_index
from core.search.index import VectorIndex, load, save


def unit(rows: int, dim: int = 32, seed: int = 3) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def filled(approximate: bool, rows: int = 500) -> tuple[VectorIndex, np.ndarray]:
    vectors = unit(rows)
    found = VectorIndex(vectors.shape[1], approximate)
    found.upsert([f"l{i}" for i in range(rows)], vectors)
    return found, vectors


@pytest.mark.parametrize("approximate", [False, True])
def test_the_nearest_vector_is_itself_with_cosine_one(approximate):
    found, vectors = filled(approximate)
    cosines, ids = found.search(vectors[7], 3, np.arange(500))
    assert ids[0] == 7 and cosines[0] == pytest.approx(1.0, abs=1e-5)
    assert list(cosines) == sorted(cosines, reverse=True)


@pytest.mark.parametrize("approximate", [False, True])
def test_only_allowed_ids_are_ranked_and_a_narrow_filter_still_fills_k(approximate):
    found, vectors = filled(approximate)
    allowed = np.arange(100, 140)
    cosines, ids = found.search(vectors[7], 25, allowed)
    assert len(ids) == 25 and set(ids) <= set(allowed)
    exact = np.argsort(-(vectors[allowed] @ vectors[7]))[:25]
    assert list(ids) == list(allowed[exact])


def test_k_larger_than_the_allowed_ids_returns_each_once():
    found, vectors = filled(False)
    _, ids = found.search(vectors[0], 50, np.array([3, 4, 5]))
    assert sorted(ids) == [3, 4, 5]


def test_a_listener_embedded_again_keeps_one_live_id_with_its_new_vector():
    found, vectors = filled(False, rows=10)
    found.upsert(["l3"], vectors[8:9])
    assert len(found) == 10 and found.dead == 1
    live = found.ids_of(np.array([f"l{i}" for i in range(10)]))
    _, ids = found.search(vectors[8], 2, live)
    assert sorted(found.owner[i] for i in ids) == ["l3", "l8"]


def test_removed_listeners_have_no_id():
    found, _ = filled(False, rows=10)
    found.remove(["l2"])
    assert list(found.ids_of(np.array(["l1", "l2", "nobody"]))) == [1, -1, -1]


def test_a_compacted_index_drops_dead_ids_and_keeps_every_live_vector():
    found, vectors = filled(False, rows=20)
    found.upsert(["l0", "l1"], vectors[5:7])
    fresh = found.compacted()
    assert (len(fresh.owner), fresh.dead) == (20, 0)
    ids = fresh.ids_of(np.array(["l0"]))
    assert np.allclose(fresh.vectors_of(ids)[0], vectors[5])


def test_a_saved_index_loads_whole(tmp_path):
    found, vectors = filled(True, rows=50)
    found.seq = 50
    save(found, tmp_path / "c.faiss")
    loaded = load(tmp_path / "c.faiss")
    assert (loaded.seq, len(loaded), loaded.approximate) == (50, 50, True)
    assert loaded.search(vectors[9], 1, np.arange(50))[1][0] == 9


def data_file(path):
    """The file the index's pointer names."""
    return path.with_name(json.loads(path.with_suffix(".json").read_text())["file"])


def test_a_torn_or_missing_index_file_is_not_read(tmp_path):
    found, _ = filled(False, rows=50)
    save(found, tmp_path / "c.faiss")
    data = data_file(tmp_path / "c.faiss").read_bytes()
    data_file(tmp_path / "c.faiss").write_bytes(data[: len(data) // 2])
    assert load(tmp_path / "c.faiss") is None
    assert load(tmp_path / "missing.faiss") is None


def test_a_loaded_index_is_a_shared_map_of_its_file(tmp_path):
    found, _ = filled(False, rows=50)
    save(found, tmp_path / "c.faiss")
    loaded = load(tmp_path / "c.faiss")
    maps = Path("/proc/self/maps").read_text()
    assert loaded.frozen and str(data_file(tmp_path / "c.faiss")) in maps


def test_vectors_added_to_a_mapped_index_are_found_beside_it_and_saved_with_it(tmp_path):
    found, vectors = filled(False, rows=50)
    save(found, tmp_path / "c.faiss")
    loaded = load(tmp_path / "c.faiss")
    late = unit(5, seed=9)
    loaded.upsert(["l3", "new0", "new1", "new2", "new3"], late)
    assert loaded.tail_size == 5 and len(loaded) == 54
    assert list(loaded.search(late[1], 1, np.arange(55))[1]) == [51]
    assert list(loaded.search(vectors[7], 1, np.arange(55))[1]) == [7]
    assert np.allclose(loaded.vectors_of(np.array([7, 52])), np.vstack([vectors[7], late[2]]))
    save(loaded, tmp_path / "c.faiss")
    again = load(tmp_path / "c.faiss")
    assert (again.tail_size, len(again), again.current["new3"]) == (0, 54, 54)
    assert list(again.search(late[4], 1, np.arange(55))[1]) == [54]


def test_a_new_save_leaves_a_map_of_the_old_file_unchanged_and_names_no_dead_listener(tmp_path):
    found, vectors = filled(False, rows=50)
    save(found, tmp_path / "c.faiss")
    old = load(tmp_path / "c.faiss")
    found.remove(["l4"])
    save(found.compacted(), tmp_path / "c.faiss")
    assert list(old.search(vectors[4], 1, np.arange(50))[1]) == [4]
    assert '"l4"' not in (tmp_path / "c.json").read_text()
    assert len(list(tmp_path.glob("c-*.faiss"))) == 1


def test_a_narrow_filter_on_an_approximate_index_is_scored_exactly(monkeypatch):
    monkeypatch.setattr(faiss_index, "EXACT_CANDIDATES", 1000)
    found, vectors = filled(True, rows=300)
    allowed = np.arange(0, 300, 3)
    _, ids = found.search(vectors[10], 10, allowed)
    exact = allowed[np.argsort(-(vectors[allowed] @ vectors[10]))[:10]]
    assert list(ids) == list(exact)


def test_a_large_exact_search_with_its_selector_finds_the_true_nearest():
    # the selector's bitmap must outlive the search: a freed one lost the best match on a large index
    vectors = unit(60_000, dim=16, seed=5)
    found = VectorIndex(16)
    found.upsert([str(i) for i in range(60_000)], vectors)
    everyone = np.arange(60_000)
    for probe in range(0, 60_000, 6_000):
        _, ids = found.search(vectors[probe], 5, everyone)
        assert list(ids) == list(np.argsort(-(vectors @ vectors[probe]))[:5])


def test_a_filter_that_lets_a_quarter_through_keeps_the_approximate_recall(monkeypatch):
    # the selector hides shut-out vectors from the answer, not from HNSW's walk: the walk must widen with the filter
    monkeypatch.setattr(faiss_index, "EXACT_CANDIDATES", 0)
    rng = np.random.default_rng(5)
    centres = rng.normal(size=(100, 64)).astype(np.float32)
    points = centres[rng.integers(0, 100, size=24_000)] + rng.normal(scale=0.8, size=(24_000, 64)).astype(np.float32)
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    found = VectorIndex(64, True)
    found.upsert([f"l{i}" for i in range(20_000)], points[:20_000])
    quarter = np.sort(rng.choice(20_000, size=5_000, replace=False))
    recalls = []
    for probe in points[20_000:20_040]:
        exact = set(quarter[np.argsort(-(points[quarter] @ probe))[:100]].tolist())
        recalls.append(len(exact & set(found.search(probe, 100, quarter)[1].tolist())) / 100)
    assert np.mean(recalls) >= 0.95
