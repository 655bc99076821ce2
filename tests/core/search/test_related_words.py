"""Free words reach the station's vocabulary (core.search.words.RELATED through core.search.vocabulary): a taste named
in words the station does not hold as such ("football", "yanos", "kerkmusiek") names every tag, interest and show of
that taste it holds, in the five languages of the demo, and leaves no framing word behind as free text."""
from __future__ import annotations

import pytest

from core.search.queries import understand
from core.search.vocabulary import build_vocabulary

TZ = "Africa/Johannesburg"
SHOWS = {5: "Sport Zone", 6: "All That Jazz", 7: "Amapiano Nights", 8: "Gospel Sunday", 9: "Kasi Classics"}


def station(*tags: str):
    return build_vocabulary(1, TZ, {"tags": list(tags)}, SHOWS, {1: "SMS", 2: "WhatsApp"})


def read(vocab, query: str) -> tuple[list[tuple], str]:
    understood = understand(vocab, query)
    return [(c["field"], c["values"]) for c in understood.as_dict()["criteria"]], understood.free_text


@pytest.mark.parametrize("query", ["football supporters", "abalandeli be-bhola", "batho ba ratang bolo",
                                   "voetbal ondersteuners", "rugby fans"])
def test_football_reaches_a_sport_tag_and_the_sport_show(query):
    assert read(station("sport"), query) == ([("tags", ["sport"]), ("timeslot_id", [5])], "")


def test_a_station_with_a_soccer_tag_keeps_football_for_it():
    assert read(station("soccer", "sports"), "football supporters") == ([("tags", ["soccer"])], "")


def test_hip_hop_heads_reach_the_hiphop_tag_however_it_is_written():
    assert read(station("hip_hop"), "hip hop heads") == ([("tags", ["hip_hop"])], "")
    assert read(station("HipHop"), "rap fans")[0] == [("tags", ["HipHop"])]


def test_a_taste_s_informal_words_reach_its_tag_and_shows():
    assert read(station("amapiano"), "yanos lovers") == ([("tags", ["amapiano"]), ("timeslot_id", [7])], "")
    assert read(station("jazz_lovers"), "jazz fans") == ([("tags", ["jazz_lovers"]), ("timeslot_id", [6])], "")
    assert read(station(), "kerkmusiek liefhebbers") == ([("timeslot_id", [8])], "")
    assert read(station("kwaito"), "kasi music fans") == ([("tags", ["kwaito"]), ("timeslot_id", [9])], "")


def test_a_word_that_names_the_station_s_own_value_keeps_naming_it_alone():
    assert read(station("jazz"), "jazz fans") == ([("tags", ["jazz"])], "")
    assert read(station("jazz"), "batho ba ratang mmino wa jazz") == ([("tags", ["jazz"])], "")


def test_a_taste_the_station_does_not_hold_stays_free_text():
    assert read(build_vocabulary(1, TZ, {"tags": ["news"]}, {}, {1: "SMS"}), "hip hop heads") == ([], "hip hop")
