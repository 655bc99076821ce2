"""A brief's dates and budget in its plan: the run as days, the airings of the audience's shows inside it, and the
budget spread over them by the station's rate card (or what the plan would need without one). In memory: the station
and its shows are given, not stored, but for one test of a plan reading the stored shows, on the database."""
from __future__ import annotations

from datetime import date

import pytest

from core.campaigns.schedule import schedule as planned
from core.stations.models import Company, Show

AUDIENCE = {"reachable": 400, "shows": [{"value": "6", "label": "The Drive", "count": 85},
                                        {"value": "9", "label": "Weekend Gospel", "count": 40}]}
RUN = {"start": "2026-11-20", "end": "2026-11-30", "words": "20-30 November"}  # Fri 20 .. Mon 30: 7 weekdays
BEFORE = date(2026, 11, 19)  # the plan is made the day before the run


SHOWS = [Show(company_id=1, timeslot_id=6, title="The Drive", days=[1, 2, 3, 4, 5], start="15:00", end="18:00"),
         Show(company_id=1, timeslot_id=9, title="Weekend Gospel", days=[6, 7], start="06:00", end="09:00"),
         Show(company_id=2, timeslot_id=6, title="Another station's drive", days=[1, 2, 3, 4, 5, 6, 7],
              start="15:00", end="18:00")]


@pytest.fixture
def station() -> Company:
    """Jozi FM, not stored; its shows are SHOWS (with another station's show of the same timeslot)."""
    return Company(company_id=1, name="Jozi FM")


def schedule(company: Company, dates, budget, audience, today):
    """The plan's schedule from the shows in memory."""
    return planned(company, dates, budget, audience, today, shows=SHOWS)


def test_the_run_is_a_range_of_days_with_its_weekend_counted(station):
    dates = schedule(station, RUN, None, AUDIENCE, BEFORE)["dates"]
    assert (dates["start"], dates["end"], dates["days"], dates["weekend_days"]) == ("2026-11-20", "2026-11-30", 11, 4)
    assert dates["words"] == "11 days: 7 weekdays and 4 weekend days"


def test_the_audience_s_shows_are_counted_by_their_airings_within_the_run(station):
    airings = schedule(station, RUN, None, AUDIENCE, BEFORE)["airings"]
    assert [(a["title"], a["airings"], a["when"]) for a in airings] == [
        ("The Drive", 7, "Mon, Tue, Wed, Thu and Fri 15:00-18:00"), ("Weekend Gospel", 4, "Sat and Sun 06:00-09:00")]


def test_without_a_rate_card_the_budget_is_read_and_the_plan_says_what_it_needs(station):
    budget = schedule(station, RUN, {"amount": 50_000, "currency": "ZAR"}, AUDIENCE, BEFORE)["budget"]
    assert budget["spots"] == [] and budget["spent"] == 0 and "no price per spot" in budget["words"]


def test_a_rate_card_spreads_the_budget_over_the_airings_best_show_first_within_the_budget(station):
    station.rate_card = {"show:6": 4000, "show:9": 1500}
    budget = schedule(station, RUN, {"amount": 20_000, "currency": "ZAR"}, AUDIENCE, BEFORE)["budget"]
    assert [(r["title"], r["spots"]) for r in budget["spots"]] == [("The Drive", 3), ("Weekend Gospel", 5)]
    assert budget["spent"] == 19_500 <= 20_000 and budget["per_reachable"] == 48.75  # 500 left buys no spot


def test_spots_never_outnumber_the_airings_a_run_holds(station):
    station.rate_card = {"show:9": 10}
    budget = schedule(station, {"start": "2026-11-21", "end": "2026-11-21"}, {"amount": 1_000_000, "currency": "ZAR"},
                      AUDIENCE, BEFORE)["budget"]
    assert budget["spots"][0]["spots"] == 2  # one Saturday airing, two spots in it


def test_no_dates_and_no_budget_make_nothing(station):
    assert schedule(station, None, None, AUDIENCE, BEFORE) == {"dates": None, "airings": [], "holidays": None,
                                                               "budget": None, "reach": None}


def test_a_run_that_has_started_is_still_the_whole_run_and_airs_only_on_the_days_left(station):
    planned = schedule(station, RUN, None, AUDIENCE, date(2026, 11, 28))  # Saturday: 28, 29 and 30 are left
    dates = planned["dates"]
    assert (dates["start"], dates["end"], dates["state"], dates["days"], dates["days_left"]) == (
        "2026-11-20", "2026-11-30", "started", 11, 3)
    assert dates["words"] == ("it started on 20 Nov 2026, so 3 of its 11 days are left to air (28 Nov 2026 to "
                              "30 Nov 2026): 1 weekday and 2 weekend days")
    assert [(a["title"], a["airings"]) for a in planned["airings"]] == [("The Drive", 1), ("Weekend Gospel", 2)]


