"""Insights, the headline and the movement highlights read as English sentences for none, one and many listeners."""
from __future__ import annotations

import numpy as np
import pytest

from core.listeners.snapshot import Snapshot
from core.segmentation.insights import explain, explain_segments, headline
from core.segmentation.rollups import highlights
from core.segmentation.rules import SEGMENTS

AVERAGES = {"recency_days": 3.4, "interactions_30d": 12.34, "interactions_90d": 30.0, "channels": 2.1,
            "competition_share": 0.91}
HABITS = {"top_channel": {"value": 2, "name": "WhatsApp", "share": 45.3},
          "top_daypart": {"value": "overnight", "name": "overnight", "share": 30.0},
          "top_show": {"value": 3, "name": "Breakfast Club", "share": 20.0}}
ONE_HABITS = {"top_channel": {"value": 2, "name": "WhatsApp", "share": 100.0},
              "top_daypart": {"value": "breakfast", "name": "breakfast", "share": 100.0}}


def segment(count: int, averages: dict | None = None, habits: dict | None = None) -> dict:
    """A segment's entry of the rollup."""
    return {"count": count, "averages": AVERAGES if averages is None else averages,
            "habits": HABITS if habits is None else habits}


@pytest.mark.parametrize("key, expected", [
    ("super_fan", "No super fans right now: recent, frequent, multi-channel, growing."),
    ("at_risk", "No at-risk listeners right now: was active, now declining."),
    ("dormant", "No dormant listeners right now: no recent engagement."),
    ("new_listener", "No new listeners right now: first interaction within the last 7 days."),
])
def test_an_empty_segment_says_there_are_none(key, expected):
    assert explain(key, {"count": 0}, 40) == expected


def test_one_listener_of_a_segment_is_written_in_the_singular():
    text = explain("occasional_engager", segment(1, habits=ONE_HABITS), 40)
    assert text.startswith("1 of your 40 listeners (2%) is an occasional engager: active within 30 days. "
                           "They made 12.3 interactions in the last 30 days on 2.1 channels and were last heard "
                           "from 3 days ago. They mostly use WhatsApp and they are most active at breakfast. ")
    assert "On average" not in text and "100%" not in text


def test_many_listeners_of_a_segment_are_averaged_and_their_habits_given_as_shares():
    text = explain("super_fan", segment(5), 40)
    assert text.startswith("5 of your 40 listeners (12%) are super fans: recent, frequent, multi-channel, growing. "
                           "On average, they made 12.3 interactions in the last 30 days on 2.1 channels and were "
                           "last heard from 3 days ago. 45% of them mostly use WhatsApp, 30% of them are most active "
                           "overnight and 20% of them have engaged with Breakfast Club. Reward and recruit them")


@pytest.mark.parametrize("count, expected", [
    (1, "1 of your 40 listeners (2%) is at risk: was active, now declining. They were last heard from 3 days ago "
        "and made 30 interactions in the last 90 days."),
    (7, "7 of your 40 listeners (18%) are at risk: was active, now declining. On average, they were last heard from "
        "3 days ago and made 30 interactions in the last 90 days."),
])
def test_a_segment_named_by_an_adjective_takes_no_article(count, expected):
    assert explain("at_risk", segment(count, habits={}), 40).startswith(expected)


@pytest.mark.parametrize("count, expected", [
    (1, "91% of their interactions are competition entries."),
    (3, "On average, 91% of their interactions are competition entries."),
])
def test_competition_chasers_are_described_by_their_share_of_competition_entries(count, expected):
    assert expected in explain("competition_chaser", segment(count), 40)


def test_a_segment_of_every_listener_says_all_of_them():
    text = explain("super_fan", segment(4, habits={"top_channel": {"value": 2, "name": "SMS", "share": 100.0}}), 4)
    assert text.startswith("All 4 listeners are super fans: ")
    assert "All of them mostly use SMS." in text


def test_the_only_listener_of_a_station_is_named_so():
    text = explain("super_fan", segment(1, {"recency_days": 0.2, "interactions_30d": 1, "channels": 1}, {}), 1)
    assert text.startswith("Your only listener is a super fan: recent, frequent, multi-channel, growing. They made "
                           "1 interaction in the last 30 days on 1 channel and were last heard from today.")


