"""A brief's dates read as people write them, on 28 November 2026 (the clock pinned): a range that has started is
this year's, asked from today or as written (never taken whole in silence), a range from one day and month to
another is one run, and a run that has ended lately is refused (it is wholly in the past), with next year's as its
reading."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.campaigns.brief import read
from tests.core.campaigns.conftest import demo_vocabulary

WRITTEN_ON = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)  # a Saturday


@pytest.fixture(scope="module")
def reading():
    vocab = demo_vocabulary()
    return lambda brief: read(vocab, brief, WRITTEN_ON)


@pytest.mark.parametrize("brief", ["Promote our sale, runs 20-30 November", "runs 20 November to 30 November",
                                   "runs 20 Nov - 30 Nov", "on air from 20 to 30 November", "20 to 30 November",
                                   "November 20-30", "from the 20th to the 30th November"])
def test_a_range_that_has_started_is_this_year_s_asked_from_today_or_as_written(reading, brief):
    answer = reading(brief)
    assert answer["dates"] is None
    assert [(r["start"], r["end"]) for r in answer["questions"][0]["readings"]] == [
        ("2026-11-28", "2026-11-30"), ("2026-11-20", "2026-11-30")]
    assert not any(any(c.isdigit() for c in words) for words in answer["unused"])  # "20-30" is not left unused


def test_a_range_ahead_is_read_as_it_was(reading):
    assert reading("runs 1-14 December")["dates"] | {"words": None} == {
        "start": "2026-12-01", "end": "2026-12-14", "words": None}


def test_a_range_across_the_new_year_ends_in_the_next_one(reading):
    dates = reading("from 20 December to 5 January")["dates"]
    assert (dates["start"], dates["end"]) == ("2026-12-20", "2027-01-05")


def test_a_range_that_ended_lately_is_refused_with_next_year_s_as_its_reading(reading):
    answer = reading("runs 1-10 November")
    assert answer["dates"] is None
    (asked,) = answer["questions"]
    assert "wholly in the past" in asked["question"] and asked["words"] == "1-10 November"
    assert [(r["start"], r["end"]) for r in asked["readings"]] == [("2027-11-01", "2027-11-10")]


def test_a_range_long_past_is_next_year_s(reading):
    assert reading("runs 1-10 June")["dates"]["start"] == "2027-06-01"


def test_a_year_given_in_the_past_is_refused_without_a_reading(reading):
    answer = reading("runs 1-14 December 2025")
    assert answer["dates"] is None
    assert answer["questions"][0]["readings"] == [] and "past" in answer["questions"][0]["question"]


def test_a_year_given_ahead_is_kept(reading):
    dates = reading("runs 1-14 December 2027")["dates"]
    assert (dates["start"], dates["end"]) == ("2027-12-01", "2027-12-14")
