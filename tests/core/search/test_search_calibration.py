"""Search scores that mean what the defaults promise: the generic monotone calibration (core.calibration), the labelled
queries a station's own data gives, its values and its listeners' own words (core.search.calibration), what a score
was worth and each value's floor of meaning kept per station and model while the vectors stay about the same and for
a day, and free-word searches on an embedded station: answers only with evidence, counted whole."""
from __future__ import annotations

import re
from datetime import timedelta

import numpy as np
import pytest

from core.calibration import CAP, MIN_SAMPLES, Calibration, calibrate
from core.clock import utcnow
from core.demo.seed import seed_demo
from core.explore.filters import ListenerFilter
from core.search import calibration as search_calibration
from core.search.bound import EXACT_FLOOR
from core.search.calibration import MAX_AGE, MIN_HOLDERS, fit, fitted_on, kept, labelled_queries, measured
from core.search.embeddings import embedder
from core.search.index import VectorIndex
from core.search.lexical import LexicalIndex
from core.search.models import SearchCalibration
from core.search.search import search_listeners
from core.search.texts import latest_messages
from core.search.vectors import refresh_embeddings
from core.search.vocabulary import build_vocabulary
from tests.conftest import empty_database
from tests.memory import NOW, event, snapshot_of

TZ = "Africa/Johannesburg"
MODEL = "local:test-model"
GRID = np.linspace(0.0, 1.0, 201)


def make_calibration(samples: int = 2000, seed: int = 3, inverted: bool = False) -> Calibration:
    """A calibration of `samples` scores in [0.4, 0.8], right more often the higher they are (or, `inverted`, the
    lower they are)."""
    rng = np.random.default_rng(seed)
    scores = rng.uniform(0.4, 0.8, samples)
    chance = (scores - 0.4) / 0.4
    correct = rng.uniform(size=samples) < (1 - chance if inverted else chance)
    return calibrate(scores, correct)


# the generic calibration

@pytest.mark.parametrize("inverted", [False, True])
def test_a_higher_score_is_never_worth_less(inverted):
    confidences = make_calibration(inverted=inverted).confidences(GRID)
    assert np.all(np.diff(confidences) >= 0)


def test_confidences_of_many_scores_are_the_confidence_of_each_unrounded():
    found = make_calibration()
    confidences = found.confidences(GRID)
    assert [round(float(c), 2) for c in confidences] == [found.confidence(float(s)) for s in GRID]
    assert any(float(c) != round(float(c), 2) for c in confidences)


def test_too_few_checked_scores_claim_at_most_the_cap_in_both_forms():
    found = make_calibration(samples=MIN_SAMPLES - 1)
    assert not found.trusted
    confidences = found.confidences(GRID)
    assert confidences.max() <= CAP
    assert [round(float(c), 2) for c in confidences] == [found.confidence(float(s)) for s in GRID]


def test_without_any_checked_score_a_score_is_itself_held_under_the_cap():
    empty = calibrate(np.array([]), np.array([]))
    assert empty.confidences(np.array([0.3, 0.9])).tolist() == [0.3, CAP]
    assert (empty.confidence(0.3), empty.confidence(0.9)) == (0.3, CAP)


# labelled queries from the station's own values

STATION_SIZE = 3 * MIN_HOLDERS
HALF = STATION_SIZE // 2


def tagged_station() -> list[dict]:
    """STATION_SIZE listeners: "everyone" held by more than half, "half" by exactly half, "some" by MIN_HOLDERS,
    "few" by one fewer; isiZulu spoken by MIN_HOLDERS + 2; the first MIN_HOLDERS took part during show 15."""
    people = []
    for n in range(STATION_SIZE):
        tags = [tag for tag, holders in (("everyone", HALF + 1), ("half", HALF), ("some", MIN_HOLDERS),
                                         ("few", MIN_HOLDERS - 1)) if n < holders]
        people.append({"originator": f"p{n:02d}", "tags": tags,
                       "language": "isiZulu" if n >= STATION_SIZE - MIN_HOLDERS - 2 else None,
                       "events": [event(2, timeslot=15 if n < MIN_HOLDERS else None)]})
    return people


