"""Dates a brief gives that read two ways, cannot be read, or lie wholly in the past are questions with their readings,
never a window chosen in silence; runs of weekends, weeks and months count every one of them. Read on the demo
station's vocabulary in memory, with the clock pinned."""
from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from core.campaigns.brief import read
from core.campaigns.brief_questions import given_dates, refused_past
from core.errors import ValidationFailed
from tests.core.campaigns.conftest import demo_vocabulary

TUESDAY = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # Tuesday 1 December 2026, 11:00 in Johannesburg
SATURDAY = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def reading():
    vocab = demo_vocabulary()
    return lambda brief, now=TUESDAY: read(vocab, brief, now)


def runs(question: dict) -> list[tuple[str, str]]:
    return [(r["start"], r["end"]) for r in question["readings"]]


@pytest.mark.parametrize(("brief", "words"), [("Promote it 5 to 2 November", "5 to 2 November"),
                                              ("on air from 28 to 3 March", "28 to 3 March"),
                                              ("Runs March 28-3", "March 28-3")])
def test_a_run_that_ends_before_it_starts_within_one_month_is_a_question_with_two_readings(reading, brief, words):
    answer = reading(brief)
    assert answer["dates"] is None
    (asked,) = answer["questions"]
    assert asked["field"] == "dates" and asked["words"] == words and "ends before it starts" in asked["question"]
    assert len(asked["readings"]) == 2
    swapped, earlier = runs(asked)
    assert swapped[0][5:] < swapped[1][5:] and earlier[0][5:7] != earlier[1][5:7]  # days swapped; month before
    assert "dates" not in {c["field"] for c in answer["criteria"]}


def test_the_readings_of_a_backwards_run_lie_ahead(reading):
    (asked,) = reading("5 to 2 November")["questions"]
    assert runs(asked) == [("2027-11-02", "2027-11-05"), ("2027-10-05", "2027-11-02")]


@pytest.mark.parametrize(("brief", "start", "end"), [("from 31/12 to 01/02", "2026-12-31", "2027-02-01"),
                                                     ("runs 12/31 - 02/01", "2026-12-31", "2027-02-01"),
                                                     ("dates: 13/01 to 20/01", "2027-01-13", "2027-01-20"),
                                                     ("on 2026-12-05", "2026-12-05", "2026-12-05"),
                                                     ("on 25/12/2026", "2026-12-25", "2026-12-25")])
def test_dates_in_figures_that_read_one_way_are_read(reading, brief, start, end):
    answer = reading(brief)
    assert (answer["dates"]["start"], answer["dates"]["end"]) == (start, end) and answer["questions"] == []


@pytest.mark.parametrize(("brief", "expected"), [
    ("from 01/02 to 03/02", [("2027-02-01", "2027-02-03"), ("2027-01-02", "2027-03-02")]),
    ("on 05/12", [("2026-12-05", "2026-12-05"), ("2027-05-12", "2027-05-12")])])
def test_dates_in_figures_that_read_both_ways_are_a_question_with_both(reading, brief, expected):
    answer = reading(brief)
    assert answer["dates"] is None and runs(answer["questions"][0]) == expected
    assert "day then a month, or as a month then a day" in answer["questions"][0]["question"]


@pytest.mark.parametrize("brief", ["Support 24/7, a 50/50 draw, women 25-34, LSM 8-10", "our 21st birthday bash"])
def test_figures_that_are_no_date_ask_nothing(reading, brief):
    answer = reading(brief)
    assert answer["dates"] is None and answer["questions"] == []


@pytest.mark.parametrize("brief", ["from the 31st to the 3rd", "on 32/13"])
def test_words_that_plainly_are_dates_but_cannot_be_read_are_a_question_without_readings(reading, brief):
    answer = reading(brief)
    assert answer["dates"] is None
    (asked,) = answer["questions"]
    assert asked["readings"] == [] and "day and a month" in asked["question"]
    assert answer["unused"] == []  # the words are asked about, not dropped


def test_a_run_that_ended_yesterday_is_refused_and_one_that_ends_today_is_asked_from_today_or_as_written(reading):
    ended = reading("runs 20-30 November 2026", datetime(2026, 12, 1, 9, tzinfo=UTC))
    assert ended["dates"] is None and "wholly in the past" in ended["questions"][0]["question"]
    assert "today is 1 Dec 2026" in ended["questions"][0]["question"]
    ending = reading("runs 20-30 November 2026", datetime(2026, 11, 30, 9, tzinfo=UTC))
    assert ending["dates"] is None and "started before today" in ending["questions"][0]["question"]
    assert [(r["start"], r["end"]) for r in ending["questions"][0]["readings"]] == [
        ("2026-11-30", "2026-11-30"), ("2026-11-20", "2026-11-30")]


