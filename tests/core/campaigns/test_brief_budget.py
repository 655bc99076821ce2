"""A budget is one amount however it is written (with or without the rand, in figures, with "k" or in words), and an
amount that is not the budget (a prize, a price, a count of listeners or weeks) never becomes it."""
from __future__ import annotations

import pytest

from core.campaigns.brief_budget import find_budget


@pytest.mark.parametrize("brief", ["budget 20k", "Budget R20 000.", "budget: R20,000", "a budget of 20 thousand",
                                   "budget R 20k", "Budget ZAR 20000", "our budget is 20 000 for the campaign",
                                   "a 20k budget", "We spend 20 thousand rand on airtime", "Budget: 20000."])
def test_every_way_of_writing_twenty_thousand_is_one_budget(brief):
    assert find_budget(brief)["amount"] == 20000
    assert find_budget(brief)["currency"] == "ZAR"


def test_a_prize_beside_a_bare_budget_is_not_the_budget():
    assert find_budget("Win R5000 in our competition, budget 20k")["amount"] == 20000
    assert find_budget("R10 000 prize, airtime budget 20 thousand")["amount"] == 20000
    assert find_budget("Win R5000, budget 20k")["amount"] == 20000
    assert find_budget("R30 000 budget, R5 000 prize")["amount"] == 30000


@pytest.mark.parametrize("brief", ["a budget for 3 weeks", "budget for 300 spots", "reach 20k listeners, budget TBC",
                                   "Tickets cost 150. Budget to follow", "budget of 20"])
def test_a_figure_that_counts_something_else_is_no_budget(brief):
    assert find_budget(brief) is None


def test_a_bare_amount_far_from_the_budget_words_is_no_budget():
    assert find_budget("We expect 20k at the stadium and will discuss the budget later") is None