@pytest.fixture(scope="module")
def labelled():
    snap = snapshot_of(tagged_station(), timeslots=(15,))
    vocab = build_vocabulary(1, TZ, snap.vocab, {15: "Gospel Sunday"}, {1: "SMS"})
    return snap, labelled_queries(vocab, snap, TZ)


def test_values_held_by_fewer_than_min_holders_or_more_than_half_the_station_make_no_labelled_query(labelled):
    _, queries = labelled
    texts = {q.text for q in queries}
    assert {"half", "some"} <= texts
    assert not texts & {"everyone", "few", "song request"}  # every listener made a song request


def test_a_labelled_querys_answer_is_the_listeners_who_hold_its_value(labelled):
    snap, queries = labelled
    by_text = {q.text: q for q in queries}
    assert set(snap.originators[by_text["some"].holders].tolist()) == {f"p{n:02d}" for n in range(MIN_HOLDERS)}
    assert by_text["isiZulu"].holders.sum() == MIN_HOLDERS + 2


def test_a_shows_labelled_query_is_its_title(labelled):
    _, queries = labelled
    show = next(q for q in queries if q.field == "timeslot_id")
    assert (show.text, int(show.holders.sum())) == ("Gospel Sunday", MIN_HOLDERS)


def test_labelled_queries_take_each_kind_in_turn_most_held_first(labelled):
    _, queries = labelled
    assert [q.text for q in queries] == ["half", "Gospel Sunday", "isiZulu", "some"]


# the fit, measured on labelled queries and kept per station and model

def in_memory_index(holders: int = 10, others: int = 10) -> tuple[VectorIndex, np.ndarray, np.ndarray]:
    """An index of `holders` listeners near the first axis and `others` near the second, and one more listener
    without a vector: the index, every row's vector id (-1: none) and who holds the labelled value."""
    rng = np.random.default_rng(5)
    base = np.r_[np.tile([1.0, 0.0, 0.0], (holders, 1)), np.tile([0.0, 1.0, 0.0], (others, 1))]
    vectors = base + rng.normal(0, 0.05, base.shape)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = VectorIndex(3)
    index.upsert([f"r{n:02d}" for n in range(holders + others)], vectors)
    row_ids = np.r_[np.arange(holders + others), -1]
    held = np.r_[np.ones(holders, dtype=bool), np.zeros(others + 1, dtype=bool)]
    return index, row_ids, held


def query_of(held: np.ndarray) -> search_calibration.Labelled:
    return search_calibration.Labelled("gospel", "tags", held)


def lexical_of(index: VectorIndex, held: np.ndarray, said: dict[int, str] | None = None) -> LexicalIndex:
    """Texts for the in-memory index: the holders' say "gospel", the others' do not; `said`: what some wrote."""
    lexical = LexicalIndex()
    said = said or {}
    ids = list(range(len(index)))
    lexical.put(ids, [("tags: gospel" if held[i] else "tags: jazz") + (f". messages: {said[i]}" if i in said else "")
                      for i in ids], said=[said.get(i, "") for i in ids])
    lexical.refresh()
    return lexical


class FixedModel:
    """A model that reads every text as the first axis (what the fit's bookkeeping needs, not its meaning)."""

    name, dim = MODEL, 3

    def embed(self, texts, kind="passage"):
        return np.tile(np.array([1.0, 0.0, 0.0], dtype=np.float32), (len(texts), 1))


def ground_of(index, row_ids, lexical) -> search_calibration.Ground:
    return search_calibration.Ground(None, TZ, index, lexical, row_ids, None, FixedModel())


def test_a_labelled_query_answers_only_listeners_whose_text_holds_its_words():
    index, row_ids, held = in_memory_index()
    found, relevant = measured([query_of(held)], np.array([[0.0, 1.0, 0.0]]),
                               ground_of(index, row_ids, lexical_of(index, held)))
    assert sorted(found[0].rows.tolist()) == list(range(10)) and relevant[0].all()  # closeness made no answer


def test_a_listener_without_a_vector_is_never_measured():
    index, row_ids, held = in_memory_index()
    held[-1] = True  # holds the value, but has no vector (and so no text) yet
    found, _ = measured([query_of(held)], np.array([[1.0, 0.0, 0.0]]),
                        ground_of(index, row_ids, lexical_of(index, held)))
    assert len(row_ids) - 1 not in found[0].rows.tolist()


