"""Whether a plan's audience can carry its budget (core.campaigns.reach), on figures built in memory: a thin reach is
said with what one listener reached costs, and with how to widen it."""
from __future__ import annotations

from core.campaigns.reach import CARRIED, carried, money

WIDENING = [{"field": "age_group", "value": ["18-24"], "size": 900, "reachable": 310},
            {"field": "location", "value": ["Durban"], "size": 60, "reachable": 20},
            {"field": "gender", "value": ["female"], "size": 8, "reachable": 6}]


def audience(reachable: int) -> dict:
    return {"size": reachable + 2, "reachable": reachable, "widening": WIDENING}


def test_six_listeners_for_r20_000_is_too_thin_and_says_what_each_costs():
    found = carried({"amount": 20_000, "currency": "ZAR"}, audience(6), {"days_left": 11})
    assert found["per_listener"] == 3333.33 and found["carries"] == 6 * CARRIED["ZAR"]
    assert found["words"] == ("This audience is too thin for its budget: R20,000 over 6 listeners reached is "
                              "R3,333 per listener reached, where a plan carries at most R50 each")


def test_a_thin_plan_proposes_the_filters_whose_removal_reaches_more_listeners_most_first():
    found = carried({"amount": 20_000, "currency": "ZAR"}, audience(6), {"days_left": 11})
    assert [(w["field"], w["reachable"], w["per_listener"]) for w in found["widen"]] == [
        ("age_group", 310, 64.52), ("location", 20, 1000.0)]  # dropping gender reaches nobody more
    assert found["proposal"] == "To widen it, drop or widen one of the filters below or spend about R300"


def test_a_short_run_left_is_proposed_longer():
    found = carried({"amount": 20_000, "currency": "ZAR"}, audience(6), {"days_left": 3})
    assert "run longer than the 3 days left" in found["proposal"]


def test_nobody_reachable_cannot_carry_any_budget():
    found = carried({"amount": 500, "currency": "ZAR"}, {"size": 4, "reachable": 0, "widening": []}, None)
    assert found["per_listener"] is None and "none of its listeners can be messaged directly" in found["words"]


def test_an_audience_that_carries_its_budget_gets_no_warning():
    assert carried({"amount": 20_000, "currency": "ZAR"}, audience(400), None) is None  # R50 each
    assert carried(None, audience(6), None) is None


def test_money_is_written_as_people_write_it():
    assert (money(20_000, "ZAR"), money(48.75, "ZAR"), money(3, "USD"), money(40, "CHF")) == (
        "R20,000", "R48.75", "$3", "CHF 40")
