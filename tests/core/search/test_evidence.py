"""No score without evidence (core.search.evidence) and what words mean among a station's values
(core.search.meaning), on data built in memory: coverage and its boundary, words nobody holds, readings, scores, the
floors of meaning measured on a station's own words."""
from __future__ import annotations

import numpy as np
import pytest

from core.search import evidence, meaning
from core.search.bound import EXACT_FLOOR
from core.search.evidence import COVER, Reading, Word, answers, covered
from core.search.meaning import FLOOR, MARGIN, SPREAD, Meanings, Value, background_words, floors_of
from core.search.vocabulary import build_vocabulary

N = 4


def held(*rows: int) -> np.ndarray:
    out = np.zeros(N, dtype=bool)
    out[list(rows)] = True
    return out


def word(text: str, weight: float, writers=None, holders=None, heard: bool | None = None) -> Word:
    heard = (writers is not None and writers.any()) or holders is not None if heard is None else heard
    return Word(text, (), holders, writers, weight, heard)


def test_a_listener_who_wrote_the_one_word_of_a_query_is_an_answer_and_one_who_did_not_is_not():
    cover = covered([Reading((word("maskandi", 6.0, held(0, 2)),))], N)
    assert cover.tolist() == [1.0, 0.0, 1.0, 0.0] and answers(cover).tolist() == [0, 2]


def test_holding_half_of_a_querys_weight_is_not_enough_and_a_little_more_is():
    half = covered([Reading((word("water", 5.0, held(0)), word("tyla", 5.0, held(1))))], N)
    more = covered([Reading((word("water", 5.1, held(0)), word("tyla", 4.9, held(1))))], N)
    assert half[0] == pytest.approx(COVER) and answers(half).tolist() == []
    assert answers(more).tolist() == [0]


def test_a_value_the_word_means_counts_as_having_written_it():
    worship = word("worship", 9.0, writers=held(), holders=held(1, 3))
    music = word("music", 2.0, held(0, 1))
    cover = covered([Reading((worship, music))], N)
    assert answers(cover).tolist() == [1, 3]  # "music" alone is the smaller part of "worship music"


def test_a_run_of_words_nobody_holds_weighs_one_word_no_more_than_the_most_telling_one_held():
    reading = Reading((word("power", 9.0, held(), heard=False), word("cuts", 9.0, held(), heard=False),
                       word("load", 4.0, held(0)), word("shedding", 4.5, held(0))))
    assert reading.weights() == [4.5, 0.0, 4.0, 4.5]
    assert answers(covered([reading], N)).tolist() == [0]


def test_a_word_held_beside_a_word_nobody_holds_answers_nobody():
    reading = Reading((word("heavy", 5.0, held(2)), word("metal", 9.0, held(), heard=False)))
    assert answers(covered([reading], N)).tolist() == []  # heavy traffic is no heavy metal


def test_a_query_whose_words_nobody_holds_has_no_answers():
    reading = Reading((word("opera", 9.0, held(), heard=False),))
    assert answers(covered([reading], N)).tolist() == [] and covered([], N).tolist() == [0.0] * N


def test_the_better_reading_counts_written_or_in_english():
    written = Reading((word("beurtkrag", 9.0, held(), heard=False),))
    english = Reading((word("load shedding power cuts electricity", 4.0, held(1)),))
    assert answers(covered([written, english], N)).tolist() == [1]


def test_scores_start_at_the_exact_match_floor_stay_below_one_and_rise_with_coverage_and_words():
    scores = evidence.scores(np.array([0.51, 0.75, 1.0, 1.0, 1.0]), np.array([0.0, 0.0, 0.0, 0.5, 5.0]))
    assert scores.min() >= EXACT_FLOOR and scores.max() < 1
    assert np.all(np.diff(scores) > 0)


# what words mean among the station's values

def unit(*rows) -> np.ndarray:
    m = np.array(rows, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_a_value_close_to_every_word_listeners_write_needs_a_word_closer_to_mean_it():
    values = unit([1, 0, 0], [0, 1, 0])
    background = unit(*([[0.6, 0.1, 0.8]] * 50), *([[0.0, 0.0, 1.0]] * 50))
    floors = floors_of(values, background)
    assert floors[0] > floors[1] == pytest.approx(FLOOR)
    assert floors[0] == pytest.approx(float(np.quantile(background @ values[0], meaning.QUANTILE)) + MARGIN, abs=1e-4)


def test_with_nothing_written_yet_a_word_means_a_value_from_the_floor_and_margin():
    assert floors_of(unit([1, 0]), np.zeros((0, 2))).tolist() == pytest.approx([FLOOR + MARGIN])


def test_a_word_means_the_values_above_their_floor_within_the_spread_of_the_closest():
    values = (Value("tags", "praise", "praise"), Value("tags", "faith", "faith"), Value("timeslot_id", 7, "Jazz"))
    vectors = unit([1, 0, 0], [0.9, 0.44, 0], [0, 0, 1])
    found = Meanings(values, vectors, np.array([0.6, 0.6, 0.6], dtype=np.float32))
    near = found.meant(unit([1, 0.05, 0]))[0]
    assert [v.label for v, _ in near] == ["praise", "faith"] and near[0][1] - near[1][1] <= SPREAD
    assert found.meant(unit([0, 1, 0]))[0] == []  # below every floor: means nothing of the station's


def test_the_values_closest_to_a_query_are_offered_whether_or_not_it_means_them():
    values = (Value("tags", "jazz", "jazz"), Value("tags", "gospel", "gospel"))
    found = Meanings(values, unit([1, 0], [0, 1]), np.array([0.99, 0.99], dtype=np.float32))
    assert [v.label for v, _ in found.closest(unit([0.2, 1])[0], n=1)] == ["gospel"]


def test_the_background_is_the_same_words_in_every_process_and_at_most_as_many_as_asked():
    said = ["Please play some Maskandi!", "maskandi again", "Load shedding in Umlazi", ""]
    words = background_words(said, at_most=3)
    assert words == background_words(list(reversed(said)), at_most=3) and len(words) == 3
    assert all(w == w.casefold() and len(w) >= 3 for w in words)


def test_a_stations_values_are_its_tags_interests_not_also_tags_and_shows():
    vocab = build_vocabulary(1, "Africa/Johannesburg", {"tags": ["rnb_soul", "gospel"],
                                                        "inferred_interests": ["Gospel", "cooking"]},
                             {4: "Jazz on Sunday"}, {})
    found = meaning.station_values(vocab)
    assert [(v.field, v.phrase) for v in found] == [
        ("tags", "gospel"), ("tags", "rnb soul"), ("inferred_interests", "cooking"), ("timeslot_id", "Jazz on Sunday")]