def test_with_no_words_held_by_anyone_a_labelled_query_has_no_answers():
    index, row_ids, held = in_memory_index()
    found, _ = measured([search_calibration.Labelled("opera", "tags", held)], np.array([[1.0, 0.0, 0.0]]),
                        ground_of(index, row_ids, lexical_of(index, held)))
    assert len(found[0]) == 0


def test_what_a_score_was_worth_is_measured_on_every_labelled_answer():
    index, row_ids, held = in_memory_index()
    scorer = fitted_on(*measured([query_of(held)], np.array([[1.0, 0.0, 0.0]]),
                                 ground_of(index, row_ids, lexical_of(index, held))))
    assert scorer.calibration.samples == 10


def test_words_the_listeners_wrote_are_labelled_queries_answered_by_who_wrote_them_and_never_a_value_name():
    index, row_ids, held = in_memory_index()
    said = {n: "stuck in traffic on the highway" for n in range(MIN_HOLDERS)}
    lexical = lexical_of(index, held, said)
    snap = snapshot_of([{"originator": f"r{n:02d}", "events": [event(1)]} for n in range(len(row_ids))])
    ground = search_calibration.Ground(snap, TZ, index, lexical, row_ids, None, FixedModel())
    vocab = build_vocabulary(1, TZ, {"tags": ["traffic"]}, {}, {})
    queries = search_calibration.said_queries(ground, vocab)
    texts = {q.text: q for q in queries}
    assert {"stuck", "highway"} <= set(texts)
    assert not any("traffic" in t for t in texts)  # a value's name, not a word of theirs
    assert texts["stuck"].holders.sum() == MIN_HOLDERS and texts["stuck"].field == search_calibration.SAID


def stored_fit(company_id: int = 1):
    index, row_ids, held = in_memory_index()
    vocab = build_vocabulary(company_id, TZ, {}, {}, {})
    return fit(company_id, vocab, ground_of(index, row_ids, lexical_of(index, held)))


def move_stored(**fields) -> None:
    SearchCalibration._get_collection().update_one({"company_id": 1, "model": MODEL}, {"$set": fields})


@pytest.mark.db
def test_a_fit_is_stored_with_its_station_and_model_and_kept_while_it_stands(app):
    fitted = stored_fit()
    found = kept(1, MODEL, 20)
    assert found is not None
    assert (found.calibration.upper.tolist(), found.calibration.accuracy.tolist(), found.calibration.samples) == (
        fitted.calibration.upper.tolist(), fitted.calibration.accuracy.tolist(), fitted.calibration.samples)
    assert found.floors == fitted.floors
    assert kept(1, "local:another-model", 20) is None and kept(2, MODEL, 20) is None


@pytest.mark.db
def test_a_station_fitted_again_keeps_one_fit_per_model(app):
    stored_fit()
    stored_fit()
    assert SearchCalibration.objects(company_id=1, model=MODEL).count() == 1


@pytest.mark.db
def test_a_fit_stands_while_the_vectors_moved_by_at_most_one_percent(app):
    stored_fit()
    move_stored(vectors=1000)
    assert kept(1, MODEL, 1010) is not None and kept(1, MODEL, 991) is not None
    assert kept(1, MODEL, 1011) is None and kept(1, MODEL, 989) is None


@pytest.mark.db
def test_vectors_written_again_since_the_fit_count_as_moved(app):
    stored_fit()
    move_stored(vectors=1000, seq=5000)
    assert kept(1, MODEL, 1000, seq=5010) is not None  # ten listeners embedded again: 1%
    assert kept(1, MODEL, 1000, seq=5011) is None
    assert kept(1, MODEL, 1005, seq=5005) is not None  # five new listeners are five writes, counted once


@pytest.mark.db
def test_on_a_small_station_a_fit_stands_while_at_most_one_vector_moved(app):
    stored_fit()
    assert kept(1, MODEL, 21) is not None and kept(1, MODEL, 19) is not None
    assert kept(1, MODEL, 22) is None


@pytest.mark.db
def test_a_fit_stands_for_a_day_and_no_longer(app):
    stored_fit()
    move_stored(made_at=utcnow() - MAX_AGE + timedelta(minutes=1))
    assert kept(1, MODEL, 20) is not None
    move_stored(made_at=utcnow() - MAX_AGE - timedelta(minutes=1))
    assert kept(1, MODEL, 20) is None


