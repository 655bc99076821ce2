"""The blind set's judge (bench.briefs_blind_judge): what counts as right, asked, missed and wrong for a field."""
from __future__ import annotations

from bench.briefs_blind_judge import Judge, age_groups

SHOWS = {8: "Gqom Fridays", 12: "Sports Saturday"}


def answer(filters=None, **facts) -> dict:
    return {"filters": filters or {}, "questions": [], "unmapped": [], "dates": None, "budget": None, "goal": None,
            **facts}


def test_a_range_of_years_is_every_age_group_it_touches():
    assert age_groups([25, 44]) == {"25-34", "35-44"}
    assert age_groups([25, 45]) == {"25-34", "35-44", "45-54"}
    assert age_groups([60, None]) == {"55-64", "65+"}


def test_ages_right_only_when_the_groups_are_those_of_the_years():
    judge = Judge(SHOWS)
    assert judge.field("age_years", [25, 44], answer({"age_group": ["25-34", "35-44"]}))[0] == "right"
    assert judge.field("age_years", [25, 44], answer({"age_group": ["25-34"]}))[0] == "missed"
    assert judge.field("age_years", [25, 44], answer({"age_group": ["18-24", "25-34"]}))[0] == "wrong"


def test_a_province_takes_its_cities_but_a_city_does_not_take_its_province():
    judge = Judge(SHOWS)
    assert judge.field("places", ["Gauteng"], answer({"location": ["Soweto", "Pretoria"]}))[0] == "right"
    assert judge.field("places", ["Durban"], answer({"location": ["KwaZulu-Natal", "Durban"]}))[0] == "wrong"


def test_a_place_refused_by_name_is_asked_and_one_dropped_without_a_word_is_missed():
    judge = Judge(SHOWS)
    refused = answer({"location": ["Soweto"]}, unmapped=[
        {"words": "Alex", "reason": "Alex is not a place this station's listeners give."}])
    assert judge.field("places", ["Soweto", "Alexandra"], refused)[0] == "asked_clear"
    other = answer({"location": ["Soweto"]}, unmapped=[
        {"words": "Jan", "reason": "Jan is not a place this station's listeners give."}])
    assert judge.field("places", ["Soweto", "Alexandra"], other)[0] == "missed"


def test_a_show_is_an_interest_by_its_title_or_genre():
    judge = Judge(SHOWS)
    assert judge.field("interests", ["gqom"], answer({"timeslot_id": [8]}))[0] == "right"
    assert judge.field("interests", ["cricket"], answer({"timeslot_id": [12]}))[0] == "wrong"


def test_dates_where_a_question_was_expected_are_right_only_when_asked():
    judge, expected = Judge(SHOWS), {"question": "which?", "readings": [{"starts": "2027-01-05", "ends": "2027-01-12"}]}
    asked = answer(questions=[{"field": "dates", "words": "05/01 - 12/01", "question": "?", "readings": []}])
    assert judge.field("dates", expected, asked)[0] == "right_ask"
    window = answer(dates={"start": "2027-01-05", "end": "2027-01-12", "words": "05/01 - 12/01"})
    assert judge.field("dates", expected, window)[0] == "wrong"
    assert judge.field("dates", expected, answer())[0] == "missed"


def test_a_clear_window_asked_about_is_asked_though_clear_and_also_accept_is_right():
    judge = Judge(SHOWS)
    expected = {"starts": "2026-12-14", "ends": "2026-12-20", "also_accept": [{"starts": "2026-12-14",
                                                                               "ends": "2026-12-18"}]}
    other = answer(dates={"start": "2026-12-14", "end": "2026-12-18", "words": "the week of the 14th"})
    assert judge.field("dates", expected, other)[0] == "right"
    asked = answer(questions=[{"field": "dates", "words": "14th", "question": "?", "readings": []}])
    assert judge.field("dates", expected, asked)[0] == "asked_clear"


def test_nothing_expected_is_right_when_nothing_is_read_and_wrong_when_something_is():
    judge = Judge(SHOWS)
    assert judge.field("gender", None, answer())[0] == "right"
    assert judge.field("gender", None, answer({"gender": ["male"]}))[0] == "wrong"
    assert judge.field("budget", None, answer(budget={"amount": 30, "currency": "ZAR", "words": "R30"}))[0] == "wrong"


def test_channels_are_judged_by_their_default_names():
    judge = Judge(SHOWS)
    assert judge.field("channels", ["whatsapp", "sms"], answer({"channel_type": [1, 2]}))[0] == "right"
    assert judge.field("channels", ["whatsapp"], answer({"channel_type": [6]}))[0] == "wrong"
