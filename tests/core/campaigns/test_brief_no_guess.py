"""Briefs never guess silently (issue 64): what the reader is not sure of is a question with its readings, or left
unread with its reason. Budgets, dates, greetings, generations, goals, destinations and tastes the station lacks."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.campaigns.brief import read
from core.campaigns.brief_budget import find_goal, read_budget
from tests.core.campaigns.conftest import demo_vocabulary

ON = datetime(2026, 12, 1, 10, tzinfo=UTC)


@pytest.fixture(scope="module")
def reading():
    vocab = demo_vocabulary()
    return lambda brief, now=ON: read(vocab, brief, now)


@pytest.mark.parametrize("brief, amount", [("R5,000.", 5000), ("R30k, awareness", 30000), ("ZAR 250k", 250000),
                                           ("We have R60 000 for the campaign", 60000), ("R2,5 mil", 2500000),
                                           ("R1.2m all in", 1200000), ("R25k per week x 4 weeks", 100000),
                                           ("R10k a month for three months", 30000)])
def test_an_amount_standing_alone_is_the_budget(brief, amount):
    assert read_budget(brief) == ({"amount": amount, "currency": "ZAR", "words": read_budget(brief)[0]["words"]}, [])


@pytest.mark.parametrize("brief", ["win R5000", "tickets R150 at the door", "a R100 000 cash giveaway",
                                   "vouchers worth R500", "entry costs R50"])
def test_a_prize_or_a_price_is_no_budget(brief):
    assert read_budget(brief) == (None, [])


@pytest.mark.parametrize("brief", ["Budget R30-40k", "R30 000 to R40 000", "between R30k and R40k"])
def test_a_range_is_a_question_with_its_bounds(brief):
    budget, asked = read_budget(brief)
    assert budget is None and [r["amount"] for r in asked[0]["readings"]] == [40000, 30000]
    assert asked[0]["field"] == "budget" and asked[0]["readings"][0]["words"] == "up to R40 000"


def test_an_amount_per_period_without_its_count_and_two_amounts_are_questions():
    assert read_budget("R25k per week")[1][0]["readings"] == []
    assert read_budget("R25k per week x 4 months")[0] is None  # weeks counted in months: not multiplied
    assert [r["amount"] for r in read_budget("R5000 or R8000")[1][0]["readings"]] == [5000, 8000]
    assert read_budget("R5000. R5000 again")[0]["amount"] == 5000  # the same amount twice is one


def test_the_goal_named_after_its_word_wins_and_a_price_names_none():
    assert find_goal("Goal: sales. Tickets R150 at the door")["value"] == "sales"
    assert find_goal("Drive sales, tickets R150")["value"] == "sales"
    assert find_goal("R50k budget, sell tickets")["value"] == "attendance"  # the most specific without a cue


def test_a_window_partly_past_asks_from_today_or_as_written(reading):
    answer = reading("1 November 2026 to 31 January 2027")
    assert answer["dates"] is None
    assert [(r["start"], r["end"]) for r in answer["questions"][0]["readings"]] == [
        ("2026-12-01", "2027-01-31"), ("2026-11-01", "2027-01-31")]
    assert reading("1 December 2026 to 31 January 2027")["dates"]["start"] == "2026-12-01"  # today is no past


@pytest.mark.parametrize("brief, start, end", [("ASAP till end of Jan", "2026-12-01", "2027-01-31"),
                                               ("until 15 January", "2026-12-01", "2027-01-15"),
                                               ("Starting 5 Jan, till 20 Jan", "2027-01-05", "2027-01-20"),
                                               ("the Dec hols, 16 Dec to 10 Jan", "2026-12-16", "2027-01-10")])
def test_an_end_alone_runs_from_today_and_explicit_dates_win_over_a_vague_period(reading, brief, start, end):
    assert (reading(brief)["dates"]["start"], reading(brief)["dates"]["end"]) == (start, end)


@pytest.mark.parametrize("brief", ["payday weekend in Jan", "the long weekend", "mid-Jan for about two weeks",
                                   "over the festive season", "end of February", "school holidays"])
def test_a_vague_period_is_a_question_not_a_month(reading, brief):
    answer = reading(brief)
    assert answer["dates"] is None and answer["questions"][0]["field"] == "dates"


def test_this_weekend_and_a_bare_month_after_through_are_not_vague_but_the_latter_is_asked(reading):
    assert reading("this weekend")["dates"]["start"] == "2026-12-05"
    asked = reading("the expo runs 26-28 Feb; campaign through February")
    assert asked["dates"] is None and {r["start"] for r in asked["questions"][0]["readings"]} == {
        "2027-02-01", "2026-12-01"}


def test_a_range_read_half_is_asked_whole_or_alone(reading):
    answer = reading("ka-11 kuya ku-24 December")
    assert answer["dates"] is None
    assert [(r["start"], r["end"]) for r in answer["questions"][0]["readings"]] == [
        ("2026-12-11", "2026-12-24"), ("2026-12-24", "2026-12-24")]
    assert reading("3 shows on 12 December")["dates"]["start"] == "2026-12-12"  # a count before a cued date


@pytest.mark.parametrize("brief", ["Hi guys, we want women in Durban.", "Good afternoon, women in Durban",
                                   "Morning all! Women in Durban", "Sawubona bafowethu,\nwomen in Durban"])
def test_a_greeting_is_no_audience(reading, brief):
    assert reading(brief)["filters"] == {"gender": ["female"], "location": ["Durban"]}


def test_a_daypart_that_begins_like_a_greeting_is_still_read(reading):
    assert reading("Morning drive listeners in Soweto")["filters"]["peak_time_of_day"] == ["breakfast"]
    assert reading("Hello\nMen in Durban")["filters"]["gender"] == ["male"]  # the next line is no addressee


def test_a_generation_is_its_birth_years_not_young(reading):
    assert reading("millennials in Durban", datetime(2026, 6, 1, tzinfo=UTC))["filters"]["age_group"] == [
        "25-34", "35-44"]


def test_a_place_the_audience_goes_to_is_no_criterion(reading):
    answer = reading("travellers from Joburg heading home to EC & Limpopo")
    assert "Johannesburg" in answer["filters"]["location"] and "Limpopo" not in answer["filters"]["location"]
    assert {u["words"] for u in answer["unmapped"]} >= {"EC", "Limpopo"}
    assert "Durban" in reading("listeners in Durban who want to travel")["filters"]["location"]


@pytest.mark.parametrize("taste", ["cricket", "rugby"])
def test_a_taste_the_station_lacks_is_not_its_neighbour(reading, taste):
    answer = reading(f"{taste} fans in Durban")
    assert "tags" not in answer["filters"] and "timeslot_id" not in answer["filters"]
    assert any(taste in u["words"] for u in answer["unmapped"])


def test_a_taste_the_station_holds_is_read():
    vocab = demo_vocabulary(tags=["cricket", "soccer"])
    assert read(vocab, "cricket fans", ON)["filters"]["tags"] == ["cricket"]