def test_averages_that_are_missing_are_left_out_rather_than_read_as_zero():
    text = explain("dormant", segment(2, averages={"interactions_90d": 0.0}, habits={}), 10)
    assert "On average, they made 0 interactions in the last 90 days." in text
    assert "last heard" not in text
    assert "On average" not in explain("dormant", segment(2, averages={}, habits={}), 10)


def counts(**given) -> dict:
    return {key: given.get(key, 0) for key in SEGMENTS}


@pytest.mark.parametrize("given, total, expected", [
    ({}, 0, "No listeners yet: import interactions or run the demo to see segments."),
    ({"dormant": 1}, 1, "Your only listener is dormant: no recent engagement."),
    ({"super_fan": 1}, 1, "Your only listener is a super fan: recent, frequent, multi-channel, growing."),
    ({"super_fan": 1, "at_risk": 1}, 2, "50% of your 2 listeners are actively engaged and 50% are at risk or "
                                        "dormant; the largest segments are super fans and at-risk listeners (50% "
                                        "each)."),
    ({"super_fan": 3, "at_risk": 1, "dormant": 8}, 12, "25% of your 12 listeners are actively engaged and 75% are "
                                                       "at risk or dormant; the largest segment is dormant listeners "
                                                       "(67%)."),
    ({"show_loyalist": 12000, "super_fan": 480}, 12480, "100% of your 12,480 listeners are actively engaged and 0% "
                                                        "are at risk or dormant; the largest segment is show "
                                                        "loyalists (96%)."),
])
def test_the_headline_reads_for_no_listener_one_listener_a_tie_and_many(given, total, expected):
    assert headline(counts(**given), total) == expected


def test_every_segment_of_a_rollup_gets_an_explanation_ending_with_its_action():
    rollup = {"total": 2, "segments": {"super_fan": {"count": 2, "percentage": 100.0, **segment(2)}}}
    insights, text = explain_segments(rollup)
    assert [i["segment"] for i in insights] == list(SEGMENTS)
    assert all(i["explanation"].endswith(i["recommended_action"]) for i in insights if i["count"])
    assert text.startswith("100% of your 2 listeners are actively engaged")


def moved(pairs: list[tuple[str, str]], top_shows: list[int]) -> tuple[dict, Snapshot]:
    """The moves of a run (one listener per pair) and the fresh snapshot with each mover's top show."""
    rows = np.arange(len(pairs))
    moves = {"rows": rows, "from": np.array([p[0] for p in pairs], dtype=object),
             "to": np.array([p[1] for p in pairs], dtype=object)}
    fresh = Snapshot(1, {"originator": np.array([f"o{i}" for i in rows]), "top_timeslot": np.array(top_shows)})
    return moves, fresh


SHOWS = {3: "Breakfast Club", 4: "Afternoon Drive"}


@pytest.mark.parametrize("pairs, top_shows, expected", [
    ([("super_fan", "at_risk")], [4], "1 super fan is now at risk, an Afternoon Drive listener"),
    ([("at_risk", "occasional_engager")], [-1], "1 at-risk listener is now an occasional engager"),
    ([("dormant", "super_fan")] * 2, [3, 3], "2 dormant listeners are now super fans, all of them Breakfast Club "
                                             "listeners"),
    ([("super_fan", "dormant")] * 3, [3, 3, 4], "3 super fans are now dormant, most of them Breakfast Club "
                                                "listeners"),
    ([("new_listener", "show_loyalist")] * 5, [3, 3, 4, -1, -1], "5 new listeners are now show loyalists, 40% of "
                                                                 "them Breakfast Club listeners"),
    ([("super_fan", "at_risk")] * 6, [3, 4, -1, -1, -1, -1], "6 super fans are now at risk"),
])
def test_a_highlight_reads_for_one_or_many_movers_and_names_their_show(pairs, top_shows, expected):
    moves, fresh = moved(pairs, top_shows)
    assert highlights(moves, fresh, SHOWS) == [expected]


def test_highlights_name_the_largest_moves_first_and_skip_first_assignments():
    moves, fresh = moved([("super_fan", "at_risk"), (None, "new_listener"), ("dormant", "super_fan"),
                          ("dormant", "super_fan")], [-1, -1, -1, -1])
    assert highlights(moves, fresh, SHOWS) == ["2 dormant listeners are now super fans",
                                               "1 super fan is now at risk"]
