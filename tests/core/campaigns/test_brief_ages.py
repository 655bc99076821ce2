"""Age words mean one thing wherever they are read: a brief (strictly), a search query or a theme (leniently) and the
openai provider's instructions give "young" and "youth" the station's groups under 35; a number the brief gives
rules over the word it refines."""
from __future__ import annotations

import pytest

from core.campaigns.brief import read
from core.campaigns.brief_openai import TASK
from core.search.understanding import read_criteria
from tests.core.campaigns.conftest import demo_vocabulary

UNDER_35 = ["18-24", "25-34"]


@pytest.fixture(scope="module")
def vocab():
    return demo_vocabulary()


def ages_in_search(vocab, text: str) -> list:
    items, _ = read_criteria(vocab, text, lenient=True)
    return [v for item in items if item["field"] == "age_group" for v in item["values"]]


@pytest.mark.parametrize("words", ["young people", "Young people in Durban", "young listeners", "youth",
                                   "young adults", "younger listeners", "the youth of Soweto"])
def test_young_is_under_35_in_a_brief_and_in_search_alike(vocab, words):
    assert read(vocab, f"Reach {words}")["filters"]["age_group"] == UNDER_35
    assert sorted(set(ages_in_search(vocab, words))) == UNDER_35


@pytest.mark.parametrize("words", ["teenagers", "school leavers"])
def test_teens_are_the_youngest_group_alone(vocab, words):
    assert read(vocab, f"Reach {words}")["filters"]["age_group"] == ["18-24"]


@pytest.mark.parametrize(("brief", "groups"), [("Young drivers' insurance: listeners 18-24 in Pretoria", ["18-24"]),
                                               ("youth aged 25 to 34", ["25-34"]),
                                               ("young people, and women 45-54", ["18-24", "25-34", "45-54"])])
def test_ages_given_by_number_rule_over_the_age_word_they_refine(vocab, brief, groups):
    assert read(vocab, brief)["filters"]["age_group"] == groups


def test_the_openai_provider_is_told_the_same_meaning():
    assert '"Young" and "youth" mean the age groups 18-24 and 25-34' in TASK
