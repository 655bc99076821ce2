"""A search query understood (core.search.queries.understand) on a station built in memory: the asks it makes of a
listener (the criteria of one stretch of words are alternatives, the asks of different stretches must all hold,
exclusions too), a channel asked for as any use of it, the free text left without its framing words, and the words a
producer wants read as text."""
from __future__ import annotations

import json

import pytest

from core.search.queries import Understood, understand
from core.search.vocabulary import build_vocabulary
from tests.memory import event, snapshot_of

TZ = "Africa/Johannesburg"
SMS, WHATSAPP = 1, 2


def make_person(originator: str, events: list[dict] | None = None, **declared) -> dict:
    """A listener document with its interactions (one SMS song request unless told)."""
    return {"originator": originator, "events": [event(2)] if events is None else events, **declared}


def inferred(*interests: str) -> dict:
    return {"inferred_interests": {"value": list(interests), "confidence": 0.9}}


PEOPLE = [
    # mostly on SMS, but entered one competition on WhatsApp
    make_person("thandi", [event(1, channel=WHATSAPP, campaign="competition"), event(2), event(3), event(4)],
                tags=["gospel"], location="Durban", language="isiZulu"),
    make_person("sipho", tags=["gospel"], location="Soweto", language="English"),
    make_person("lerato", [event(1, channel=WHATSAPP, campaign="competition")] * 3, tags=["jazz"],
                location="Durban"),
    make_person("cook", tags=["food"], location="Soweto"),
    make_person("chef", location="Soweto", inferred=inferred("cooking")),
    make_person("quiet", [event(5, channel=WHATSAPP)]),
]


@pytest.fixture(scope="module")
def station():
    snap = snapshot_of(PEOPLE)
    return snap, build_vocabulary(1, TZ, snap.vocab, {15: "Gospel Sunday"}, {SMS: "SMS", WHATSAPP: "WhatsApp"})


def asked(station, query: str, as_text: tuple[str, ...] = ()) -> tuple[Understood, set[str]]:
    """How the query was understood, and the listeners who meet every ask of it."""
    snap, vocab = station
    understood = understand(vocab, query, as_text)
    return understood, set(snap.originators[understood.mask(snap, TZ)].tolist())


def criteria(understood: Understood) -> list[tuple]:
    return [(c["words"], c["field"], c["values"]) for c in understood.as_dict()["criteria"]]


def test_asks_of_different_words_must_all_hold(station):
    assert asked(station, "gospel")[1] == {"thandi", "sipho"}
    assert asked(station, "in Durban")[1] == {"thandi", "lerato"}
    assert asked(station, "gospel lovers in Durban")[1] == {"thandi"}


def test_the_things_one_stretch_of_words_names_are_alternatives(station):
    understood, who = asked(station, "cooking")
    assert len(understood.asks) == 1
    assert set(understood.asks[0].criteria) == {("tags", ("food",)), ("inferred_interests", ("cooking",))}
    assert who == {"cook", "chef"}


def test_what_a_query_excludes_must_not_hold(station):
    understood, who = asked(station, "gospel lovers not in Durban")
    assert criteria(understood) == [("gospel", "tags", ["gospel"]),
                                    ("not in Durban", "exclude_location", ["Durban"])]
    assert who == {"sipho"}


def test_every_exclusion_of_a_negated_list_must_hold(station):
    assert asked(station, "not in Durban or Soweto")[1] == {"quiet"}


def test_a_channel_asked_for_is_any_use_of_it_not_only_the_main_one(station):
    understood, who = asked(station, "on WhatsApp")
    assert criteria(understood) == [("WhatsApp", "has_channel", [WHATSAPP])]
    assert who == {"thandi", "lerato", "quiet"}


def test_a_query_of_several_asks_finds_exactly_who_meets_them_all(station):
    understood, who = asked(station, "gospel lovers who enter competitions on WhatsApp")
    assert [field for _, field, _ in criteria(understood)] == ["tags", "campaign_type", "has_channel"]
    assert understood.free_text == ""
    assert who == {"thandi"}