def test_a_run_that_starts_today_is_kept_and_one_that_started_yesterday_is_asked(reading):
    today = reading("runs 30 November to 5 December 2026", datetime(2026, 11, 30, 9, tzinfo=UTC))
    assert today["dates"]["start"] == "2026-11-30" and today["questions"] == []
    started = reading("runs 29 November to 5 December 2026", datetime(2026, 11, 30, 9, tzinfo=UTC))
    assert started["dates"] is None and len(started["questions"][0]["readings"]) == 2


def test_the_past_is_the_station_s_today_not_utc_s():
    late = datetime(2026, 11, 30, 22, 30, tzinfo=UTC)  # 00:30 on 1 December in Johannesburg
    assert read(demo_vocabulary(), "runs 20-30 November 2026", late)["dates"] is None


def test_any_provider_s_past_dates_are_refused_and_its_questions_readings_moved_ahead():
    today = date(2026, 12, 1)
    dates, asked = refused_past({"start": "2026-10-01", "end": "2026-10-05", "words": "1-5 October"}, [], today)
    assert dates is None and runs(asked[0]) == [("2027-10-01", "2027-10-05")]
    kept, none = refused_past({"start": "2026-12-01", "end": "2026-12-01", "words": "today"}, [], today)
    assert kept["start"] == "2026-12-01" and none == []


@pytest.mark.parametrize(("brief", "start", "end"), [
    ("this weekend and next", "2026-12-05", "2026-12-13"),
    ("over the next two weekends", "2026-12-05", "2026-12-13"),
    ("the coming 3 weekends", "2026-12-05", "2026-12-20"),
    ("this week and next", "2026-12-01", "2026-12-13"),
    ("this and next month", "2026-12-01", "2027-01-31"),
    ("next week", "2026-12-07", "2026-12-13"),
    ("the next two weeks", "2026-12-01", "2026-12-15"),
    ("over Easter", "2027-03-26", "2027-03-29")])
def test_relative_runs_count_every_unit_from_the_station_s_today(reading, brief, start, end):
    dates = reading(brief)["dates"]
    assert (dates["start"], dates["end"]) == (start, end)


def test_a_weekend_under_way_is_the_first_of_the_run(reading):
    dates = reading("this weekend and next", datetime(2026, 11, 29, 8, tzinfo=UTC))["dates"]  # a Sunday
    assert (dates["start"], dates["end"]) == ("2026-11-29", "2026-12-06")


def test_next_weekend_said_early_in_the_week_is_the_coming_one_or_the_one_after(reading):
    (asked,) = reading("a braai next weekend")["questions"]
    assert runs(asked) == [("2026-12-05", "2026-12-06"), ("2026-12-12", "2026-12-13")]
    said_on_saturday = reading("a braai next weekend", SATURDAY)
    assert said_on_saturday["questions"] == [] and said_on_saturday["dates"]["start"] == "2026-12-05"


def test_dates_a_client_gives_are_refused_when_wholly_past_backwards_or_not_dates():
    today = date(2026, 12, 1)
    assert given_dates({"start": "2026-12-01", "end": "2026-12-03"}, today)["given"] is True
    for given, says in [({"start": "2026-11-20", "end": "2026-11-30"}, "wholly in the past"),
                        ({"start": "2026-12-09", "end": "2026-12-03"}, "after the last"),
                        ({"start": "soon", "end": "2026-12-03"}, "YYYY-MM-DD")]:
        with pytest.raises(ValidationFailed) as refused:
            given_dates(given, today)
        assert refused.value.items[0]["loc"] == ["body", "dates"] and says in refused.value.items[0]["msg"]


def test_a_run_of_weekends_is_on_air_at_the_weekends_alone_and_a_run_of_weeks_every_day(reading):
    assert reading("this weekend and next")["dates"]["weekdays"] == [6, 7]
    assert "weekdays" not in reading("this week and next")["dates"]
    assert "weekdays" not in reading("this weekend")["dates"]  # its two days are all of it