def test_a_run_that_has_ended_is_said_to_have_ended_and_nothing_of_it_airs(station):
    planned = schedule(station, RUN, {"amount": 20_000, "currency": "ZAR"}, AUDIENCE, date(2026, 12, 5))
    assert planned["dates"]["state"] == "ended" and planned["dates"]["days_left"] == 0
    assert planned["dates"]["words"].startswith("it ended on 30 Nov 2026, before this plan was made")
    assert planned["airings"] == [] and "the run has ended" in planned["budget"]["words"]


def test_the_budget_is_said_in_a_producer_s_words_never_a_setting_s_name(station):
    words = schedule(station, RUN, {"amount": 20_000, "currency": "ZAR"}, AUDIENCE, BEFORE)["budget"]["words"]
    assert words.startswith("Budget of R20,000 read") and "rate card" in words
    assert "Company." not in words and "rate_card" not in words and not words.endswith(".")


@pytest.mark.db
def test_a_plan_counts_the_airings_of_the_station_s_stored_shows_and_no_other_station_s(app):
    company = Company(company_id=1, name="Jozi FM").save()
    for show in SHOWS:
        Show(**show.to_mongo().to_dict()).save()
    airings = planned(company, RUN, None, AUDIENCE, BEFORE)["airings"]
    assert [(a["title"], a["airings"]) for a in airings] == [("The Drive", 7), ("Weekend Gospel", 4)]


FESTIVE = {"start": "2026-12-20", "end": "2027-01-05", "words": "20 December to 5 January"}


def test_a_run_over_the_festive_season_names_its_public_holidays_and_the_airings_on_them(station):
    planned = schedule(station, FESTIVE, None, AUDIENCE, date(2026, 12, 1))
    holidays = planned["holidays"]
    assert [d["date"] for d in holidays["days"]] == ["2026-12-25", "2026-12-26", "2027-01-01"]
    assert "25 Dec (Christmas Day)" in holidays["words"] and "1 Jan (New Year's Day)" in holidays["words"]
    drive, gospel = planned["airings"]
    assert (drive["on_holidays"], gospel["on_holidays"]) == (2, 1)  # Fri 25 Dec and Fri 1 Jan; Sat 26 Dec
    assert holidays["airings"] == 3
    assert "3 airings fall on them (2 of The Drive and 1 of Weekend Gospel)" in holidays["words"]


def test_a_run_that_stops_the_day_before_a_holiday_names_none_and_one_that_reaches_it_names_it(station):
    before = {"start": "2026-12-20", "end": "2026-12-24"}
    assert schedule(station, before, None, AUDIENCE, date(2026, 12, 1))["holidays"] is None
    reaching = schedule(station, {**before, "end": "2026-12-25"}, None, AUDIENCE, date(2026, 12, 1))["holidays"]
    assert [d["name"] for d in reaching["days"]] == ["Christmas Day"]


def test_holidays_already_past_in_a_run_under_way_are_not_counted(station):
    planned = schedule(station, FESTIVE, None, AUDIENCE, date(2026, 12, 27))
    assert [d["date"] for d in planned["holidays"]["days"]] == ["2027-01-01"]


def test_the_holidays_are_the_station_s_country_s(station):
    british = Company(company_id=1, name="London FM", country="GB")
    names = [d["name"] for d in schedule(british, FESTIVE, None, AUDIENCE, date(2026, 12, 1))["holidays"]["days"]]
    assert "Boxing Day" in names and "Day of Goodwill" not in names


def test_a_holiday_none_of_the_shows_airs_on_is_still_named(station):
    gospel_only = {**AUDIENCE, "shows": [AUDIENCE["shows"][1]]}
    holidays = schedule(station, {"start": "2026-12-25", "end": "2026-12-25"}, None, gospel_only,
                        date(2026, 12, 1))["holidays"]
    assert holidays["airings"] == 0 and "none of the audience's shows airs on it" in holidays["words"]


def test_a_run_of_weekends_counts_no_weekday_between_them(station):
    weekends = {"start": "2026-12-05", "end": "2026-12-13", "weekdays": [6, 7]}  # Sat 5 .. Sun 13 December
    planned = schedule(station, weekends, None, AUDIENCE, date(2026, 12, 1))
    assert (planned["dates"]["days"], planned["dates"]["weekend_days"]) == (4, 4)
    assert "weekends only" in planned["dates"]["words"]
    drive, gospel = planned["airings"]
    assert (drive["airings"], gospel["airings"]) == (0, 4)
    every_day = schedule(station, {**weekends, "weekdays": None}, None, AUDIENCE, date(2026, 12, 1))
    assert every_day["airings"][0]["airings"] == 5