# a free-text search on an embedded station (seeded once for the tests below; keep them last in the file: a test
# using the `app` fixture empties the database)

@pytest.fixture(scope="module")
def demo_station(_app):
    empty_database()
    seed_demo(1, 400, seed=7, now=NOW)
    refresh_embeddings(1)
    return 1


def free_text_search(**params) -> dict:
    return search_listeners(1, "listeners who complain about traffic and load shedding", ListenerFilter(),
                            **{"min_score": 0.0, **params})


@pytest.mark.db
def test_a_free_text_search_answers_who_wrote_of_it_best_first_each_scoring_as_an_exact_match_does(demo_station):
    answer = free_text_search()
    written = latest_messages(1, [r["originator"] for r in answer["results"]])
    scores = [r["score"] for r in answer["results"]]
    assert answer["understood"]["free_text"] and answer["results"]
    about = re.compile(r"traffic|load shedding|ugesi ucimile|krag is weer af|umbane ucimile|motlakase o timile", re.I)
    assert all(any(about.search(m) for m in written[r["originator"]]) for r in answer["results"])  # in any language
    assert all(a >= b for a, b in zip(scores, scores[1:])) and min(scores) >= EXACT_FLOOR


@pytest.mark.db
def test_every_result_of_a_free_text_search_has_its_raw_similarity(demo_station):
    similarities = [r["similarity"] for r in free_text_search()["results"]]
    assert similarities and all(s is not None and 0 <= s <= 1 for s in similarities)


@pytest.mark.db
def test_a_search_stores_the_stations_floors_of_meaning_with_the_vectors_they_were_measured_on(demo_station):
    free_text_search()
    stored = SearchCalibration.objects.get(company_id=1, model=embedder().name)
    assert stored.vectors == 400 and stored.floors and stored.queries and stored.said_queries
    assert kept(1, embedder().name, 400) is not None


@pytest.mark.db
def test_no_free_text_result_scores_under_min_score(demo_station):
    answer = free_text_search(min_score=0.8)
    assert all(r["score"] >= 0.8 for r in answer["results"])
    assert answer["total"] == len(answer["results"]) < 100


@pytest.mark.db
def test_the_count_is_every_listener_who_matches_and_the_limit_only_how_many_are_shown(demo_station):
    every = search_listeners(1, "Jerusalema", ListenerFilter(), limit=1000)
    few = search_listeners(1, "Jerusalema", ListenerFilter(), limit=3)
    assert every["total"] == len(every["results"]) > 3
    assert (few["total"], few["shown"], len(few["results"])) == (every["total"], 3, 3)


@pytest.mark.db
def test_a_listener_who_asked_for_it_in_a_message_is_a_confident_match(demo_station):
    answer = search_listeners(1, "people who asked for Jerusalema", ListenerFilter())
    written = latest_messages(1, [r["originator"] for r in answer["results"]])
    assert answer["results"] and all(r["score"] >= EXACT_FLOOR for r in answer["results"])
    assert all(any("jerusalema" in m.casefold() for m in written[r["originator"]]) for r in answer["results"])


@pytest.mark.db
@pytest.mark.parametrize("query", ["fans", "listeners who love opera", "people into bluegrass and polka"])
def test_a_query_with_no_evidence_anywhere_answers_nobody_and_offers_the_stations_closest_values(demo_station,
                                                                                                 query):
    answer = search_listeners(1, query, ListenerFilter(), min_score=0.0)
    assert (answer["results"], answer["total"]) == ([], 0)
    assert all(s["field"] in ("tags", "inferred_interests", "timeslot_id") and s["label"]
               for s in answer["suggestions"])
    assert answer["suggestions"] or query == "fans"


@pytest.mark.db
def test_a_query_in_afrikaans_finds_at_the_defaults_the_listeners_who_wrote_of_load_shedding_in_any_language(
        demo_station):
    answer = search_listeners(1, "luisteraars wat oor beurtkrag kla", ListenerFilter())
    written = latest_messages(1, [r["originator"] for r in answer["results"]])
    power = re.compile(r"load shedding|ugesi ucimile|krag is weer af|umbane ucimile|motlakase o timile", re.I)
    assert answer["results"] and all(any(power.search(m) for m in written[r["originator"]])
                                     for r in answer["results"])