@pytest.mark.parametrize("query", ["isiZulu speakers", "gospel lovers who enter competitions on WhatsApp",
                                   "listeners in Durban", "people aged 18-24"])
def test_a_query_whose_words_are_all_understood_has_no_free_text_and_ranks_by_the_whole_query(station, query):
    understood, _ = asked(station, query)
    assert understood.asks and understood.free_text == ""
    assert understood.ranked_text == query


def test_free_text_is_what_is_left_without_the_words_that_only_frame_a_query(station):
    understood, who = asked(station, "gospel lovers who talk about load shedding")
    assert criteria(understood) == [("gospel", "tags", ["gospel"])]
    assert understood.free_text == "talk load shedding"
    assert who == {"thandi", "sipho"}


def test_free_text_is_ranked_by_the_rest_of_the_query_with_its_framing_words(station):
    understood, _ = asked(station, "gospel lovers who talk about load shedding")
    assert understood.ranked_text == "lovers who talk about load shedding"


def test_a_query_of_no_known_words_is_all_free_text_and_asks_nothing(station):
    understood, who = asked(station, "listeners who talk about load shedding")
    assert understood.asks == () and understood.free_text == "talk load shedding"
    assert who == {p["originator"] for p in PEOPLE}


def test_words_kept_as_text_are_free_text_not_an_ask(station):
    understood, who = asked(station, "gospel lovers in Durban", as_text=("Durban",))
    assert criteria(understood) == [("gospel", "tags", ["gospel"])]
    assert understood.free_text == "Durban"
    assert who == {"thandi", "sipho"}


def test_words_kept_as_text_are_compared_whatever_their_case_and_spacing(station):
    understood, _ = asked(station, "gospel lovers in Durban", as_text=(" durban ", "GOSPEL"))
    assert understood.asks == () and understood.free_text == "gospel Durban"


def test_words_kept_as_text_that_the_query_does_not_hold_change_nothing(station):
    assert asked(station, "gospel lovers in Durban", as_text=("Soweto",))[0] == asked(
        station, "gospel lovers in Durban")[0]


def test_a_negation_no_filter_can_say_is_unmapped_with_its_reason_and_is_no_free_text(station):
    understood, _ = asked(station, "gospel fans we cannot contact")
    assert criteria(understood) == [("gospel", "tags", ["gospel"])]
    assert [u["words"] for u in understood.unmapped] == ["we cannot contact"]
    assert understood.unmapped[0]["reason"] and understood.free_text == ""


def test_how_a_query_was_understood_is_answered_as_criteria_free_text_and_unmapped(station):
    answer = asked(station, "gospel lovers in Durban who talk about load shedding")[0].as_dict()
    assert set(answer) == {"criteria", "bound", "free_text", "unmapped"} and answer["bound"] == []
    assert all({"words", "field", "values"} <= set(c) for c in answer["criteria"])
    assert [(c["words"], c["field"], c["values"]) for c in answer["criteria"]] == [
        ("gospel", "tags", ["gospel"]), ("Durban", "location", ["Durban"])]
    assert (answer["free_text"], answer["unmapped"]) == ("talk load shedding", [])
    assert json.loads(json.dumps(answer)) == answer


def test_the_criteria_of_one_stretch_are_answered_with_its_words_each(station):
    answer = asked(station, "cooking")[0].as_dict()
    assert [(c["words"], c["field"]) for c in answer["criteria"]] == [("cooking", "tags"),
                                                                      ("cooking", "inferred_interests")]


def test_a_listener_who_used_a_channel_never_meets_its_negation(station):
    assert "thandi" in asked(station, "on WhatsApp")[1]
    assert "thandi" not in asked(station, "not on WhatsApp")[1]


def test_values_of_one_filter_joined_by_or_are_alternatives(station):
    assert asked(station, "isiZulu or English speakers")[1] == {"thandi", "sipho"}
