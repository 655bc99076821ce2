"""Numbers and sentences in words: one place for percentages, plurals, articles, lists, days and dayparts."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.segmentation.behaviour import DAYPARTS
from core.text.wording import (
    DAYPART_PHRASES,
    agree,
    article,
    daypart,
    days_ago,
    heard,
    is_one,
    join_words,
    number,
    percent,
    percentage,
    plural,
    sentence,
    time_left,
)


@pytest.mark.parametrize("part, whole, expected", [(1, 3, 33.3), (0, 5, 0.0), (5, 5, 100.0), (3, 0, 0.0)])
def test_percentage_of_a_whole_has_one_decimal_and_nothing_of_nothing(part, whole, expected):
    assert percentage(part, whole) == expected


@pytest.mark.parametrize("share, expected", [(0.7, "70%"), (0.696, "70%"), (0.0, "0%"), (1.0, "100%")])
def test_percent_writes_a_share_as_whole_percent(share, expected):
    assert percent(share) == expected


@pytest.mark.parametrize("share, expected", [(0.004, "under 1%"), (0.996, "over 99%"), (0.005001, "1%")])
def test_a_share_that_is_neither_none_nor_all_never_reads_as_0_or_100_percent(share, expected):
    assert percent(share) == expected


@pytest.mark.parametrize("value, expected", [(0, "0"), (None, "0"), (12480, "12,480"), (2.46, "2.5"), (3.0, "3"),
                                             (1234.56, "1,234.6"), (0.04, "0")])
def test_a_number_has_thousands_separators_and_at_most_one_decimal(value, expected):
    assert number(value) == expected


@pytest.mark.parametrize("count, expected", [(0, "0 listeners"), (1, "1 listener"), (2, "2 listeners"),
                                             (12480, "12,480 listeners"), (1.04, "1 listener"),
                                             (1.5, "1.5 listeners"), (None, "0 listeners")])
def test_a_count_and_its_noun_agree_for_none_one_and_many(count, expected):
    assert plural(count, "listener") == expected


@pytest.mark.parametrize("noun, many", [("entry", "entries"), ("day", "days"), ("match", "matches"),
                                        ("box", "boxes"), ("wish", "wishes"), ("class", "classes"),
                                        ("person", "people"), ("at-risk listener", "at-risk listeners"),
                                        ("super fan", "super fans"), ("active week", "active weeks")])
def test_plurals_follow_english_spelling_and_irregular_nouns(noun, many):
    assert plural(1, noun) == f"1 {noun}"
    assert plural(0, noun) == f"0 {many}"
    assert plural(3, noun) == f"3 {many}"


def test_a_plural_no_rule_finds_can_be_given():
    assert plural(2, "cactus", "cacti") == "2 cacti"
    assert plural(1, "cactus", "cacti") == "1 cactus"


@pytest.mark.parametrize("count, one, expected", [(1, "is", "is"), (0, "is", "are"), (5, "has", "have"),
                                                  (1, "was", "was"), (2, "was", "were")])
def test_verbs_agree_with_their_count(count, one, expected):
    assert agree(count, one) == expected


def test_only_a_count_that_reads_as_one_is_one():
    assert [is_one(c) for c in (0, 1, 1.04, 1.06, 2)] == [False, True, True, False, False]


@pytest.mark.parametrize("phrase, expected", [("super fan", "a super fan"), ("occasional engager",
                                                                              "an occasional engager"),
                                              ("Afternoon Drive listener", "an Afternoon Drive listener")])
def test_an_article_goes_by_the_first_letter(phrase, expected):
    assert article(phrase) == expected


@pytest.mark.parametrize("items, expected", [([], ""), (["A"], "A"), (["A", "B"], "A and B"),
                                             (["A", "B", "C"], "A, B and C"), (["A", "", "C"], "A and C")])
def test_lists_are_joined_with_commas_and_a_final_and(items, expected):
    assert join_words(items) == expected


def test_a_sentence_starts_with_a_capital_and_ends_with_one_full_stop():
    assert sentence("45% of them use WhatsApp") == "45% of them use WhatsApp."
    assert sentence("they use WhatsApp.") == "They use WhatsApp."


@pytest.mark.parametrize("days, expected", [(0, "today"), (0.9, "today"), (1, "yesterday"), (1.7, "yesterday"),
                                            (2, "2 days ago"), (12, "12 days ago"), (-1, "today"),
                                            (float("inf"), "never"), (None, "never")])
def test_days_ago_count_whole_days(days, expected):
    assert days_ago(days) == expected


def test_days_ago_in_short_keeps_today_and_yesterday_whole():
    assert [days_ago(days, short=True) for days in (0, 1, 3)] == ["today", "yesterday", "3 d ago"]


@pytest.mark.parametrize("key, expected", [("overnight", "overnight"), ("breakfast", "at breakfast"),
                                           ("evening", "in the evening"), ("drive", "at drive time")])
def test_a_daypart_reads_as_when_it_is(key, expected):
    assert daypart(key) == expected


def test_every_daypart_of_the_behaviour_profile_has_its_own_phrase():
    assert set(DAYPART_PHRASES) == set(DAYPARTS)


@pytest.mark.parametrize("seconds, said", [(0, "a minute"), (90, "a minute"), (91, "2 minutes"), (200, "4 minutes"),
                                           (5340, "89 minutes"), (5400, "1.5 hours"), (7200, "2 hours")])
def test_a_wait_is_said_in_minutes_then_half_hours_never_finer_than_an_estimate(seconds, said):
    assert time_left(seconds) == said


JOZI = "Africa/Johannesburg"  # UTC+2


@pytest.mark.parametrize(("last", "now", "tz", "expected"), [
    ("2026-11-24T23:50:00+02:00", "2026-11-25T08:00:00+02:00", JOZI, "yesterday"),  # 8 hours, but another day
    ("2026-11-25T00:05:00+02:00", "2026-11-25T23:59:00+02:00", JOZI, "today"),  # 24 hours less 6 minutes
    ("2026-11-24T22:30:00+00:00", "2026-11-25T08:00:00+00:00", JOZI, "today"),  # 00:30 on the 25th at the station
    ("2026-11-24T22:30:00+00:00", "2026-11-25T08:00:00+00:00", "UTC", "yesterday"),
    ("2026-11-22T23:59:00+02:00", "2026-11-25T00:01:00+02:00", JOZI, "3 days ago"),
    ("2026-11-24T12:00:00+02:00", "2026-11-25T12:00:00+02:00", JOZI, "yesterday"),
    ("2026-11-24T23:50:00+02:00", "2026-11-25T00:30:00+02:00", JOZI, "yesterday"),  # 40 minutes, another day
    ("2026-11-24T23:50:00+02:00", "2026-11-25T00:30:00+02:00", "UTC", "today"),  # 21:50 and 22:30 on the 24th
    ("2026-11-18T12:00:00+02:00", "2026-11-25T12:00:00+02:00", JOZI, "7 days ago"),
    ("2026-11-26T09:00:00+02:00", "2026-11-25T12:00:00+02:00", JOZI, "today"),  # still to come: never "-1 days ago"
])
def test_a_day_is_named_by_the_station_s_calendar_not_by_hours_elapsed(last, now, tz, expected):
    assert heard(last, tz, datetime.fromisoformat(now)) == expected


def test_a_day_named_in_short_and_never_heard():
    now = datetime(2026, 11, 25, 10, tzinfo=UTC)
    assert heard(datetime(2026, 11, 20, 10, tzinfo=UTC), JOZI, now, short=True) == "5 d ago"
    assert heard(None, JOZI, now) == "never" and heard("", JOZI, now) == "never"


@pytest.mark.parametrize("tz", [None, "", "Mars/Olympus"])
def test_a_station_without_a_known_zone_has_johannesburg_s_calendar(tz):
    """23:50 on the 24th and 00:30 on the 25th in Johannesburg are both the 24th in UTC: a station whose zone is
    missing or unknown reads them as Johannesburg does, "yesterday"."""
    now = datetime.fromisoformat("2026-11-25T00:30:00+02:00")
    assert heard("2026-11-24T23:50:00+02:00", tz, now) == "yesterday"
